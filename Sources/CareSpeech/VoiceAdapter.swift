import Foundation
import Logging

/// An acoustic model adapted to one person's voice, as stored in a directory of its own
/// (in CareVoice, `voice/` in the person's data directory: one person, one voice).
///
/// Both adaptations are stored; `method` says which one the decoder uses. MLLR is one affine
/// transform of every Gaussian mean: it also helps words that were never enrolled. MAP moves the
/// mean of each Gaussian the enrollment heard towards the voice: stronger for those words, and
/// worse for other speakers, so it must stay with its person.
public struct AdaptedVoice: Sendable, Equatable {
    public enum Method: String, Codable, Sendable, CaseIterable {
        case mllr, map
    }

    /// What is written beside the model, for the person and for the next start.
    public struct Record: Codable, Sendable, Equatable {
        public var method: Method
        public var enrolled: Date
        public var utterances: Int
        /// Seconds of speech learned from: the words, without the silence around them.
        public var seconds: Double
        /// What it was learned from; nil in records written before this was kept: enrollment.
        public var source: Source?
        /// How many of `utterances` were readings confirmed in use, when the voice was learned
        /// from enrollment phrases and confirmed readings together; nil when it was not.
        public var confirmedUtterances: Int?

        public init(method: Method, enrolled: Date, utterances: Int, seconds: Double, source: Source? = nil,
                    confirmedUtterances: Int? = nil) {
            self.method = method
            self.enrolled = enrolled
            self.utterances = utterances
            self.seconds = seconds
            self.source = source
            self.confirmedUtterances = confirmedUtterances
        }

        /// How many readings confirmed in use it was learned from.
        public var confirmedCount: Int {
            confirmedUtterances ?? (source == .confirmedSpeech ? utterances : 0)
        }
    }

    public enum Source: String, Codable, Sendable {
        /// The enrollment phrases, said when asked (`carevoice enroll`, "learn my voice").
        case enrollment
        /// What the person said in use and then confirmed (`ConfirmedSpeech`).
        case confirmedSpeech
    }

    public var directory: URL
    public var record: Record

    static let recordName = "voice.json"
    static let modelName = "model"
    static let mllrName = "mllr_matrix"
    static let baseMeansName = "base-means"
    static let phrasesName = "phrases"

    public var modelDirectory: URL { directory.appendingPathComponent(Self.modelName) }
    public var mllrMatrix: URL { directory.appendingPathComponent(Self.mllrName) }
    /// The means the voice was learned from when they were not the model's own (those for
    /// telephone-band audio): the MLLR transform was solved against them, so it applies to them.
    public var baseMeans: URL { directory.appendingPathComponent(Self.baseMeansName) }
    /// The enrollment phrases the voice was learned from, kept with it to learn it again when
    /// the person has confirmed more readings (`VoiceAdapter.adapt(phrases:confirmed:)`).
    public var phrases: KeptSpeech { KeptSpeech(directory: directory.appendingPathComponent(Self.phrasesName)) }

    /// The adaptation stored in `directory`, nil when there is none. A directory whose record
    /// or files are unreadable counts as none (the base model still works), and says why.
    public static func load(from directory: URL) throws -> AdaptedVoice? {
        let recordURL = directory.appendingPathComponent(recordName)
        guard FileManager.default.fileExists(atPath: recordURL.path) else { return nil }
        let record: Record
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            record = try decoder.decode(Record.self, from: Data(contentsOf: recordURL))
        } catch {
            throw SpeechError.adaptationFailed("the stored voice in \(directory.path) is unreadable: \(error.localizedDescription)")
        }
        let voice = AdaptedVoice(directory: directory, record: record)
        let needed = record.method == .map ? voice.modelDirectory.appendingPathComponent("sendump") : voice.mllrMatrix
        guard FileManager.default.fileExists(atPath: needed.path) else {
            throw SpeechError.adaptationFailed("the stored voice in \(directory.path) lacks \(needed.lastPathComponent)")
        }
        return voice
    }

    /// Makes the recognizer decode with this voice.
    public func apply(to configuration: inout SpeechRecognizer.Configuration) {
        switch record.method {
        case .map: configuration.modelDirectory = modelDirectory.path
        case .mllr:
            configuration.extraArguments["-mllr"] = mllrMatrix.path
            if FileManager.default.fileExists(atPath: baseMeans.path) { configuration.meansFile = baseMeans.path }
        }
    }

    /// Switches the method without enrolling again.
    public func using(_ method: Method) throws -> AdaptedVoice {
        var changed = self
        changed.record.method = method
        try changed.writeRecord()
        return changed
    }

    func writeRecord() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(record).write(to: directory.appendingPathComponent(Self.recordName), options: .atomic)
    }

    /// Deletes the stored voice; the base model is used from then on.
    public static func forget(in directory: URL) throws {
        guard FileManager.default.fileExists(atPath: directory.path) else { return }
        try FileManager.default.removeItem(at: directory)
    }
}

/// Adapts Debian's acoustic model to a voice with sphinxtrain, from a few recordings and the
/// words said in them: `sphinx_fe` computes features, `bw` collects statistics against the base
/// model, `mllr_solve` and `map_adapt` turn them into the two adaptations.
public struct VoiceAdapter {
    /// One enrollment recording: audio exactly as the decoder saw it (16-bit, `sampleRate`,
    /// padded and noise-floored: `RecognitionResult.audio`), and the words said.
    public struct Utterance: Sendable {
        public var samples: [Int16]
        public var words: [String]
        /// How long the words lasted (`RecognitionResult.speechSeconds`); nil counts all samples.
        public var speechSeconds: Double?
        public init(samples: [Int16], words: [String], speechSeconds: Double? = nil) {
            self.samples = samples
            self.words = words
            self.speechSeconds = speechSeconds
        }
    }

    /// Where the programs are: Debian's `sphinxtrain` puts its trainers in /usr/lib/sphinxtrain,
    /// `sphinxbase-utils` has sphinx_fe, `pocketsphinx` has pocketsphinx_mdef_convert.
    public struct Tools: Sendable {
        public var trainers = "/usr/lib/sphinxtrain"
        public var featureExtractor = "/usr/bin/sphinx_fe"
        public var mdefConverter = "/usr/bin/pocketsphinx_mdef_convert"
        public init() {}

        var all: [String] {
            [featureExtractor, mdefConverter] + ["bw", "mllr_solve", "map_adapt"].map { trainers + "/" + $0 }
        }

        /// The first program that is missing, nil when all are there.
        public func missing() -> String? {
            all.first { !FileManager.default.isExecutableFile(atPath: $0) }
        }
    }

    /// Noise mixed into a copy of every enrollment phrase, learned from beside the phrase itself.
    public struct NoisyCopy: Sendable, Equatable {
        public var color: NoiseColor
        public var snr: Double
        public init(color: NoiseColor, snr: Double) {
            self.color = color
            self.snr = snr
        }

        /// What a voice is learned from beside its phrases: a copy of each in pink noise at
        /// 10 dB. Phrases said in a quiet room teach the model the voice as it sounds there; the
        /// copy teaches it the voice with noise under it, as heard in a kitchen (noise taken out,
        /// as the recognizer takes it out). `carevoice bench enrollment`, without -> with the copy:
        /// readings in pink noise at 10 dB, five voices used in no calibration 79 -> 86 of 100
        /// (unrelated speech turned away 59 -> 69 of 80), the five development voices 88 -> 96;
        /// Chinese 67 -> 73; clean 87 -> 86, 99 -> 100, 97 -> 98; FSDD digits 305 -> 307 of 320.
        /// A second copy at 20 dB, or one at 15 dB instead, did no better (models/README.md).
        public static let standard = [NoisyCopy(color: .pink, snr: 10)]
    }

    public var baseModel: String
    public var sampleRate: Int
    public var tools: Tools
    /// The copies learned from beside each phrase (none: the phrases alone).
    public var noisyCopies = NoisyCopy.standard
    private let logger = Logger(label: "carevoice.speech.adapter")

    public init(baseModel: String = SpeechRecognizer.Configuration().modelDirectory, sampleRate: Int = 16000, tools: Tools = Tools()) {
        self.baseModel = baseModel
        self.sampleRate = sampleRate
        self.tools = tools
    }

    /// Adapts the base model to the voice of the enrollment `phrases` and the `confirmed`
    /// readings and stores both adaptations in `destination`, which is replaced only once all of
    /// it worked: a failed enrollment keeps the voice stored before. The phrases are kept with
    /// the voice (`AdaptedVoice.phrases`), so that it can be learned again with more readings.
    /// - Parameter pronunciations: phones for every word said (`SpeechRecognizer.pronunciation(of:)`).
    /// - Parameter baseMeans: means to start from instead of the base model's own (the means for
    ///   telephone-band audio, for a voice heard over a telephone band); kept with the voice.
    public func adapt(phrases: [Utterance], confirmed: [Utterance] = [], pronunciations: [String: String],
                      method: AdaptedVoice.Method, into destination: URL, baseMeans: String? = nil,
                      now: Date = Date()) throws -> AdaptedVoice {
        let utterances = phrases + confirmed
        if let missing = tools.missing() {
            throw SpeechError.adaptationFailed("\(missing) is missing (Debian packages sphinxtrain and sphinxbase-utils)")
        }
        guard !utterances.isEmpty else { throw SpeechError.adaptationFailed("no recordings to learn from") }
        let words = Set(utterances.flatMap(\.words))
        if let unknown = words.sorted().first(where: { pronunciations[$0] == nil }) {
            throw SpeechError.adaptationFailed("no pronunciation for \(unknown)")
        }

        let fm = FileManager.default
        let parent = destination.deletingLastPathComponent()
        try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        let work = parent.appendingPathComponent(".\(destination.lastPathComponent)-work-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: work) }
        let output = work.appendingPathComponent("voice")
        let model = output.appendingPathComponent(AdaptedVoice.modelName)
        for folder in ["base", "wav", "mfc", "acc"].map(work.appendingPathComponent) + [model] {
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        func path(_ name: String) -> String { work.appendingPathComponent(name).path }
        func base(_ name: String) -> String { baseModel + "/" + name }
        let means = baseMeans ?? base("means")

        // The base model in the forms sphinxtrain reads.
        try run(tools.mdefConverter, ["-text", base("mdef"), path("base/mdef.txt")])
        let sendump: Data
        do { sendump = try Data(contentsOf: URL(fileURLWithPath: base("sendump"))) } catch {
            throw SpeechError.adaptationFailed("cannot read \(base("sendump")): \(error.localizedDescription)")
        }
        try MixtureWeights.readSendump(sendump).s3File().write(to: URL(fileURLWithPath: path("base/mixture_weights")))

        // The recordings, their words, and a dictionary of just those words.
        var fileIDs = "", transcripts = ""
        func add(_ id: String, _ audio: PCMAudio, saying words: [String]) throws {
            try WAVFile.write(audio, to: work.appendingPathComponent("wav/\(id).wav"))
            fileIDs += id + "\n"
            transcripts += "<s> \(words.joined(separator: " ")) </s> (\(id))\n"
        }
        for (index, utterance) in utterances.enumerated() {
            try add(String(format: "u%03d", index + 1), PCMAudio(samples: utterance.samples, sampleRate: sampleRate), saying: utterance.words)
        }
        // Only the phrases are copied: said when asked, in quiet. A reading confirmed in use was
        // heard wherever the person was, perhaps in noise already.
        for (round, copy) in noisyCopies.enumerated() {
            for (index, phrase) in phrases.enumerated() {
                // Seeds of their own: not the noise any benchmark mixes into what it decodes.
                let noisy = NoiseMixer.mix(PCMAudio(samples: phrase.samples, sampleRate: sampleRate), noise: copy.color,
                                           snr: copy.snr, seed: UInt64(10_000 * (round + 1) + index))
                try add(String(format: "n%d-%03d", round + 1, index + 1), noisy, saying: phrase.words)
            }
        }
        try fileIDs.write(toFile: path("fileids"), atomically: true, encoding: .utf8)
        try transcripts.write(toFile: path("transcripts"), atomically: true, encoding: .utf8)
        try words.sorted().map { "\($0) \(pronunciations[$0]!)\n" }.joined()
            .write(toFile: path("dictionary"), atomically: true, encoding: .utf8)

        try run(tools.featureExtractor, ["-argfile", base("feat.params"), "-samprate", String(sampleRate),
                                         "-c", path("fileids"), "-di", path("wav"), "-do", path("mfc"),
                                         "-ei", "wav", "-eo", "mfc", "-mswav", "yes"])
        // bw waits minutes for a feature file that is not there: check first.
        for id in fileIDs.split(separator: "\n") where !fm.fileExists(atPath: path("mfc/\(id).mfc")) {
            throw SpeechError.adaptationFailed("sphinx_fe wrote no features for recording \(id)")
        }
        // The front end must match the model's feat.params (bw does not read it).
        try run(tools.trainers + "/bw", [
            "-moddeffn", path("base/mdef.txt"), "-ts2cbfn", ".ptm.",
            "-meanfn", means, "-varfn", base("variances"), "-mixwfn", path("base/mixture_weights"),
            "-tmatfn", base("transition_matrices"),
            "-feat", "1s_c_d_dd", "-svspec", "0-12/13-25/26-38", "-cmn", "batch", "-agc", "none", "-varnorm", "no",
            "-dictfn", path("dictionary"), "-fdictfn", base("noisedict"),
            "-ctlfn", path("fileids"), "-lsnfn", path("transcripts"), "-cepdir", path("mfc"), "-cepext", "mfc",
            "-accumdir", path("acc"),
        ])
        try run(tools.trainers + "/mllr_solve", ["-meanfn", means, "-varfn", base("variances"),
                                                 "-outmllrfn", output.appendingPathComponent(AdaptedVoice.mllrName).path,
                                                 "-accumdir", path("acc")])
        // MAP moves the means only; the voice keeps the model's variances, transition matrices and
        // mixture weights. Learned from 20 FSDD recordings per speaker, the other 80 were heard
        // right 288 times in 320 so, 264 with all four adapted (297 against 283 from the means for
        // telephone-band audio, each speaker's learned without them; all measured while the phone-number
        // question turned away fits below -56, not -70); synthetic English and
        // Chinese voices were heard alike either way (115 of 119, 138 of 144).
        func adapted(_ name: String) -> String { model.appendingPathComponent(name).path }
        try run(tools.trainers + "/map_adapt", [
            "-moddeffn", path("base/mdef.txt"), "-ts2cbfn", ".ptm.",
            "-meanfn", means, "-varfn", base("variances"), "-mixwfn", path("base/mixture_weights"),
            "-tmatfn", base("transition_matrices"), "-accumdir", path("acc"),
            "-mapmeanfn", adapted("means"), "-mapvarfn", path("map_variances"),
            "-mapmixwfn", path("map_mixture_weights"), "-maptmatfn", path("map_transition_matrices"),
        ])
        for name in ["mdef", "feat.params", "noisedict", "variances", "transition_matrices", "sendump"] {
            try fm.copyItem(atPath: base(name), toPath: adapted(name))
        }
        if let baseMeans {
            try fm.copyItem(atPath: baseMeans, toPath: output.appendingPathComponent(AdaptedVoice.baseMeansName).path)
        }

        // The words said, not the silence and decoding padding around them.
        let seconds = utterances.reduce(0) { $0 + ($1.speechSeconds ?? Double($1.samples.count) / Double(sampleRate)) }
        var voice = AdaptedVoice(directory: output, record: .init(
            method: method, enrolled: now, utterances: utterances.count, seconds: seconds,
            source: phrases.isEmpty ? .confirmedSpeech : .enrollment,
            confirmedUtterances: phrases.isEmpty || confirmed.isEmpty ? nil : confirmed.count))
        try voice.writeRecord()
        for phrase in phrases {
            try voice.phrases.keep(PCMAudio(samples: phrase.samples, sampleRate: sampleRate), words: phrase.words)
        }
        // Swap the new voice in; only now is the old one gone.
        if fm.fileExists(atPath: destination.path) { try fm.removeItem(at: destination) }
        try fm.moveItem(at: output, to: destination)
        voice.directory = destination
        return voice
    }

    /// Runs one of the tools; a failure carries the end of what it printed.
    private func run(_ program: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let log = Pipe()
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw SpeechError.adaptationFailed("cannot run \(program): \(error.localizedDescription)")
        }
        let printed = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let name = (program as NSString).lastPathComponent
        logger.debug("\(name) exited \(process.terminationStatus)")
        // bw can exit 0 after "initialization failed"; its log says so.
        let failedQuietly = printed.contains("initialization failed") || printed.contains("FATAL")
        guard process.terminationStatus == 0, !failedQuietly else {
            let tail = printed.split(separator: "\n").suffix(3).joined(separator: " / ")
            throw SpeechError.adaptationFailed("\(name) failed: \(tail)")
        }
    }
}
