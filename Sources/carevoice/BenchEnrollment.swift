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
    @Flag(help: "Learn each voice as the assistant learns it from readings confirmed as heard: from the speaker's first --count recordings heard right without a voice (the assistant's first is \(ConfirmedSpeech.minimumToLearn)), with the words heard; enrollment phrases are left out.")
    var fromHeard = false
    @Flag(help: "With --from-heard, learn also from the readings heard wrong only in their number, as the person corrects them on the line: with the words heard and the number as saved.")
    var corrected = false
    @Option(help: "Hear the other words beside the reading grammar at these odds per phone, with a voice and without (default: the locale's; 0: no other words), to calibrate them for learned voices.")
    var otherWordOdds: Double?

    func validate() throws {
        try corpus.validate(atLeast: VoiceEnrollment.minimumUtterances)
        if (noise == nil) != (snr == nil) { throw ValidationError("--noise and --snr go together") }
        if corrected && !fromHeard { throw ValidationError("--corrected goes with --from-heard") }
        if let otherWordOdds, !(0...1).contains(otherWordOdds) { throw ValidationError("--other-word-odds must be from 0 to 1") }
    }

    func run() throws {
        let env = try AppEnvironment.make(common)
        let (items, speakers) = try corpus.read()
        let manifest = corpus.manifest
        let judge = RecognitionJudge(table: env.table, preferredUnit: Settings().glucoseUnit)
        let acceptance = SpeechAcceptance(table: env.table)
        let enrollment = try VoiceEnrollment(table: env.table, resources: env.resources)
        // Each recording is heard as the assistant would hear it: without a voice with the means
        // for its band; a learned voice replaces the model whatever the band.
        func decoder(_ voice: AdaptedVoice?) throws -> CorpusDecoder {
            let recognizers = ConditionRecognizers { conditions in
                try RecognizerFactory.make(table: env.table, resources: env.resources, countries: env.emergencyCountries,
                                           voice: voice, odds: WordOddsOverride(otherWordPerPhone: otherWordOdds),
                                           conditions: conditions)
            }
            return CorpusDecoder(recognizers: recognizers, judge: judge, acceptance: acceptance, book: env.phrasebook,
                                 noise: noise.flatMap { color in snr.map { (color, $0) } },
                                 printing: details ? .every : misses ? .misses : .none)
        }
        let general = try decoder(nil)
        let voices = FileManager.default.temporaryDirectory.appendingPathComponent("carevoice-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: voices) }

        var before = Tally(), after = Tally()
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
            let voice = try enrollment.learn(from: utterances, method: method, into: voices.appendingPathComponent(speaker),
                                             band: band(of: enrolling), source: fromHeard ? .confirmedSpeech : .enrollment)
            enrolledSeconds.append(Date().timeIntervalSince(started))
            let with = try decoder(voice).decode(rest).tally
            before.add(without)
            after.add(with)
            Console.line("speaker \(speaker): enrolled \(utterances.count)/\(enrolling.count), tested \(rest.count): \(without.total.line) -> \(with.total.line)")
        }
        if let noise, let snr { Console.line(String(format: "noise: %@ at %.0f dB SNR in the recordings decoded", noise.rawValue, snr)) }
        Console.line(String(format: "adaptation: %@, %.1f s per speaker (median)", method.rawValue,
                            percentile(enrolledSeconds.sorted(), 0.5)))
        for kind in CorpusItem.Kind.allCases {
            guard let without = before.byKind[kind], let with = after.byKind[kind] else { continue }
            Console.line("\(kind.rawValue): \(without.line) -> \(with.line)")
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
