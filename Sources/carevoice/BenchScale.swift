import ArgumentParser
import CareAssistant
import CareModel
import CareSpeech
import CareTerminal
import Foundation

/// What hearing each voice at its own scale (`VoiceScale`) buys, per speaker: the scale is
/// chosen from recordings whose words are known (the speaker's enrollment phrases, else their
/// first recordings, as `bench enrollment` takes them), and the rest are decoded as said and at
/// that scale. A speaker heard over a telephone band is heard as said (`VoiceScale.appliesTo`).
struct BenchScale: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scale",
        abstract: "Choose each speaker's voice scale from recordings with known words and decode the rest as said and at that scale.")

    @OptionGroup var common: CommonOptions
    @OptionGroup var corpus: SpeakerCorpus
    @Option(help: "Scales to choose from, comma-separated (default: \(VoiceScale.candidates.map { String($0) }.joined(separator: ","))).")
    var scales: String?
    @Flag(help: "Print every item heard, not only the totals.") var details = false

    func validate() throws {
        try corpus.validate(atLeast: VoiceScale.minimumRecordings)
        _ = try scaleList()
    }

    func scaleList() throws -> [Double] {
        guard let scales else { return VoiceScale.candidates }
        let list = scales.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard !list.isEmpty, list.allSatisfy({ $0.map(BenchRecognition.frequencyScales.contains) == true }) else {
            throw ValidationError("--scales must be numbers from \(BenchRecognition.frequencyScales.lowerBound) to \(BenchRecognition.frequencyScales.upperBound), comma-separated")
        }
        return list.compactMap { $0 }
    }

    func run() throws {
        let env = try AppEnvironment.make(common)
        let scales = try scaleList()
        let (items, speakers) = try corpus.read()
        let manifest = corpus.manifest
        let judge = RecognitionJudge(table: env.table, preferredUnit: Settings().glucoseUnit)
        let acceptance = SpeechAcceptance(table: env.table)
        let enrollment = try VoiceEnrollment(table: env.table, resources: env.resources)
        // One set of recognizers per scale, each kept for every speaker heard at it.
        var recognizers: [Double: ConditionRecognizers] = [:]
        func decoder(_ scale: Double) -> CorpusDecoder {
            let atScale = recognizers[scale] ?? ConditionRecognizers { conditions in
                try RecognizerFactory.make(table: env.table, resources: env.resources, countries: env.emergencyCountries,
                                           conditions: conditions, frequencyScale: scale)
            }
            recognizers[scale] = atScale
            return CorpusDecoder(recognizers: atScale, judge: judge, acceptance: acceptance, book: env.phrasebook,
                                 printing: details ? .every : .none)
        }

        var before = Tally(), after = Tally()
        for speaker in speakers {
            let (choosing, rest) = VoiceEnrollment.split(items.filter { $0.speaker == speaker }, count: corpus.count)
            let recordings = try choosing.map { item -> (audio: PCMAudio, words: [String]) in
                guard let words = VoiceEnrollment.words(for: item, table: env.table) else {
                    throw CommandFailure("\(manifest) line \(item.line): say what was spoken in a text column")
                }
                do { return (try WAVFile.read(item.file), words) } catch {
                    throw CommandFailure(env.phrasebook.text(.audioFileError, ["path": item.file.path, "reason": describe(error, env.phrasebook)]))
                }
            }
            let wholeBand = VoiceScale.appliesTo(band(of: choosing))
            let fits = wholeBand ? try enrollment.fits(of: recordings, at: scales) : [:]
            let scale = VoiceScale.best(fits: fits)
            let asSaid = try decoder(1).decode(rest).tally
            let scaled = scale == 1 ? asSaid : try decoder(scale).decode(rest).tally
            before.add(asSaid)
            after.add(scaled)
            let means = scales.map { s in
                let heard = fits[s]?.compactMap { $0 } ?? []
                return String(format: "%.2f: %.1f", s, heard.reduce(0, +) / Double(max(1, heard.count)))
            }
            let why = wholeBand ? "mean fits \(means.joined(separator: ", "))" : "telephone band: heard as said"
            Console.line("speaker \(speaker): scale \(String(format: "%.2f", scale)) (\(why)), tested \(rest.count): \(asSaid.total.line) -> \(scaled.total.line)")
        }
        for kind in CorpusItem.Kind.allCases {
            guard let without = before.byKind[kind], let with = after.byKind[kind] else { continue }
            Console.line("\(kind.rawValue): \(without.line) -> \(with.line)")
        }
        Console.line("as said: \(before.total.line)")
        Console.line("scale: \(after.total.right)/\(after.total.count) correct (\(after.total.percent))")
    }
}
