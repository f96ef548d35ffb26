import ArgumentParser
import CareAssistant
import CareLanguage
import CareModel
import CareSpeech
import CareStore
import CareTerminal
import Foundation

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Measure the assistant (benchmarks are commands, not tests).",
        subcommands: [BenchLoop.self, BenchOnboarding.self, BenchRecognition.self, BenchEnrollment.self, BenchNarrowband.self, BenchNoisyRoomMeans.self, BenchCorpus.self, BenchPrompts.self, BenchReport.self, BenchScale.self]
    )
}

/// The whole speech loop on synthesized sessions: espeak-ng says a reading and
/// "yes"; the assistant decodes the recording as with `--audio-in`, except that each session
/// starts as the assistant does on a microphone: with a quiet room's recognizer (a noisy room's
/// is swapped in once an utterance tells the room is noisy), from the cepstral mean the last
/// session learned (the first from the model's own).
struct BenchLoop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loop", abstract: "Say readings with several espeak-ng voices and count the ones saved exactly right.")

    @OptionGroup var common: CommonOptions
    @Option(help: "How many readings.") var count = 100
    @Option(help: "espeak-ng voices, comma-separated (default: five of the language's).") var voices: String?
    @Option(help: "Seed for choosing readings.") var seed: UInt64 = 42
    @Flag(help: "Print every reading.") var details = false
    @Option(help: "Background noise throughout each session, before and between the words too: \(NoiseColor.allCases.map(\.rawValue).joined(separator: " or ")).")
    var noise: NoiseColor?
    @Option(help: "Signal-to-noise ratio in dB for --noise, speech power measured over speech frames.") var snr: Double?
    @Option(help: "Seconds of the room heard before each session's first words (under 0.3: too little to tell the room by, as when a person speaks as soon as the assistant listens).")
    var roomBefore = SessionAudio.roomBefore
    @Option(help: "A directory to keep each session's recording in (session-001.wav, ...), to hear a miss again with --audio-in.")
    var keepAudio: String?
    @Flag(help: "Each voice's sessions start from the means that voice's last session learned, as each person's own data directory has them (default: from the last session's, whichever voice spoke).")
    var meanPerVoice = false
    @Flag(help: "Each session starts with a sentence not meant for the assistant (bench corpus's held-out unrelated ones), to be turned away, before the reading: in a noisy room it is the first words heard.")
    var unrelatedFirst = false
    @OptionGroup var decoder: DecoderOptions
    @OptionGroup var otherWordsSearch: OtherWordsSearchOption
    @OptionGroup var noiseLeftIn: NoiseLeftInOption

    func validate() throws {
        try validateNoise(noise, snr: snr, around: 0)
        guard roomBefore >= 0, roomBefore <= 10 else { throw ValidationError("--room-before takes 0 to 10 seconds.") }
    }

    func run() throws {
        let env = try AppEnvironment.make(common)
        let keptAudio = try keepAudio.map(Self.folder)
        let synthesizer = try SpeechSynthesizer.shared()
        // Every session starts as a microphone does, with a quiet room's recognizer, from the mean
        // it learned in the last session; the recording path swaps in a new noisy room's one once
        // an utterance tells it the room is noisy (as the microphone does: `BackgroundFollower`),
        // from the mean the last noisy room's one learned.
        let extra = try decoder.parsed()
        let recognizer = try env.makeRecognizer(extraArguments: extra, measuring: true, otherWordsHMMsPerFrame: otherWordsSearch.hmmsPerFrame)
        let greeting = try synthesizer.synthesize(env.phrasebook.text(.greeting), voice: env.table.speech.voice)
        // What the assistant does before its first prompt, timed from the start of the process.
        let startup = secondsSinceProcessStart()

        var generator = SeededGenerator(seed: seed)
        let voiceList = BenchCorpus.voices(voices, table: env.table)
        var right = 0
        var perVoice: [String: (right: Int, total: Int)] = [:]
        var latencies: [ReplyLatency] = []
        let numbers = NumberWords(env.table.numbers)
        // Per voice with --mean-per-voice, else all under "".
        var rememberedMeans: [String: [AudioBackground: [Float]]] = [:]
        let parser = UtteranceParser(table: env.table)
        // The locale's own yes: a Chinese voice saying "yes" was heard as 结束 ("end").
        let yes = env.table.answers["yes"]?.first ?? "yes"
        // The unrelated sentences in an order of their own, so the readings are those of a run
        // without them.
        var unrelatedOrder = SeededGenerator(seed: seed)
        let unrelated = unrelatedFirst ? (BenchCorpus.heldOutUnrelated[env.table.id] ?? []).shuffled(using: &unrelatedOrder) : []
        let notCaught = env.phrasebook.message(.notUnderstood).spoken
        var turnedAway = 0
        // Seconds each session's noisy room's recognizer took to make.
        var madeAhead: [Double] = []

        for index in 0..<count {
            let voice = voiceList[index % voiceList.count]
            let spec = ReadingSpec.random(using: &generator, leads: ReadingSpec.leads(env.table))
            let sentence = spec.sentence(table: env.table, numbers: numbers)
            let first = unrelated.isEmpty ? nil : unrelated[index % unrelated.count]
            var session = try SessionAudio.make([first, sentence, yes].compactMap { $0 }, voice: voice, synthesizer: synthesizer,
                                                roomBefore: roomBefore)
            if let noise, let snr {
                session.audio = NoiseMixer.mix(session.audio, noise: noise, snr: snr, seed: UInt64(index + 1))
            }
            if let keptAudio {
                try WAVFile.write(session.audio, to: keptAudio.appendingPathComponent(String(format: "session-%03d.wav", index + 1)))
            }

            let output = TimingOutput(synthesizer: synthesizer, voice: env.table.speech.voice)
            let store = try Store()
            let rememberedMean = rememberedMeans[meanPerVoice ? voice : "", default: [:]]
            recognizer.beginSession(startingMean: rememberedMean[.quiet])
            try recognizer.selectGrammar(ListeningContext.reading.rawValue)
            var configuration = AssistantRuntime.Configuration(
                phrasebook: env.phrasebook, preferredUnit: .mmolPerL, store: PendingStore(store),
                recognizer: recognizer, voice: .recording(session.audio), keyboard: false, speech: output)
            configuration.display = { _ in }
            // Every recognizer the session made or heard with (a noisy room's is made while the
            // utterance that sounds noisy is said, and may go unused), and the rooms of those that
            // heard what the assistant was given. The noisy room's is made on a thread of its own.
            let heardWith = Locked([recognizer])
            var roomsHeard: Set<AudioBackground> = []
            func makeNoisy() throws -> SpeechRecognizer? {
                guard let conditions = env.conditions.over(.noisy) else { return nil }
                let noisy = try env.hearing(conditions).makeRecognizer(extraArguments: extra, measuring: true,
                                                                       otherWordsHMMsPerFrame: otherWordsSearch.hmmsPerFrame)
                noiseLeftIn.apply(to: noisy)
                noisy.beginSession(startingMean: rememberedMean[.noisy])
                heardWith.mutate { $0.append(noisy) }
                return noisy
            }
            // The assistant has the noisy room's recognizer made while its greeting is said,
            // before the person speaks (`BackgroundFollower.prepare`): made here before the
            // session is played, and timed, and handed over when the recording asks for it, as
            // soon as the quiet room's recognizer listens.
            let making = Date()
            let standby = Locked(try makeNoisy())
            madeAhead.append(Date().timeIntervalSince(making))
            configuration.recordingMakesNoisyRoomsAhead = true
            configuration.recognizerOver = { background in
                guard background == .noisy else {
                    heardWith.mutate { $0.append(recognizer) }
                    return recognizer
                }
                var ahead: SpeechRecognizer?
                standby.mutate { swap(&ahead, &$0) }
                return try ahead ?? makeNoisy()
            }
            let runtime = AssistantRuntime(configuration)
            var heard: [String] = []
            runtime.onHeard = { result in
                let fit = result.grammarFit.map { String(format: "fit %.1f", $0) }
                let end = result.endpoint.map { String(format: "ended %.2f s in", $0) }
                roomsHeard.insert(result.heardOver)
                let noisy = result.heardOver == .noisy ? "noise taken out" : nil
                let said = [fit, end, noisy, result.hearing == .asSaid ? nil : result.hearing.rawValue].compactMap { $0 }
                heard.append("\"\(result.text)\"" + (said.isEmpty ? "" : " (\(said.joined(separator: ", ")))"))
                output.markHeard(result, speechEnds: session.speechEnds, asReading: {
                    if case .glucose = parser.parse(result.text) { return true } else { return false }
                }())
            }
            runtime.run()
            for heard in heardWith.value where roomsHeard.contains(heard.configuration.background) {
                if let learned = heard.learnedMean { rememberedMeans[meanPerVoice ? voice : "", default: [:]][heard.configuration.background] = learned }
            }
            // The sessions share the quiet room's recognizer, whose maker of a noisy room's one
            // holds this session's recognizers: let go of them before the next is made.
            recognizer.makeOverNoise = nil
            // A slow reply says what it waited for.
            let replies = output.latencies.map { latency in
                String(format: "%.0f", latency.total * 1000)
                    + (latency.total < 0.5 ? "" : String(format: " (behind %.0f, decoding %.0f)", latency.behind * 1000, latency.decoding * 1000))
            }.joined(separator: ", ")
            latencies += output.latencies

            let saved = try store.readings()
            let ok = saved.count == 1 && abs(saved[0].level.mmolPerL - spec.level.mmolPerL) < 1e-9 && saved[0].tag == spec.tag
            if ok { right += 1 }
            // Turned away: whatever was heard before the reading began was answered with "I
            // didn't catch that", if at all. The reading starts a gap after the sentence ends.
            let tookUnrelated = first != nil && output.said.contains { reply in
                reply.after.map { $0 < session.speechEnds[0] + SessionAudio.gap } == true && reply.text != notCaught
            }
            if first != nil && !tookUnrelated { turnedAway += 1 }
            perVoice[voice, default: (0, 0)].total += 1
            if ok { perVoice[voice, default: (0, 0)].right += 1 }
            if details || !ok || tookUnrelated {
                Console.line("\(ok ? "ok  " : "MISS")\(tookUnrelated ? " TOOK" : "") [\(voice)] said "
                             + (first.map { "\"\($0)\", then " } ?? "") + "\"\(sentence)\"; heard \(heard.joined(separator: ", ")); replies after \(replies) ms"
                             + (details || tookUnrelated ? "; said \(output.said.map { "\"\($0.text)\"" }.joined(separator: ", "))" : ""))
            }
        }

        for voice in voiceList {
            let r = perVoice[voice] ?? (0, 0)
            Console.line("voice \(voice): \(r.right)/\(r.total)")
        }
        if let noise, let snr {
            Console.line(String(format: "noise: %@ at %.0f dB SNR throughout each session", noise.rawValue, snr))
        }
        Console.line(String(format: "process start to first prompt ready to play: %.0f ms", startup * 1000))
        if !madeAhead.isEmpty {
            Console.line(String(format: "noisy room's recognizer made before each session (as while the greeting, %.1f s, is said): median %.0f ms, p95 %.0f ms",
                                greeting.duration, percentile(madeAhead.sorted(), 0.5) * 1000, percentile(madeAhead.sorted(), 0.95) * 1000))
        }
        if !latencies.isEmpty {
            func ms(_ values: [Double], _ p: Double) -> Double { percentile(values.sorted(), p) * 1000 }
            let total = latencies.map(\.total)
            Console.line(String(format: "end of speech to first sample of the reply: median %.0f ms, p95 %.0f ms (%d replies)",
                                ms(total, 0.5), ms(total, 0.95), total.count))
            Console.line(String(format: "  medians: end-of-speech detection %.0f ms, hearing behind %.0f ms, final decode %.0f ms, dialog and synthesis %.0f ms",
                                ms(latencies.map(\.detection), 0.5), ms(latencies.map(\.behind), 0.5), ms(latencies.map(\.decoding), 0.5),
                                ms(latencies.map(\.reply), 0.5)))
            Console.line(String(format: "  p95s: end-of-speech detection %.0f ms, hearing behind %.0f ms, final decode %.0f ms, dialog and synthesis %.0f ms",
                                ms(latencies.map(\.detection), 0.95), ms(latencies.map(\.behind), 0.95), ms(latencies.map(\.decoding), 0.95),
                                ms(latencies.map(\.reply), 0.95)))
            let readBacks = latencies.filter(\.toReading).map(\.total)
            let others = latencies.filter { !$0.toReading }.map(\.total)
            Console.line(String(format: "  reply to a reading: median %.0f ms, p95 %.0f ms (%d); to anything else: median %.0f ms, p95 %.0f ms (%d)",
                                ms(readBacks, 0.5), ms(readBacks, 0.95), readBacks.count, ms(others, 0.5), ms(others, 0.95), others.count))
        }
        Console.line("peak memory: \(peakMemoryMiB()) MiB")
        if unrelatedFirst {
            Console.line(String(format: "unrelated first: %d/%d turned away (%.1f%%)", turnedAway, count, Double(turnedAway) * 100 / Double(max(count, 1))))
        }
        Console.line(String(format: "loop: %d/%d saved exactly right (%.1f%%)", right, count, Double(right) * 100 / Double(max(count, 1))))
    }

    /// The folder for `--keep-audio`, made if need be, before any session is said.
    static func folder(_ path: String) throws -> URL {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw CommandFailure("--keep-audio: \(path) is a file, not a folder") }
        } else if (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) == nil {
            throw CommandFailure("--keep-audio: cannot make the folder \(path)")
        }
        return URL(fileURLWithPath: path)
    }
}

/// The onboarding questionnaire answered by voice, straight away, by synthesized voices:
/// how long it takes a person, and whether everything was saved as said.
struct BenchOnboarding: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onboarding", abstract: "Time the spoken onboarding questionnaire, answered straight away.")

    @OptionGroup var common: CommonOptions
    @Option(help: "espeak-ng voices for the person, comma-separated.") var voices = "en-us,en-gb,en-us+f3,en-gb-x-rp,en-us+m3"

    /// Each answer and its yes; the contact's name cannot be said to a grammar, so it is skipped.
    static let answers = [
        "english", "yes", "millimoles per litre", "yes", "metric", "yes", "march fourth nineteen forty eight", "yes",
        "one hundred seventy centimetres", "yes", "seventy kilograms", "yes", "female", "yes", "type two", "yes",
        "canada", "yes", "skip", "twelve hours", "yes", "yes",
    ]
    static let expected = Profile(dateOfBirth: CalendarDay(year: 1948, month: 3, day: 4), heightCm: 170, weightKg: 70,
                                  sex: .female, diabetesType: .type2, country: "CA")

    func run() throws {
        let env = try AppEnvironment.make(common)
        let synthesizer = try SpeechSynthesizer.shared()
        let countries = env.emergencyCountries
        let recognizer = try env.makeRecognizer()
        var minutes: [Double] = []
        var right = 0
        for voice in voices.split(separator: ",").map(String.init) {
            let session = try SessionAudio.make(Self.answers, voice: voice, synthesizer: synthesizer, gap: 1.0)
            let personSpeaking = zip(session.speechEnds, [0.5] + session.speechEnds.dropLast().map { $0 + 1.0 })
                .map { $0 - $1 }.reduce(0, +)
            let output = TimingOutput(synthesizer: synthesizer, voice: env.table.speech.voice)
            let store = try Store()
            var configuration = AssistantRuntime.Configuration(
                phrasebook: env.phrasebook, preferredUnit: .mmolPerL, store: PendingStore(store), recognizer: recognizer,
                voice: .recording(session.audio), keyboard: false, speech: output)
            configuration.display = { _ in }
            configuration.onboarding = OnboardingStart(countries: countries, today: CalendarDay.today(),
                                                       settings: Settings(), thenReadings: false)
            let runtime = AssistantRuntime(configuration)
            runtime.onHeard = { result in output.markHeard(result, speechEnds: session.speechEnds) }
            runtime.run()
            // The person listens to every question and read-back, answers at once, and waits
            // for each reply; the reply's wait is inside the next sentence's start.
            let waiting = output.latencies.map(\.total).reduce(0, +)
            let total = output.spokenSeconds + personSpeaking + waiting
            let profile = try store.profile()
            let ok = profile.map { p in
                p.dateOfBirth == Self.expected.dateOfBirth && abs(p.heightCm - 170) < 0.5 && abs(p.weightKg - 70) < 0.05
                    && p.sex == .female && p.diabetesType == .type2 && p.country == "CA"
            } ?? false
            if ok { right += 1; minutes.append(total / 60) }
            Console.line(String(format: "voice %@: %@, %d min %02d s (assistant speaking %.0f s, person speaking %.0f s, waiting for replies %.0f s)",
                                voice, ok ? "saved as said" : "NOT saved as said", Int(total) / 60, Int(total) % 60,
                                output.spokenSeconds, personSpeaking, waiting))
        }
        let median = minutes.sorted().isEmpty ? 0 : percentile(minutes.sorted(), 0.5)
        Console.line(String(format: "onboarding: %d/%d sessions saved as said, median %.1f minutes", right,
                            voices.split(separator: ",").count, median))
    }
}

/// Decoder options for one benchmark run, to measure a change before making it.
struct DecoderOptions: ParsableArguments {
    @Option(name: .customLong("decoder-option"),
            help: "A pocketsphinx option for this run, as -name=value (repeatable), to measure a change before making it.")
    var values: [String] = []

    func validate() throws { _ = try parsed() }

    func parsed() throws -> [String: String] {
        var options: [String: String] = [:]
        for option in values {
            let parts = option.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[0].hasPrefix("-") else {
                throw ValidationError("--decoder-option takes -name=value, e.g. -topn=8; got \(option)")
            }
            options[parts[0]] = parts[1]
        }
        return options
    }
}

/// A reading to say, and how to say it.
struct ReadingSpec {
    var number: String
    var unit: GlucoseUnit
    var sayUnit: Bool
    var tag: MealTag?
    var lead: String

    var level: GlucoseLevel { GlucoseLevel(Double(number)!, unit) }
    /// As a manifest writes it: "6.5 mmol/L before-breakfast".
    var expected: String { "\(number) \(unit.rawValue)" + (tag.map { " \($0.rawValue)" } ?? "") }

    /// How a reading may start when said. English readings may start with the number; Chinese
    /// ones start with 血糖 (the table's leads), since the English acoustic model hears no tones.
    static func leads(_ table: LocaleTable) -> [String] {
        table.numbers.system == .chinese ? table.reading.lead : ["glucose", "blood sugar", "my blood sugar is", "sugar", ""]
    }

    static func random(using g: inout SeededGenerator, leads: [String]) -> ReadingSpec {
        let unit: GlucoseUnit = Int.random(in: 0..<3, using: &g) == 0 ? .mgPerDL : .mmolPerL
        let number = unit == .mmolPerL
            ? { let tenths = Int.random(in: 30...180, using: &g); return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)" }()
            : String(Int.random(in: 60...300, using: &g))
        let tags: [MealTag?] = [nil] + MealTag.allCases
        return ReadingSpec(number: number, unit: unit, sayUnit: Bool.random(using: &g),
                           tag: tags.randomElement(using: &g)!,
                           lead: leads.randomElement(using: &g)!)
    }

    func sentence(table: LocaleTable, numbers: NumberWords) -> String {
        var words = [lead, numbers.spell(number)]
        if sayUnit { words.append(table.phrases(for: unit).say[1]) }
        if let tag { words.append(table.phrases(for: tag).say[0]) }
        return Tokenizer.joined(words.filter { !$0.isEmpty })
    }
}

/// A reading said with the time it was taken, where people put the time: "this morning my
/// sugar was six point five", "my sugar this morning was six point five", "my sugar was six
/// point five this morning". Chinese says the time first (今天早上血糖六点五).
struct TimedReadingSpec {
    enum Place: CaseIterable { case first, afterLead, last }
    var reading: ReadingSpec
    var time: String
    var place: Place

    static func random(using g: inout SeededGenerator, table: LocaleTable, numbers: NumberWords) -> TimedReadingSpec {
        let chinese = table.numbers.system == .chinese
        let lead = table.reading.lead.randomElement(using: &g)!
        var reading = ReadingSpec.random(using: &g, leads: [lead])
        let t = table.time
        let part = t.partsOfDay.flatMap(\.say).randomElement(using: &g)!
        let hour = numbers.spell(String(Int.random(in: 5...11, using: &g)))
        let time: String
        switch (chinese, Int.random(in: 0..<3, using: &g)) {
        case (true, 0): time = part
        case (true, _): time = Tokenizer.joined([part, hour, t.oclock[0]])
        case (false, 0): time = part
        case (false, 1): time = Tokenizer.joined([(t.today + t.yesterday).randomElement(using: &g)!, t.at[0], hour])
        case (false, _): time = Tokenizer.joined([t.at[0], hour, part])
        }
        let place = chinese ? .first : Place.allCases.randomElement(using: &g)!
        // English frames the lead word as people do ("my sugar ... was"); the number follows.
        switch place {
        case .first: reading.lead = chinese ? Tokenizer.joined([time, lead]) : "\(time) my \(lead) was"
        case .afterLead: reading.lead = "my \(lead) \(time) was"
        case .last: reading.lead = "my \(lead) was"
        }
        return TimedReadingSpec(reading: reading, time: time, place: place)
    }

    var expected: String { reading.expected }

    func sentence(table: LocaleTable, numbers: NumberWords) -> String {
        let said = reading.sentence(table: table, numbers: numbers)
        return place == .last ? Tokenizer.joined([said, time]) : said
    }
}

/// A session recording: each sentence spoken, then silence, at 16 kHz; and where in it
/// (seconds) each sentence's speech ends.
struct SessionAudio {
    var audio: PCMAudio
    var speechEnds: [Double]

    /// Silence after each sentence, as a person waits for the reply.
    static let gap = 1.2
    /// Silence before the first sentence: enough for a stream to tell the room by.
    static let roomBefore = 0.5

    static func make(_ sentences: [String], voice: String, synthesizer: SpeechSynthesizer,
                     gap: Double = Self.gap, roomBefore: Double = Self.roomBefore) throws -> SessionAudio {
        let rate = 16000
        var samples = [Int16](repeating: 0, count: Int(roomBefore * Double(rate)))
        var ends: [Double] = []
        for sentence in sentences {
            let spoken = Resampler.resample(try synthesizer.synthesize(sentence, voice: voice), to: rate).samples
            // The last sample above 1 % of full scale: espeak-ng ends with a little silence.
            let last = spoken.lastIndex { abs(Int($0)) > 327 } ?? 0
            ends.append(Double(samples.count + last + 1) / Double(rate))
            samples += spoken
            samples += [Int16](repeating: 0, count: Int(gap * Double(rate)))
        }
        return SessionAudio(audio: PCMAudio(samples: samples, sampleRate: rate), speechEnds: ends)
    }
}

/// From the end of someone's speech to the first sample of the reply, in its parts (seconds).
struct ReplyLatency {
    /// Audio time until the detector decided the utterance had ended (live, the person waits it out).
    var detection: Double
    /// How far the hearing was behind the sound when the end was detected
    /// (`RecognitionResult.behind`).
    var behind: Double
    /// The final decode of the utterance.
    var decoding: Double
    /// The dialog, the store and synthesizing the first 0.1 s of the reply (ALSA starts playing
    /// then, as the rest is made).
    var reply: Double
    /// The utterance was heard as a reading: the reply reads it back (or says why it cannot).
    var toReading: Bool
    var total: Double { detection + behind + decoding + reply }
}

/// Synthesizes like the real output (so the time is real) and times the first reply after
/// each utterance.
final class TimingOutput: SpeechOutput {
    private let synthesizer: SpeechSynthesizer
    private let voice: String
    private var heard: (at: Date, detection: Double, behind: Double, decoding: Double, asReading: Bool)?
    /// Where in the session the last utterance heard ended (`markHeard`); nil before any.
    private var lastEndpoint: Double?
    private(set) var latencies: [ReplyLatency] = []
    /// How long everything said would take to hear.
    private(set) var spokenSeconds = 0.0
    /// Everything said, in order, each after the end of the utterance heard last (nil: before any).
    private(set) var said: [(after: Double?, text: String)] = []

    init(synthesizer: SpeechSynthesizer, voice: String) {
        self.synthesizer = synthesizer
        self.voice = voice
    }

    /// An utterance was heard (its end in `speechEnds`, the session's ends of speech): the next
    /// thing said is its reply. Live, the person has been silent since their speech ended: the
    /// detector's wait is audio time, and the final decode came after it.
    func markHeard(_ result: RecognitionResult, speechEnds: [Double], asReading: Bool = false) {
        let speechEnd = speechEnds.last { $0 <= (result.endpoint ?? 0) } ?? 0
        lastEndpoint = result.endpoint ?? speechEnd
        heard = (Date(), (result.endpoint ?? speechEnd) - speechEnd, result.behind, result.decodingTime, asReading)
    }

    /// The reply is heard once ALSA's buffer of it is made, or all of it if it is shorter: as
    /// `SpeakerOutput` plays it.
    func speak(_ text: String) throws {
        said.append((lastEndpoint, text))
        let heardAfter = Int(SpeakerSink.bufferSeconds * Double(synthesizer.sampleRate))
        var samples = 0
        func replyHeard() {
            guard let heard else { return }
            latencies.append(ReplyLatency(detection: heard.detection, behind: heard.behind, decoding: heard.decoding,
                                          reply: Date().timeIntervalSince(heard.at), toReading: heard.asReading))
            self.heard = nil
        }
        try synthesizer.synthesize(text, voice: voice) { piece in
            samples += piece.count
            if samples >= heardAfter { replyHeard() }
        }
        replyHeard()
        spokenSeconds += Double(samples) / Double(synthesizer.sampleRate)
    }

    func use(_ style: SpeechOutputStyle) {}
    var isAudible: Bool { false }
}


/// How much of the other words' search a bench keeps (`RecognizerFactory.otherWordsHMMsPerFrame`).
struct OtherWordsSearchOption: ParsableArguments {
    @Option(name: .customLong("other-words-hmms-per-frame"),
            help: "The most HMMs a frame the other words' search keeps, in every room, with a voice and without (default: \(RecognizerFactory.otherWordsHMMsPerFrame(over: .noisy, voiceLearned: false).map(String.init) ?? "no limit") in a noisy room without a learned voice, else no limit; -1: no limit), to calibrate it.")
    var hmmsPerFrame: Int?

    func validate() throws {
        if let hmmsPerFrame, hmmsPerFrame < 1 && hmmsPerFrame != -1 {
            throw ValidationError("--other-words-hmms-per-frame must be a positive count, or -1 for no limit")
        }
    }
}

/// `--noise-taken-out-only`, where a bench hears a noisy room.
struct NoiseLeftInOption: ParsableArguments {
    @Flag(help: "In a noisy room, hear calls for help with the noise taken out only, not also with it left in beside, to measure what that second hearing adds and costs.")
    var noiseTakenOutOnly = false

    /// Takes the second hearing from `recognizer`, where the flag says so.
    func apply(to recognizer: SpeechRecognizer) {
        if noiseTakenOutOnly { recognizer.makeNoiseLeftIn = nil }
    }
}

/// The checks of `--noise`, `--snr` and `--noise-around`, where a bench mixes noise in.
func validateNoise(_ noise: NoiseColor?, snr: Double?, around: Double) throws {
    if (noise == nil) != (snr == nil) { throw ValidationError("--noise and --snr go together") }
    if around != 0 && noise == nil { throw ValidationError("--noise-around needs --noise") }
    if !(0...10).contains(around) { throw ValidationError("--noise-around must be from 0 to 10 seconds") }
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

/// Seconds since this process started (field 22 of /proc/self/stat, in clock ticks since boot).
func secondsSinceProcessStart() -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
          let uptime = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8),
          let close = stat.lastIndex(of: ")"),
          let startTicks = Double(stat[stat.index(after: close)...].split(separator: " ")[19]),
          let now = Double(uptime.split(separator: " ")[0]) else { return -1 }
    return now - startTicks / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// VmHWM: the most resident memory this process has used.
func peakMemoryMiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kib = Int(line.split(separator: " ").dropFirst().first ?? "") else { return -1 }
    return kib / 1024
}
