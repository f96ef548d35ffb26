import ArgumentParser
import CareAssistant
import CareModel
import CareSpeech
import CareTerminal
import Foundation

/// What enrollment buys, per speaker: the speaker's recordings of the enrollment phrases (kind
/// enroll, as `carevoice enroll` has a person say them), else their first recordings (each
/// expected value in turn), enroll them; the rest are decoded without and with their voice.
struct BenchEnrollment: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enrollment",
        abstract: "Enroll each speaker of a corpus from a few recordings and decode the rest without and with it.")

    @OptionGroup var common: CommonOptions
    @OptionGroup var corpus: SpeakerCorpus
    @Option(help: "Adaptation: map or mllr.") var method: AdaptedVoice.Method = .preferred
    @Flag(help: "Print the misses too.") var misses = false
    @Flag(help: "Print every item heard, with its fit, not only the misses, and each recording learned from with how well it fits its words.") var details = false
    @Option(help: "Background noise mixed into the recordings decoded, and with --from-heard into those learned from, as they were heard (enrollment phrases are said in a quiet room): \(NoiseColor.allCases.map(\.rawValue).joined(separator: " or ")).")
    var noise: NoiseColor?
    @Option(help: "Signal-to-noise ratio in dB for --noise, speech power measured over speech frames.") var snr: Double?
    @Option(help: "Seconds of the noise alone before and after each recording, for a background that was there before the words (default 0: it starts and stops with the recording).")
    var noiseAround = 0.0
    @Flag(help: "Learn each voice as the assistant learns it from readings confirmed as heard: from the speaker's first --count recordings heard right without a voice (the assistant's first is \(ConfirmedSpeech.minimumToLearn)), with the words heard; enrollment phrases are left out.")
    var fromHeard = false
    @Flag(help: "With --from-heard, learn also from the readings heard wrong only in their number, as the person corrects them on the line: with the words heard and the number as saved.")
    var corrected = false
    @Option(help: "Hear the other words beside the reading grammar at these odds per phone, with a voice and without, in a noisy room too (default: the locale's, far lower in a noisy room without a voice; 0: no other words), to calibrate them for learned voices.")
    var otherWordOdds: Double?
    @OptionGroup var otherWordsSearch: OtherWordsSearchOption
    @Option(help: "Then learn each voice again, as the assistant does in use, from its enrollment phrases and the first N readings heard right with it (with --corrected, or wrong only in their number), and decode the rest without a voice, with the first and with the second.")
    var thenConfirmed: Int?

    @Option(help: "Learn each voice also from copies of its enrollment phrases (not of readings learned from as confirmed: --from-heard, --then-confirmed) with pink noise at these signal-to-noise ratios in dB, comma-separated, or none (default: \(VoiceAdapter.NoisyCopy.standard.map { String(format: "%.0f", $0.snr) }.joined(separator: ","))).")
    var noisyCopies: NoisyCopies?

    func validate() throws {
        try corpus.validate(atLeast: VoiceEnrollment.minimumUtterances)
        try validateNoise(noise, snr: snr, around: noiseAround)
        if corrected && !fromHeard && thenConfirmed == nil { throw ValidationError("--corrected goes with --from-heard or --then-confirmed") }
        if let thenConfirmed, thenConfirmed < 1 || fromHeard { throw ValidationError("--then-confirmed takes a positive count, and not with --from-heard") }
        if let otherWordOdds, !(0...1).contains(otherWordOdds) { throw ValidationError("--other-word-odds must be from 0 to 1") }
    }

    func run() throws {
        let env = try AppEnvironment.make(common)
        let (items, speakers) = try corpus.read()
        let manifest = corpus.manifest
        let judge = RecognitionJudge(table: env.table, preferredUnit: Settings().glucoseUnit)
        let acceptance = SpeechAcceptance(table: env.table)
        let enrollment = try VoiceEnrollment(table: env.table, resources: env.resources)
        if let noisyCopies { enrollment.noisyCopies = noisyCopies.copies }
        // Each recording is heard as the assistant would hear it: without a voice with the means
        // for its band; a learned voice replaces the model whatever the band.
        func decoder(_ voice: AdaptedVoice?) throws -> CorpusDecoder {
            let recognizers = ConditionRecognizers { conditions in
                try RecognizerFactory.make(table: env.table, resources: env.resources, countries: env.emergencyCountries,
                                           voice: voice, odds: WordOddsOverride(otherWordPerPhone: otherWordOdds),
                                           conditions: conditions, otherWordsHMMsPerFrame: otherWordsSearch.hmmsPerFrame)
            }
            return CorpusDecoder(recognizers: recognizers, judge: judge, acceptance: acceptance, book: env.phrasebook,
                                 noise: noise.flatMap { color in snr.map { (color, $0) } }, noiseAround: noiseAround,
                                 printing: details ? .every : misses ? .misses : .none)
        }
        let general = try decoder(nil)
        let voices = FileManager.default.temporaryDirectory.appendingPathComponent("carevoice-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: voices) }

        var before = Tally(), after = Tally(), again = Tally()
        var enrolledSeconds: [Double] = []
        for speaker in speakers {
            let own = items.filter { $0.speaker == speaker }
            let (enrolling, rest, without) = fromHeard ? try heardRight(own, by: general)
                : try { let (learning, testing) = VoiceEnrollment.split(own, count: corpus.count)
                        return (learning, testing, try general.decode(testing).tally) }()
            enrollment.beginVoice()
            // Learned in use, a voice is learned from the audio as it was heard, noise and all.
            let place = Dictionary(uniqueKeysWithValues: own.enumerated().map { ($1.line, $0) })
            let asHeard = { (item: CorpusItem) in try general.heardAudio(of: item, at: place[item.line]!) }
            let utterances = try clearRecordings(enrolling, manifest: manifest, env: env, enrollment: enrollment,
                                                 tellLeftOut: misses || details, tellTaken: details, heard: fromHeard ? asHeard : nil)
            let started = Date()
            let voice = try enrollment.learn(phrases: fromHeard ? [] : utterances, confirmed: fromHeard ? utterances : [],
                                             method: method, into: voices.appendingPathComponent(speaker), band: band(of: enrolling))
            enrolledSeconds.append(Date().timeIntervalSince(started))
            if let thenConfirmed {
                let (confirmed, tested) = try learnAgain(speaker: speaker, phrases: utterances, voice: voice, band: band(of: enrolling), rest: rest, count: thenConfirmed,
                                                         decoder: decoder, general: general, enrollment: enrollment, env: env, into: voices)
                before.add(tested.without)
                after.add(tested.withPhrases)
                again.add(tested.withBoth)
                Console.line("speaker \(speaker): enrolled \(utterances.count)/\(enrolling.count), then \(confirmed) confirmed readings, tested \(tested.count): "
                             + "\(tested.without.total.line) -> \(tested.withPhrases.total.line) -> \(tested.withBoth.total.line)")
                continue
            }
            let with = try decoder(voice).decode(rest).tally
            before.add(without)
            after.add(with)
            Console.line("speaker \(speaker): enrolled \(utterances.count)/\(enrolling.count), tested \(rest.count): \(without.total.line) -> \(with.total.line)")
        }
        if let noise, let snr {
            Console.line(String(format: "noise: %@ at %.0f dB SNR in the recordings decoded", noise.rawValue, snr)
                         + (noiseAround > 0 ? String(format: ", alone for %.1f s before and after each", noiseAround) : ""))
        }
        Console.line(String(format: "adaptation: %@, %.1f s per speaker (median)", method.rawValue,
                            percentile(enrolledSeconds.sorted(), 0.5)))
        for kind in CorpusItem.Kind.allCases {
            guard let without = before.byKind[kind], let with = after.byKind[kind] else { continue }
            Console.line("\(kind.rawValue): \(without.line) -> \(with.line)" + (again.byKind[kind].map { " -> \($0.line)" } ?? ""))
        }
        if let thenConfirmed {
            Console.line("learned again from: the enrollment phrases and the first \(thenConfirmed) readings of each speaker heard right with them"
                         + (corrected ? ", or wrong only in their number, with the number as corrected" : "") + "; tested on the rest")
            Console.line("with the phrases and the readings: \(again.total.line)")
        }
        if fromHeard {
            Console.line("learned from: the first \(corpus.count) recordings of each speaker heard right, with the words heard"
                         + (corrected ? ", or heard wrong only in a reading's number, with the number as corrected" : ""))
        }
        Console.line("without enrollment: \(before.total.line)")
        Console.line("enrollment: \(after.total.right)/\(after.total.count) correct (\(after.total.percent))")
    }
}

extension BenchEnrollment {
    /// A speaker's recordings split as the assistant would learn from them in use
    /// (`VoiceEnrollment.heardRight`), and the rest to test, with how they were heard without a
    /// voice.
    func heardRight(_ own: [CorpusItem], by general: CorpusDecoder) throws -> (learning: [CorpusItem], testing: [CorpusItem], without: Tally) {
        let heard = try general.decode(own).items
        let learning = VoiceEnrollment.heardRight(heard, count: corpus.count, corrected: !corrected ? nil : { item, heard in
            general.judge.correctedWords(heard: heard, kind: item.kind, expected: item.expected)
        })
        let learned = Set(learning.map(\.line))
        var without = Tally()
        for decoded in heard where !learned.contains(decoded.item.line) {
            without.add(decoded.item.kind, speaker: decoded.item.speaker, right: decoded.right)
        }
        return (learning, heard.map(\.item).filter { !learned.contains($0.line) }, without)
    }
}

extension BenchEnrollment {
    /// How the items left after learning a voice again were heard: without a voice, with the one
    /// learned from the phrases, and with the one learned again.
    struct Retested {
        var count = 0
        var without = Tally(), withPhrases = Tally(), withBoth = Tally()
    }

    /// A speaker's voice learned again, as the assistant learns it in use
    /// (`ConfirmedSpeech.shouldLearn`): from the enrollment phrases and the first `count` readings
    /// heard right with the voice learned from them, as they were heard. The readings learned
    /// from are left out of the test; how many there were, and how the rest were heard.
    func learnAgain(speaker: String, phrases: [VoiceAdapter.Utterance], voice: AdaptedVoice, band: AudioBand, rest: [CorpusItem], count: Int,
                    decoder: (AdaptedVoice?) throws -> CorpusDecoder, general: CorpusDecoder, enrollment: VoiceEnrollment,
                    env: AppEnvironment, into voices: URL) throws -> (confirmed: Int, tested: Retested) {
        let withPhrases = try decoder(voice)
        let heard = try withPhrases.decode(rest).items
        let readings = heard.filter { $0.item.kind == .reading }
        let learning = VoiceEnrollment.heardRight(readings, count: count, corrected: !corrected ? nil : { item, heard in
            withPhrases.judge.correctedWords(heard: heard, kind: item.kind, expected: item.expected)
        })
        let place = Dictionary(uniqueKeysWithValues: rest.enumerated().map { ($1.line, $0) })
        let asHeard = { (item: CorpusItem) in try withPhrases.heardAudio(of: item, at: place[item.line]!) }
        let confirmed = try clearRecordings(learning, manifest: corpus.manifest, env: env, enrollment: enrollment,
                                            tellLeftOut: misses || details, tellTaken: details, heard: asHeard)
        let again = try enrollment.learn(phrases: phrases, confirmed: confirmed, method: method,
                                         into: voices.appendingPathComponent(speaker + "-again"), band: band)
        // Every column decodes the same recordings, in the same order: the same noise in each.
        let learned = Set(learning.map(\.line))
        var result = Retested(count: rest.count - learned.count)
        func tally(_ decoded: [(item: CorpusItem, heard: [String], right: Bool)]) -> Tally {
            var tally = Tally()
            for decoded in decoded where !learned.contains(decoded.item.line) {
                tally.add(decoded.item.kind, speaker: decoded.item.speaker, right: decoded.right)
            }
            return tally
        }
        result.without = tally(try general.decode(rest).items)
        result.withPhrases = tally(heard)
        result.withBoth = tally(try decoder(again).decode(rest).items)
        return (confirmed.count, result)
    }
}

/// `--noisy-copies`: "none", or signal-to-noise ratios in dB of pink-noise copies.
struct NoisyCopies: ExpressibleByArgument {
    var copies: [VoiceAdapter.NoisyCopy]

    init?(argument: String) {
        if argument == "none" {
            copies = []
            return
        }
        let ratios = argument.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        // A ratio that is not a finite number would mix noise of no loudness at all.
        guard !ratios.isEmpty, ratios.allSatisfy({ $0?.isFinite == true }) else { return nil }
        copies = ratios.map { VoiceAdapter.NoisyCopy(color: .pink, snr: $0!) }
    }
}

/// A corpus of several speakers, each learned from a few of their recordings and tested on the
/// rest (`VoiceEnrollment.split`): `bench enrollment`, `bench scale`.
struct SpeakerCorpus: ParsableArguments {
    @Option(help: "The corpus's manifest.tsv (with a speaker column, or FSDD file names).") var manifest: String
    @Option(help: "Recordings per speaker to learn from, for a speaker without enrollment phrases (kind enroll).") var count = 20

    func validate(atLeast minimum: Int) throws {
        if count < minimum { throw ValidationError("--count must be at least \(minimum)") }
    }

    /// The items and their speakers, sorted; a corpus that names none is an error.
    func read() throws -> (items: [CorpusItem], speakers: [String]) {
        let items = try readManifest(manifest)
        let speakers = Array(Set(items.compactMap(\.speaker))).sorted()
        guard !speakers.isEmpty else { throw CommandFailure("\(manifest) names no speakers (a speaker column, or FSDD file names)") }
        return (items, speakers)
    }
}
