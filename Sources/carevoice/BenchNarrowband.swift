import ArgumentParser
import CareAssistant
import CareModel
import CareSpeech
import CareTerminal
import Foundation

/// The means for telephone-band audio (the locale table's `narrowbandMeans`): the acoustic
/// model's Gaussian means adapted (MAP, sphinxtrain through `VoiceAdapter`) to real 8 kHz speech
/// of several speakers, and what they do for a speaker they were not learned from: each speaker
/// is decoded with means learned from all the others.
struct BenchNarrowband: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "narrowband",
        abstract: "Learn the means for telephone-band audio from 8 kHz recordings; each speaker is measured with means learned without them.")

    @OptionGroup var common: CommonOptions
    @Option(help: "Telephone-band recordings (8 kHz) by several speakers: a manifest with a speaker column, or FSDD file names.")
    var manifest: String
    @Option(help: "Then learn from every speaker and write the means to this file (models/en-us/narrowband-means).")
    var write: String?
    @Flag(help: "Print the misses too.") var misses = false

    func run() throws {
        let env = try AppEnvironment.make(common)
        let items = try readManifest(manifest).filter { $0.kind != .enroll }
        for item in items {
            guard let audio = try? WAVFile.read(item.file) else { continue }   // counted wrong when decoded
            guard AudioBand.of(audio) == .narrow else {
                throw CommandFailure("\(manifest) line \(item.line) (\(item.file.lastPathComponent)) has sound above 4 kHz: the narrowband means learn from telephone-band recordings only")
            }
        }
        // Each speaker's clear recordings, checked against their words once and against the
        // speaker's own other takes (as enrollment does).
        let enrollment = try VoiceEnrollment(table: env.table, resources: env.resources)
        let bySpeaker = try clearRecordingsBySpeaker(items, manifest: manifest, env: env, enrollment: enrollment,
                                                     tellLeftOut: misses, speakersNamedBy: "a speaker column, or FSDD file names")
        let speakers = bySpeaker.map(\.speaker)
        let takes = Dictionary(uniqueKeysWithValues: bySpeaker.map { ($0.speaker, $0.takes) })
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("carevoice-narrowband-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        /// Means learned from these speakers' takes.
        func means(from learners: [String], name: String) throws -> URL {
            let utterances = learners.flatMap { takes[$0] ?? [] }
            let voice = try enrollment.learn(phrases: utterances, method: .map, into: work.appendingPathComponent(name))
            return voice.modelDirectory.appendingPathComponent("means")
        }

        let judge = RecognitionJudge(table: env.table, preferredUnit: Settings().glucoseUnit)
        let acceptance = SpeechAcceptance(table: env.table)
        func decoder(means: String?) throws -> CorpusDecoder {
            // nil: the model's own means, what telephone-band audio was heard with before.
            let recognizer = try RecognizerFactory.make(table: env.table, resources: env.resources, countries: env.emergencyCountries,
                                                        means: means)
            return CorpusDecoder(recognizers: ConditionRecognizers(single: recognizer), judge: judge, acceptance: acceptance,
                                 book: env.phrasebook, printing: misses ? .misses : .none)
        }
        let general = try decoder(means: nil)
        var before = Tally(), after = Tally()
        for speaker in speakers {
            let others = speakers.filter { $0 != speaker }
            let learned = try means(from: others, name: speaker)
            let own = items.filter { $0.speaker == speaker }
            let without = try general.decode(own).tally
            let with = try decoder(means: learned.path).decode(own).tally
            before.add(without)
            after.add(with)
            let count = others.reduce(0) { $0 + (takes[$1]?.count ?? 0) }
            Console.line("speaker \(speaker): means learned from \(count) recordings of \(others.count) other speakers: \(without.total.line) -> \(with.total.line)")
        }
        for kind in CorpusItem.Kind.allCases {
            guard let without = before.byKind[kind], let with = after.byKind[kind] else { continue }
            Console.line("\(kind.rawValue): \(without.line) -> \(with.line)")
        }
        Console.line("with the model's own means: \(before.total.line)")
        Console.line("narrowband: \(after.total.right)/\(after.total.count) correct (\(after.total.percent)), each speaker heard with means learned without them")

        if let write {
            let learned = try means(from: speakers, name: "all")
            let destination = URL(fileURLWithPath: write)
            try? FileManager.default.removeItem(at: destination)
            try FileManager.default.copyItem(at: learned, to: destination)
            let count = speakers.reduce(0) { $0 + (takes[$1]?.count ?? 0) }
            Console.line("wrote the means learned from \(count) recordings of \(speakers.count) speakers to \(write)")
        }
    }
}
