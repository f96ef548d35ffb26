import CareAssistant
import CareLanguage
import CareSpeech
import CareTerminal
import Foundation

/// The recognizers a corpus is heard with, one per kind of audio (`AudioConditions`), each made
/// when the first recording of its kind comes, as the assistant makes its recognizer for what it
/// hears.
final class ConditionRecognizers {
    private let make: (AudioConditions) throws -> SpeechRecognizer
    private var made: [AudioConditions: SpeechRecognizer] = [:]

    init(_ make: @escaping (AudioConditions) throws -> SpeechRecognizer) { self.make = make }

    /// One recognizer whatever the audio, to measure it alone.
    convenience init(single recognizer: SpeechRecognizer) { self.init { _ in recognizer } }

    func callAsFunction(_ conditions: AudioConditions) throws -> SpeechRecognizer {
        if let recognizer = made[conditions] { return recognizer }
        let recognizer = try make(conditions)
        made[conditions] = recognizer
        return recognizer
    }
}

/// Decodes corpus recordings exactly as the assistant would (its grammar for the state where it
/// would hear each one, its rejection, the means for the recording's band, noise taken out of a
/// noisy one) and counts what the dialog's parsers judge right.
struct CorpusDecoder {
    enum Printing { case none, misses, every }

    let recognizers: ConditionRecognizers
    let judge: RecognitionJudge
    let acceptance: SpeechAcceptance
    let book: Phrasebook
    /// Background noise mixed in, at this SNR in dB.
    var noise: (NoiseColor, Double)?
    /// Seconds of the noise alone before and after each recording: a background that was there
    /// before the person spoke, rather than one that starts with their words.
    var noiseAround = 0.0
    /// Which draw of the noise: each recording's noise is drawn from its place in the corpus and this.
    var noiseDraw: UInt64 = 0
    /// A grammar to decode every item with instead of its state's.
    var grammar: String?
    var printing: Printing = .misses
    /// Each recording is heard as a session's first words (`SpeechRecognizer.beginSession`).
    var eachFirstOfSession = false
    /// Every recording is heard as this band instead of its own.
    var band: AudioBand?
    /// Every recording is heard as having this background instead of its own.
    var background: AudioBackground?

    struct Run {
        var tally = Tally()
        /// Each item decoded, what was heard of it (turned away: "") and whether that was right.
        var items: [(item: CorpusItem, heard: [String], right: Bool)] = []
        var decodeTimes: [Double] = []
        /// Recordings heard as telephone band (`AudioBand.narrow`).
        var narrowband = 0
        /// Recordings heard as noisy (`AudioBackground.noisy`).
        var noisy = 0
        var audioSeconds = 0.0, processingSeconds = 0.0

        func printTimings() {
            let sorted = decodeTimes.sorted()
            Console.line(String(format: "final decode per utterance: median %.0f ms, p95 %.0f ms (%d utterances)",
                                percentile(sorted, 0.5) * 1000, percentile(sorted, 0.95) * 1000, sorted.count))
            Console.line(String(format: "real-time factor: %.3f (%.1f s of processing for %.1f s of audio)",
                                audioSeconds > 0 ? processingSeconds / audioSeconds : 0, processingSeconds, audioSeconds))
        }
    }

    /// The recording as it is heard when it is item `index` of those decoded: with the noise
    /// mixed in, if any (the same noise each time for the same place), and heard alone for
    /// `noiseAround` seconds before and after it.
    func heardAudio(of item: CorpusItem, at index: Int) throws -> PCMAudio {
        let audio = try WAVFile.read(item.file)
        guard let (color, snr) = noise else { return audio }
        return NoiseMixer.mix(audio, noise: color, snr: snr, seed: Self.noiseSeed(index: index, draw: noiseDraw), around: noiseAround)
    }

    /// The seed of the noise mixed into the recording at `index`: draw 0's are those every figure
    /// was first measured with; each other draw's differ from them and from each other.
    static func noiseSeed(index: Int, draw: UInt64) -> UInt64 { UInt64(index + 1) &+ (draw << 32) }

    func decode(_ items: [CorpusItem]) throws -> Run {
        var run = Run()
        // Enrollment phrases are for learning a voice (`bench enrollment`), not tests.
        for (index, item) in items.enumerated() where item.kind != .enroll {
            let audio: PCMAudio
            do {
                audio = try heardAudio(of: item, at: index)
            } catch {
                run.tally.add(item.kind, speaker: item.speaker, right: false)
                Console.line("UNREADABLE line \(item.line) \(item.file.lastPathComponent): \(describe(error, book))")
                continue
            }
            let context = judge.context(for: item.kind, expected: item.expected)
            var conditions = AudioConditions.of(audio, heardAs: band)
            if let background { conditions.background = background }
            if conditions.band == .narrow { run.narrowband += 1 }
            if conditions.background == .noisy { run.noisy += 1 }
            let recognizer = try recognizers(conditions)
            if eachFirstOfSession { recognizer.beginSession() }
            try recognizer.selectGrammar(grammar ?? context.rawValue)
            var heard: [String] = [], described: [String] = []
            let started = Date()
            recognizer.run(audio) { result in
                guard !result.text.isEmpty else { return }
                let transcript = acceptance.transcript(result, in: context)
                heard.append(transcript)
                let fit = (result.grammarFit.map { String(format: "fit %.1f", $0) } ?? "no fit")
                    + (result.loudnessSwing.map { String(format: ", swing %.1f dB", $0) } ?? "")
                    + (result.otherWords.map { ", other words \"\($0)\"" } ?? "")
                // A doubted yes is asked again (`SpeechAcceptance.Verdict.doubtfulYes`): it counts as a yes.
                let doubted = acceptance.verdict(result, in: context) == .doubtfulYes
                described.append("\"\(result.text)\" (\(fit)\(transcript.isEmpty ? ", rejected" : doubted ? ", doubted" : ""))")
                run.decodeTimes.append(result.decodingTime)
            }
            run.processingSeconds += Date().timeIntervalSince(started)
            run.audioSeconds += audio.duration
            let right = judge.isRight(heard: heard, kind: item.kind, expected: item.expected)
            run.tally.add(item.kind, speaker: item.speaker, right: right)
            run.items.append((item, heard, right))
            if printing == .every || (!right && printing == .misses) {
                // Every item's background, to calibrate `AudioBackground.noisyBelowDB`.
                let snr = printing == .every ? backgroundNote(audio) : ""
                Console.line("\(right ? "ok  " : "MISS") \(item.file.lastPathComponent) (\(item.kind.rawValue) \(item.expected)): heard \(described.isEmpty ? "nothing" : described.joined(separator: ", "))\(snr)\(conditions.background == .noisy ? " (noisy)" : "")")
            }
        }
        return run
    }
}

/// How far a recording's speech is above its pauses (`AudioBackground.signalToNoise`), to
/// follow a line of details; "" when it measures nothing.
func backgroundNote(_ audio: PCMAudio) -> String {
    AudioBackground.signalToNoise(audio).map { String(format: "; speech %.0f dB above the pauses", $0) } ?? ""
}

/// Right out of how many, overall, per kind and per speaker.
struct Tally {
    struct Count {
        var right = 0, count = 0
        var percent: String { String(format: "%.1f%%", Double(right) * 100 / Double(max(count, 1))) }
        var line: String { "\(right)/\(count) (\(percent))" }
    }
    var total = Count()
    var byKind: [CorpusItem.Kind: Count] = [:]
    var bySpeaker: [String: Count] = [:]

    mutating func add(_ kind: CorpusItem.Kind, speaker: String?, right: Bool) {
        let r = right ? 1 : 0
        total.count += 1; total.right += r
        byKind[kind, default: Count()].count += 1; byKind[kind, default: Count()].right += r
        if let speaker { bySpeaker[speaker, default: Count()].count += 1; bySpeaker[speaker, default: Count()].right += r }
    }

    /// Another run's counts added to these.
    mutating func add(_ other: Tally) {
        func merged(_ a: Count, _ b: Count) -> Count { Count(right: a.right + b.right, count: a.count + b.count) }
        total = merged(total, other.total)
        byKind.merge(other.byKind, uniquingKeysWith: merged)
        bySpeaker.merge(other.bySpeaker, uniquingKeysWith: merged)
    }
}
