import CareLanguage
import CareSpeech
import CareStore
import CareTerminal
import Foundation

extension DataDirectory {
    /// Where the person's adapted voice lives (`AdaptedVoice`).
    public var voiceDirectory: URL { url.appendingPathComponent("voice") }
}

/// Learning the voice of the person who uses CareVoice: each recording is checked against the
/// words it should say, then the acoustic model is adapted to them (`VoiceAdapter`).
///
/// A recording is decoded with a grammar of exactly its words, through the same road as the
/// assistant's audio (resampling, noise floor, padding), so the model learns from what the
/// decoder will see. Whether it sounds like those words at all is the grammar fit: a cough or
/// another sentence fits far worse than the words said.
public final class VoiceEnrollment {
    /// Below this fit a recording does not sound like its words. Lenient, as the emergency floor
    /// was when this was set: a voice the general model fits badly is exactly the one that needs
    /// enrolling.
    public static let minimumFit = -60.0
    /// A take that fits this much worse than the median of the person's clear takes so far (once
    /// there are two) is not taken either: it is the voice unlike itself, most likely other words
    /// forced onto the phrase. On the real FSDD digits, none of the 240 heard right fell more than
    /// 25 below its speaker's median (-27.6 to -40.2); "the kettle has boiled", said for "seven
    /// eight nine" after two phrases that fit +11 and +22, fit -42.
    public static let largestDropBelowTheVoice = 30.0
    /// Fewer clear recordings than this are too few to learn from.
    public static let minimumUtterances = 5

    public enum Take {
        case usable(VoiceAdapter.Utterance, fit: Double)
        /// Nothing was heard, or it fits its words worse than `minimumFit`.
        case unclear(fit: Double?)
    }

    private let recognizer: SpeechRecognizer
    private let table: LocaleTable
    /// What a voice heard over a telephone band is learned from (`AudioBand.narrow`).
    private let narrowbandMeans: String?
    /// The fits of the takes judged clear so far.
    private var clearFits: [Double] = []
    private var grammars: [String: String] = [:]
    /// Noisy copies of the enrollment phrases learned from beside them (`VoiceAdapter.noisyCopies`).
    public var noisyCopies = VoiceAdapter.NoisyCopy.standard
    /// The rate of the audio a take keeps (`VoiceAdapter.Utterance.samples`).
    public var sampleRate: Int { recognizer.configuration.sampleRate }

    /// A recognizer on the general model (the statistics are collected against it), keeping the
    /// audio of what it decodes.
    public init(table: LocaleTable, resources: ResourceLocator) throws {
        self.table = table
        narrowbandMeans = RecognizerFactory.narrowbandMeans(table: table, resources: resources)
        var configuration = try RecognizerFactory.configuration(table: table, resources: resources)
        configuration.keepsAudio = true
        recognizer = try SpeechRecognizer(configuration, grammars: ["prompt_0": Self.grammar(for: ["yes"])])
    }

    /// The phrases the person is asked to say, as words.
    public static func prompts(_ table: LocaleTable) -> [[String]] {
        table.enrollment.prompts.map(words)
    }

    static func words(_ phrase: String) -> [String] {
        phrase.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
    }

    static func grammar(for words: [String]) -> String {
        "#JSGF V1.0;\ngrammar prompt;\npublic <prompt> = \(words.joined(separator: " "));\n"
    }

    /// The first word the recognizer cannot pronounce, if any.
    public func unpronounceable(_ words: [String]) -> String? {
        words.first { !recognizer.canPronounce($0) }
    }

    /// Checks one recording (any rate; decoded whole, as one utterance) against its words.
    public func take(_ audio: PCMAudio, words: [String]) throws -> Take {
        try select(words)
        let result = recognizer.decode(audio)
        return judge(result, words: words)
    }

    /// How well each recording fits its words with the voice heard at each scale
    /// (`VoiceScale`): recording i's fit at scale s is `fits[s][i]`, nil when nothing was heard.
    /// Each is heard as a recognizer at that scale hears it (resampled, noise under its speech,
    /// then scaled). The takes are not judged: a poor scale is no reason to leave one out.
    public func fits(of recordings: [(audio: PCMAudio, words: [String])], at scales: [Double]) throws -> [Double: [Double?]] {
        let rate = recognizer.configuration.sampleRate
        let prepared = recordings.map { NoiseFloor.applied(to: Resampler.resample($0.audio, to: rate)) }
        var fits: [Double: [Double?]] = [:]
        for scale in scales {
            // Each scale from the same start: the running cepstral mean learns the voice as heard.
            recognizer.beginSession()
            fits[scale] = try zip(recordings, prepared).map { recording, audio in
                try select(recording.words)
                let result = recognizer.decode(Resampler.scaleFrequencies(of: audio, by: scale).samples)
                return result.text.isEmpty ? nil : result.grammarFit
            }
        }
        return fits
    }

    /// The same for live audio: feed the microphone's chunks (at 16 kHz) until it returns a take.
    public func listen(_ chunk: [Int16], words: [String]) throws -> Take? {
        try select(words)
        // Any utterance that ended is a take, a cough as much as words: the person hears why it
        // is asked again.
        guard let result = recognizer.process(chunk).first else { return nil }
        recognizer.reset()
        return judge(result, words: words)
    }

    /// The end of the stream: the utterance in progress, if speech was heard in it.
    public func finish(words: [String]) throws -> Take? {
        try select(words)
        guard let result = recognizer.finish() else { return nil }
        return judge(result, words: words)
    }

    /// Forgets audio in progress (between prompts, and while the assistant speaks).
    public func reset() { recognizer.reset() }

    private func select(_ words: [String]) throws {
        let source = Self.grammar(for: words)
        let name: String
        if let known = grammars[source] {
            name = known
        } else {
            name = "prompt_\(grammars.count + 1)"
            try recognizer.addGrammar(name: name, source: source)
            grammars[source] = name
        }
        if recognizer.currentGrammar != name { try recognizer.selectGrammar(name) }
    }

    private func judge(_ result: RecognitionResult, words: [String]) -> Take {
        guard !result.text.isEmpty, let fit = result.grammarFit else { return .unclear(fit: nil) }
        guard Self.isClear(fit: fit, afterClearFits: clearFits) else { return .unclear(fit: fit) }
        clearFits.append(fit)
        return .usable(VoiceAdapter.Utterance(samples: result.audio, words: words, speechSeconds: result.speechSeconds), fit: fit)
    }

    /// Adapts the model to the enrollment phrases and the readings confirmed in use (either may
    /// be empty, not both) and stores the voice in `directory`, replacing the one stored there
    /// only when all of it worked.
    /// - Parameter band: what the recordings carried. A voice heard over a telephone band is
    ///   learned from the means for that band, which it then keeps for what it was not taught:
    ///   learned from the model's own, george's FSDD digits came out worse (24 of 30) than with
    ///   no voice at all (27 of 30).
    public func learn(phrases: [VoiceAdapter.Utterance], confirmed: [VoiceAdapter.Utterance] = [],
                      method: AdaptedVoice.Method = .preferred, into directory: URL, band: AudioBand = .wide) throws -> AdaptedVoice {
        var pronunciations: [String: String] = [:]
        for word in Set((phrases + confirmed).flatMap(\.words)) {
            pronunciations[word] = recognizer.pronunciation(of: word)
        }
        var adapter = VoiceAdapter(baseModel: table.speech.acousticModel, sampleRate: recognizer.configuration.sampleRate)
        adapter.noisyCopies = noisyCopies
        return try adapter.adapt(phrases: phrases, confirmed: confirmed, pronunciations: pronunciations, method: method,
                                 into: directory, baseMeans: band == .narrow ? narrowbandMeans : nil)
    }
}

extension VoiceEnrollment {
    /// Another person's takes follow: judged against their own, not the last person's.
    public func beginVoice() { clearFits = [] }

    /// Whether a take that fits its words this well sounds like them: above `minimumFit`, and not
    /// far below the person's other clear takes (`largestDropBelowTheVoice`).
    static func isClear(fit: Double, afterClearFits fits: [Double]) -> Bool {
        guard fit >= minimumFit else { return false }
        guard fits.count >= 2 else { return true }
        let sorted = fits.sorted(), middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        return fit >= median - largestDropBelowTheVoice
    }

    /// Learns the voice from the clear recordings, or says why not: too few of them, or the
    /// adaptation failed (the voice stored before is then kept). `announce` is told when the
    /// learning starts, which takes a few seconds.
    public func learn(phrases: [VoiceAdapter.Utterance], confirmed: [VoiceAdapter.Utterance] = [],
                      method: AdaptedVoice.Method = .preferred, into directory: URL, band: AudioBand = .wide,
                      announce: () -> Void) -> VoiceLearning {
        let heard = phrases.count + confirmed.count
        guard heard >= Self.minimumUtterances else { return .tooFew(heard: heard) }
        announce()
        do {
            let voice = try learn(phrases: phrases, confirmed: confirmed, method: method, into: directory, band: band)
            return .learned(recordings: voice.record.utterances, seconds: Int(voice.record.seconds.rounded()))
        } catch {
            return .failed(reason: "\(error)")
        }
    }
}

extension VoiceLearning {
    /// What the person is told of it.
    public func message(_ book: Phrasebook) -> Message {
        switch self {
        case .learned(let recordings, let seconds):
            return book.message(.enrollDone, ["count": Message(String(recordings)), "seconds": Message(String(seconds))])
        case .tooFew(let heard): return book.message(.enrollTooFew, ["count": Message(String(heard))])
        case .noMicrophone(let reason): return book.message(.enrollNeedsMicrophone, ["reason": Message(reason)])
        case .failed(let reason): return book.message(.enrollFailed, ["reason": Message(reason)])
        }
    }
}

extension AdaptedVoice.Method {
    /// The adaptation the decoder uses unless told otherwise, chosen on development data
    /// (`carevoice bench enrollment`).
    public static let preferred: AdaptedVoice.Method = .map
}

extension VoiceEnrollment {
    /// The words a corpus recording says, for enrolling from recordings: its `text` column,
    /// else what a digit or a one-word command item must say. nil when neither tells.
    public static func words(for item: CorpusItem, table: LocaleTable) -> [String]? {
        if let text = item.text, !text.isEmpty { return words(text) }
        switch item.kind {
        case .digit:
            guard let digit = Int(item.expected) else { return nil }
            return table.numbers.digits.first { $0.value == digit }.map { [$0.key] }
        case .command:
            return item.expected.contains(" ") ? nil : [item.expected]
        case .reading, .reject, .enroll:
            return nil
        }
    }

    /// A speaker's recordings split into those to learn their voice from (their enrollment
    /// phrases, else `count` of the others, each expected value in turn) and the rest, to test
    /// what was learned (`bench enrollment`, `bench scale`).
    public static func split(_ own: [CorpusItem], count: Int) -> (learning: [CorpusItem], testing: [CorpusItem]) {
        let phrases = own.filter { $0.kind == .enroll }
        let learning = phrases.isEmpty ? balancedSelection(own, count: count) : phrases
        // Every enrollment phrase is learned from when there is one: none is left to test.
        let testing = own.filter { item in !learning.contains { $0.line == item.line } }
        return (learning, testing)
    }

    /// What the assistant would learn a speaker's voice from in use (`ConfirmedSpeech`), given
    /// their recordings as heard without a voice: the first `count` heard right as one utterance
    /// (each expected value in turn; readings, digits, commands, never an unrelated sentence,
    /// which is right when nothing is heard), each with the words heard as its text; and, given
    /// `corrected`, those heard wrong that it gives words for (a reading whose number the person
    /// corrected), with those words.
    public static func heardRight(_ decoded: [(item: CorpusItem, heard: [String], right: Bool)], count: Int,
                                  corrected: ((CorpusItem, [String]) -> [String]?)? = nil) -> [CorpusItem] {
        let right = decoded.compactMap { decoded -> CorpusItem? in
            guard decoded.item.kind != .reject, decoded.heard.count == 1 else { return nil }
            var item = decoded.item
            if decoded.right {
                item.text = decoded.heard[0]
            } else if let words = corrected?(decoded.item, decoded.heard) {
                item.text = words.joined(separator: " ")
            } else {
                return nil
            }
            return item
        }
        return balancedSelection(right, count: count)
    }

    /// Up to `count` items, taking each expected value in turn (in manifest order), so that
    /// 20 of a speaker's 100 digits are two of each digit, not twenty zeros.
    public static func balancedSelection(_ items: [CorpusItem], count: Int) -> [CorpusItem] {
        var groups: [String: [CorpusItem]] = [:]
        var order: [String] = []
        for item in items {
            if groups[item.expected] == nil { order.append(item.expected) }
            groups[item.expected, default: []].append(item)
        }
        var chosen: [CorpusItem] = []
        var round = 0
        while chosen.count < count {
            let taken = order.compactMap { groups[$0]!.indices.contains(round) ? groups[$0]![round] : nil }
            if taken.isEmpty { break }
            chosen += taken.prefix(count - chosen.count)
            round += 1
        }
        return chosen
    }
}

/// Enrollment with the person: each phrase shown and said, then heard, checked and kept; an
/// unclear one asked once more, then left out. Output is plain lines (screen readers) and speech.
public struct EnrollmentSession {
    public var book: Phrasebook
    public var speech: SpeechOutput
    /// Opens the microphone for one phrase, after the phrase was said (so the assistant does not
    /// hear itself); a recording source may hand out the same source every time.
    public var openSource: () throws -> AudioSource
    /// Listening for one phrase stops after this much audio without a take.
    public var secondsPerPhrase = 10.0
    /// Attempts per phrase before it is left out.
    public var attempts = 2
    /// Where the lines go (the console, or the assistant's display).
    public var display: (String) -> Void = { Console.line($0) }

    public init(book: Phrasebook, speech: SpeechOutput, openSource: @escaping () throws -> AudioSource) {
        self.book = book
        self.speech = speech
        self.openSource = openSource
    }

    /// Asks for every phrase and returns the clear recordings. Stops early when the source ends.
    public func record(_ prompts: [[String]], with enrollment: VoiceEnrollment) throws -> [VoiceAdapter.Utterance] {
        say(book.message(.enrollIntro, ["count": Message(String(prompts.count))]))
        var kept: [VoiceAdapter.Utterance] = []
        phrases: for (index, words) in prompts.enumerated() {
            let phrase = Message(words.joined(separator: " "))
            display(book.text(.enrollPrompt, ["number": String(index + 1), "total": String(prompts.count),
                                                   "phrase": phrase.display]))
            try? speech.speak(book.message(.enrollSay, ["phrase": phrase]).spoken)
            for attempt in 1...attempts {
                switch try hear(words, with: enrollment) {
                case .none:
                    break phrases  // the recording ended
                case .usable(let utterance, _)?:
                    kept.append(utterance)
                    continue phrases
                case .unclear?:
                    say(book.message(attempt < attempts ? .enrollUnclear : .enrollSkipped, ["phrase": phrase]))
                }
            }
        }
        return kept
    }

    private func say(_ message: Message) {
        display(message.display)
        try? speech.speak(message.spoken)
    }

    /// One take of the phrase; nil when the source has ended. Silence for `secondsPerPhrase`
    /// counts as unclear.
    private func hear(_ words: [String], with enrollment: VoiceEnrollment) throws -> VoiceEnrollment.Take? {
        let source = try openSource()
        enrollment.reset()
        let chunkFrames = source.sampleRate / 10
        var heard = 0
        var floor = NoiseFloor.Stream()
        while heard < Int(secondsPerPhrase * Double(source.sampleRate)) {
            guard var chunk = try source.read(frames: chunkFrames) else { return try enrollment.finish(words: words) }
            heard += chunk.count
            floor.apply(to: &chunk)
            if let take = try enrollment.listen(chunk, words: words) { return take }
        }
        return .unclear(fit: nil)
    }
}
