import Foundation

/// How loud the background is under the speech, which decides whether pocketsphinx takes the
/// noise out before it hears (its `-remove_noise`, a spectral subtraction).
///
/// Taking noise out helps where there is noise and costs where there is none: its spectral
/// subtraction smears clean, close-talking speech (`carevoice bench loop --count 100 --seed 5`,
/// 5 espeak-ng voices: exact readings 65 % with it, 68 % without). `carevoice bench recognition
/// [--noise pink --snr N] --background quiet|noisy` on two synthetic corpora (ec41: 5 espeak-ng
/// voices; hr43: 5 others; 278 readings, commands and unrelated sentences), right with the
/// noise left in -> taken out: clean 218 -> 211 (readings 116 -> 109 of 160); 25 dB 232 -> 241;
/// 20 dB 234 -> 238; 15 dB 211 -> 230; 10 dB 169 -> 191 (readings 96 -> 109, unrelated speech
/// turned away 14 -> 21 of 40). Chinese (zc33, 144): clean 105 -> 105, 10 dB 50 -> 74. Calls
/// for help at 10 dB (em61 + em62, 210 by 10 voices; models/README.md has the commands that make
/// them): 208 -> 209 heard.
public enum AudioBackground: String, Sendable, CaseIterable {
    /// Speech well above what is around it (a quiet room, a close microphone).
    case quiet
    /// Noise close under the speech (a television, a kitchen, a street).
    case noisy

    /// The background of a recording: noisy when its speech is less than `noisyBelowDB` above
    /// its quietest frames. Digital silence, or no sound at all, is quiet.
    public static func of(_ audio: PCMAudio) -> AudioBackground {
        guard let snr = signalToNoise(audio) else { return .quiet }
        return snr < noisyBelowDB ? .noisy : .quiet
    }

    /// Below this signal-to-noise ratio, in dB (`signalToNoise`), audio is noisy. Recordings of
    /// the corpora above (and em61, em62: calls for help) measure, said in silence, 14-55 (most
    /// 20-30); mixed at 15 dB 12-17, at 10 dB 7-15: there is no line between clean speech and
    /// 15 dB. At 14, ec41 and hr43 came out right: 10 dB 190 (169 with the noise left in, 191
    /// with it taken out of all), 15 dB 212 (211, 230), clean 218 (218, 211); calls for help at
    /// 10 dB 209 of 210 heard (208 left in).
    public static let noisyBelowDB = 14.0

    /// Shorter recordings, in seconds, are a word or two and nothing around them: their
    /// quietest frames are the word's own. Said in silence, 7 commands of ec41 and hr43 ("yes",
    /// "emergency", "again", 0.4-0.6 s) measured 11-13 dB.
    public static let shortestMeasured = 1.0

    /// The background of a stream after an utterance whose speech was `snr` dB above what was
    /// heard around it (`RecognitionResult.signalToNoise`), heard so far as this one: noisy below
    /// `noisyBelowDB`, quiet again from `quietFromDB`; in between it stays as it was, so that
    /// utterances near the line do not swap the recognizer back and forth.
    public func following(_ snr: Double) -> AudioBackground {
        if snr < Self.noisyBelowDB { return .noisy }
        if snr >= Self.quietFromDB { return .quiet }
        return self
    }

    /// From this signal-to-noise ratio up, in dB, a stream heard as noisy is quiet again.
    public static let quietFromDB = 20.0

    /// The decoder options that hear audio with this background.
    public var decoderOptions: [String: String] {
        switch self {
        case .quiet: return ["-remove_noise": "no"]
        case .noisy: return ["-remove_noise": "yes"]
        }
    }

    /// The speech's power (`NoiseMixer.speechPower`) over the background's, in dB: the
    /// background is the mean power of the quietest tenth of the 20 ms frames (the pauses
    /// around and between words). Without pauses those are the speech's own quiet sounds: a
    /// sentence synthesized without one measures 26 dB, and the FSDD's tightly cut digits
    /// measured 8-48 (most are shorter than `shortestMeasured`, and now measure nothing).
    /// Nil when there is no sound, the pauses are digitally silent, or the recording is too short
    /// to have any (`shortestMeasured`).
    public static func signalToNoise(_ audio: PCMAudio) -> Double? {
        let powers = audio.framePowers.sorted()
        guard audio.duration >= shortestMeasured, let speech = NoiseMixer.speechPower(audio) else { return nil }
        let quietest = powers.prefix(max(1, powers.count / 10))
        let background = quietest.reduce(0, +) / Double(quietest.count)
        guard background > 0 else { return nil }
        return 10 * log10(speech / background)
    }
}

/// The power of what a stream carries between utterances: the median of the recognizer's blocks
/// heard outside speech in the last 3 s of them (a median, so that the start of a word before the
/// detector hears it, or a cough, does not count).
struct BackgroundLevel {
    private var powers: [Double] = []
    private var next = 0
    static let blocks = Int((3 / SpeechRecognizer.blockSeconds).rounded())

    mutating func hear(_ block: UnsafeBufferPointer<Int16>) {
        guard !block.isEmpty else { return }
        let power = block.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(block.count)
        if powers.count < Self.blocks { powers.append(power) } else { powers[next] = power }
        next = (next + 1) % Self.blocks
    }

    /// Nil until a block was heard.
    var power: Double? {
        guard !powers.isEmpty else { return nil }
        return powers.sorted()[powers.count / 2]
    }

    /// Whether enough was heard to judge speech against while it is said: the detector hears
    /// speech 0.1-0.3 s after it starts, so in a recording that starts with its speech all that
    /// was heard "outside speech" is the speech's start. (A Chinese reading said at once,
    /// `carevoice say` then `listen --audio-in`, sounded noisy against its first syllable, and was
    /// ended as in a noisy room.) Until then an utterance is judged against its own quietest
    /// moments (`SpeechRecognizer.utteranceSoundsNoisy`). An utterance's signal-to-noise, once it
    /// has ended, is measured whatever was heard: a noise that starts just before speech is heard so
    /// (and, until this is known, against its own quietest moments too:
    /// `SpeechRecognizer.endedSignalToNoise`).
    var isKnown: Bool { powers.count >= Self.speechStartBlocks }
    static let speechStartBlocks = Int((0.3 / SpeechRecognizer.blockSeconds).rounded())

    /// How far the speech of `utterance` (`NoiseMixer.speechPower`) is above this background,
    /// in dB; nil before any background was heard, or when either is silent.
    func signalToNoise(of utterance: [Int16], sampleRate: Int) -> Double? {
        guard let background = power, background > 0,
              let speech = NoiseMixer.speechPower(PCMAudio(samples: utterance, sampleRate: sampleRate)) else { return nil }
        return 10 * log10(speech / background)
    }
}

/// What audio is heard as, measured on a recording: its band decides the acoustic model's means,
/// its background whether noise is taken out first.
public struct AudioConditions: Hashable, Sendable {
    public var band: AudioBand
    public var background: AudioBackground

    /// A microphone's, until measured: full band, quiet.
    public init(band: AudioBand = .wide, background: AudioBackground = .quiet) {
        self.band = band
        self.background = background
    }

    /// Telephone-band audio is heard as quiet whatever its background: the FSDD's 400 real
    /// digits with pink noise mixed in, heard with the narrowband means, came out right without
    /// -> with the noise taken out 366 -> 358 at 20 dB, 318 -> 317 at 10 dB.
    /// - Parameter band: the band to hear it as instead of its own, to measure the means.
    public static func of(_ audio: PCMAudio, heardAs band: AudioBand? = nil) -> AudioConditions {
        let band = band ?? AudioBand.of(audio)
        return AudioConditions(band: band, background: band == .narrow ? .quiet : .of(audio))
    }

    /// These conditions with the room heard over `background`; nil for telephone-band audio in
    /// noise, which is heard as quiet (see `of`).
    public func over(_ background: AudioBackground) -> AudioConditions? {
        band == .narrow && background == .noisy ? nil : AudioConditions(band: band, background: background)
    }
}
