import CareLanguage
import CareModel
import CareSpeech
import Foundation
import Logging

/// Where the assistant's voice goes: the speaker, a WAV file, or nowhere.
public protocol SpeechOutput: AnyObject {
    /// Speaks and returns when done (so the microphone can be trusted again).
    func speak(_ text: String) throws
    /// From the next sentence on, sound like this (a changed setting).
    func use(_ style: SpeechOutputStyle)
    /// Whether what it says comes out into the room, where the microphone hears it: only then
    /// does the microphone stop listening while it speaks.
    var isAudible: Bool { get }
}

/// Nothing is spoken (`--no-speech`, or no way to make sound).
public final class SilentOutput: SpeechOutput {
    public init() {}
    public func speak(_ text: String) throws {}
    public func use(_ style: SpeechOutputStyle) {}
    public var isAudible: Bool { false }
}

/// How the assistant sounds: the person's voice, rate and volume settings.
public struct SpeechOutputStyle: Sendable, Equatable {
    /// An espeak-ng voice, with a variant if chosen: "en-us", "en-us+f3".
    public var voice: String
    public var rate: Int
    public var volume: Int
    /// For a voice that reads pinyin rather than Chinese characters (zh-Hans).
    public var pinyin: PinyinSpeller?

    public init(voice: String, rate: Int = 150, volume: Int = 100, pinyin: PinyinSpeller? = nil) {
        self.voice = voice
        self.rate = rate
        self.volume = volume
        self.pinyin = pinyin
    }

    /// The settings' rate, volume and voice variant, on the locale's voice (`baseVoice`).
    public init(settings: Settings, baseVoice: String, pinyin: PinyinSpeller? = nil) {
        self.init(voice: baseVoice + (settings.voiceVariant.map { "+" + $0 } ?? ""),
                  rate: settings.speechRate, volume: settings.volume, pinyin: pinyin)
    }

    public func synthesize(_ text: String, with synthesizer: SpeechSynthesizer) throws -> PCMAudio {
        try synthesizer.synthesize(pinyin?.spell(text) ?? text, voice: voice, rate: rate, volume: volume)
    }

    /// Synthesizes piece by piece (`SpeechSynthesizer.synthesize(_:voice:rate:volume:pieces:)`).
    func synthesize(_ text: String, with synthesizer: SpeechSynthesizer,
                    pieces: (UnsafeBufferPointer<Int16>) throws -> Void) throws {
        try synthesizer.synthesize(pinyin?.spell(text) ?? text, voice: voice, rate: rate, volume: volume, pieces: pieces)
    }
}

/// espeak-ng in process, played through ALSA.
public final class SpeakerOutput: SpeechOutput {
    private let synthesizer: SpeechSynthesizer
    private let sink: SpeakerSink
    private var style: SpeechOutputStyle

    public init(synthesizer: SpeechSynthesizer, sink: SpeakerSink, style: SpeechOutputStyle) {
        self.synthesizer = synthesizer
        self.sink = sink
        self.style = style
    }

    /// Plays each piece as espeak-ng makes it: the reply is heard once ALSA's buffer of it is
    /// made (`SpeakerSink.bufferSeconds`, two of espeak-ng's 60 ms pieces), not the whole
    /// sentence (`bench loop` times the same).
    public func speak(_ text: String) throws {
        let rate = synthesizer.sampleRate
        do {
            try style.synthesize(text, with: synthesizer) { try sink.write($0, sampleRate: rate) }
        } catch {
            try? sink.finish()
            throw error
        }
        try sink.finish()
    }

    public func use(_ style: SpeechOutputStyle) { self.style = style }
    public var isAudible: Bool { true }
}

/// Everything spoken goes into one WAV file (`--audio-out`), each sentence
/// followed by a short pause; the file is rewritten after every sentence so it
/// is complete whenever the program stops.
public final class WAVFileOutput: SpeechOutput {
    private let synthesizer: SpeechSynthesizer
    private let url: URL
    private var style: SpeechOutputStyle
    private var audio: PCMAudio

    public init(synthesizer: SpeechSynthesizer, url: URL, style: SpeechOutputStyle) throws {
        self.synthesizer = synthesizer
        self.url = url
        self.style = style
        audio = PCMAudio(samples: [], sampleRate: synthesizer.sampleRate)
        try WAVFile.write(audio, to: url)
    }

    public func speak(_ text: String) throws {
        let sentence = try style.synthesize(text, with: synthesizer)
        audio.samples += sentence.samples
        audio.samples += [Int16](repeating: 0, count: audio.sampleRate * 3 / 10)
        try WAVFile.write(audio, to: url)
    }

    public func use(_ style: SpeechOutputStyle) { self.style = style }
    public var isAudible: Bool { false }
}
