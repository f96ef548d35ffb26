import ArgumentParser
import CareAssistant
import CareLanguage
import CareModel
import CareSpeech
import CareStore
import CareTerminal
import Foundation

/// Recognition on a corpus (../shared/corpora/README.md): every recording decoded as the
/// assistant would decode it, in the state where it would hear it, and judged by the parsers
/// the dialog uses.
struct BenchRecognition: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recognition", abstract: "Decode a corpus as the assistant would and count what it gets right.")

    @OptionGroup var common: CommonOptions
    @Option(help: "The corpus's manifest.tsv (columns file, kind, expected; speaker optional).") var manifest: String
    @Option(help: "Background noise mixed in: \(NoiseColor.allCases.map(\.rawValue).joined(separator: " or ")).")
    var noise: NoiseColor?
    @Option(help: "Signal-to-noise ratio in dB for --noise, speech power measured over speech frames.") var snr: Double?
    @Option(help: "Seconds of the noise alone before and after each recording, for a background that was there before the words (default 0: it starts and stops with the recording).")
    var noiseAround = 0.0
    @Option(help: "Which draw of the noise to mix in (default 0, the one every figure in the README was measured with): another draw measures how much a figure owes to the noise's chance.")
    var noiseDraw: UInt64 = 0
    @Flag(help: "Print every item, not only the misses.") var details = false
    @Flag(help: "Print nothing per item.") var quiet = false
    @Option(help: "Turn away utterances whose grammar fit is below this, in every state and whatever they mean (default: each state's own, stricter for a reading where one is awaited), to calibrate it.")
    var minimumFit: Double?
    @Option(help: "Make the emergency words this many times likelier than the grammar alone makes them, in every state (default: the calibrated odds), to calibrate them.")
    var emergencyOdds: Double?
    @Option(help: ArgumentHelp("One emergency word's odds (the first word of an emergency phrase), over --emergency-odds; repeatable.", valueName: "word=odds"))
    var emergencyWordOdds: [String] = []
    @Option(help: ArgumentHelp("One word's odds in a noisy room's readings, instead of the locale's (speech.readingWordOddsInNoise; 1: the grammar's own), to calibrate them; repeatable.", valueName: "word=odds"))
    var readingWordOdds: [String] = []
    @Option(help: "Make the quit words (goodbye) this many times as likely as the grammar alone makes them, in every state (default: each state's own), to calibrate it.")
    var quitOdds: Double?
    @Option(help: "Hear the other words beside the reading grammar at these odds per phone, in a noisy room too (default: the locale's, far lower in a noisy room without a voice; 0: no other words), to calibrate them.")
    var otherWordOdds: Double?
    @OptionGroup var otherWordsSearch: OtherWordsSearchOption
    @Option(help: "Decode every item with this JSGF grammar instead of its state's, to measure a grammar before making it.")
    var grammarFile: String?
    @Flag(help: "Hear each recording as the first words of a session, with nothing learned from the ones before (a session is often a sentence or two).")
    var firstOfSession = false
    @Option(help: "Hear every recording as this band (wide or narrow) instead of its own, to measure what the narrowband means do.")
    var band: AudioBand?
    @Option(help: "Hear every recording as having this background (quiet or noisy) instead of its own, to measure what taking noise out does.")
    var background: AudioBackground?
    @OptionGroup var noiseLeftIn: NoiseLeftInOption
    @Option(help: "Hear every recording with its frequencies multiplied by this (0.7-1.4) and its length divided by it, to measure what moving a voice towards the acoustic model does.")
    var frequencyScale: Double?
    @Option(help: "Hear a noisy room (full band, no learned voice) with these means (bench noisy-room-means) instead of the locale's (models/en-us/noisy-room-means), to measure them; \"model\": with the acoustic model's own.")
    var noisyRoomMeans: String?
    @OptionGroup var decoder: DecoderOptions

    func validate() throws {
        try validateNoise(noise, snr: snr, around: noiseAround)
        for (name, odds) in [("--emergency-odds", emergencyOdds), ("--quit-odds", quitOdds)] {
            if let odds, !(odds > 0 && odds.isFinite) { throw ValidationError("\(name) must be a number above 0") }
        }
        _ = try Self.parsedWordOdds(emergencyWordOdds, option: "--emergency-word-odds")
        _ = try Self.parsedWordOdds(readingWordOdds, option: "--reading-word-odds")
        if let otherWordOdds, !(0...1).contains(otherWordOdds) { throw ValidationError("--other-word-odds must be from 0 to 1") }
        if let noisyRoomMeans, noisyRoomMeans != Self.modelsOwnMeans, !FileManager.default.isReadableFile(atPath: noisyRoomMeans) {
            throw ValidationError("--noisy-room-means: no file at \(noisyRoomMeans)")
        }
        if let frequencyScale, !Self.frequencyScales.contains(frequencyScale) {
            throw ValidationError("--frequency-scale must be from \(Self.frequencyScales.lowerBound) to \(Self.frequencyScales.upperBound)")
        }
    }

    /// An option's word=odds pairs (`--emergency-word-odds`, `--reading-word-odds`), as word: odds.
    private static func parsedWordOdds(_ pairs: [String], option: String) throws -> [String: Double] {
        var odds: [String: Double] = [:]
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, let value = Double(parts[1]), value > 0, value.isFinite else {
                throw ValidationError("\(option) takes word=odds, odds a number above 0 (not \(pair))")
            }
            odds[parts[0]] = value
        }
        return odds
    }

    func run() throws {
        let env = try AppEnvironment.make(common)
        // A learned voice replaces the model, means and all: the means would go unheard.
        if noisyRoomMeans != nil, env.storedVoice() != nil {
            throw CommandFailure("--noisy-room-means is for the general model, and \(env.dataDirectory.url.path) has a learned voice: give another --data-dir")
        }
        let wordOdds = try Self.parsedWordOdds(emergencyWordOdds, option: "--emergency-word-odds")
        let emergencyWords = RecognizerFactory.emergencyWords(env.table)
        if let stranger = wordOdds.keys.sorted().first(where: { !emergencyWords.contains($0) }) {
            throw CommandFailure("--emergency-word-odds: \(stranger) is not an emergency word here (\(emergencyWords.sorted().joined(separator: ", ")))")
        }
        let readingOdds = try Self.parsedWordOdds(readingWordOdds, option: "--reading-word-odds")
        let readingWords = Set(GrammarBuilder(table: env.table).jsgf(for: .reading)
            .split { " ()[]|;=<>\n".contains($0) }.map(String.init))
        if let stranger = readingOdds.keys.sorted().first(where: { !readingWords.contains($0) }) {
            throw CommandFailure("--reading-word-odds: \(stranger) is not a word of a reading here")
        }
        let items = try readManifest(manifest)
        // The person's unit setting decides what a number said without a unit means.
        // (Read only when there is a data file: a benchmark creates none.)
        let hasData = FileManager.default.fileExists(atPath: env.dataDirectory.databaseURL.path)
        let settings = (hasData ? try? openStore(env).settings() : nil) ?? env.defaultSettings
        let judge = RecognitionJudge(table: env.table, preferredUnit: settings.glucoseUnit)
        let acceptance = SpeechAcceptance(table: env.table, minimumFit: minimumFit)
        let decoderOptions = try decoder.parsed()
        let trial: String? = try grammarFile.map { path in
            do { return try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw CommandFailure("I can't read the grammar \(path): \(error.localizedDescription)")
            }
        }
        let recognizers = ConditionRecognizers { conditions in
            let recognizer = try env.hearing(conditions).makeRecognizer(extraArguments: decoderOptions, measuring: true,
                                                                  odds: WordOddsOverride(emergency: emergencyOdds, emergencyByWord: wordOdds,
                                                                                         quit: quitOdds, otherWordPerPhone: otherWordOdds,
                                                                                         readingInNoiseByWord: readingOdds),
                                                                  frequencyScale: frequencyScale ?? 1,
                                                                  otherWordsHMMsPerFrame: otherWordsSearch.hmmsPerFrame,
                                                                  means: conditions == Self.noisyRoom ? noisyRoomMeansFile(env.table) : nil)
            noiseLeftIn.apply(to: recognizer)
            if let trial {
                try recognizer.addGrammar(name: Self.trialGrammar, source: trial,
                                          searchOptions: RecognizerFactory.searchOverrides(decoderOptions))
            }
            return recognizer
        }

        let decoder = CorpusDecoder(recognizers: recognizers, judge: judge, acceptance: acceptance, book: env.phrasebook,
                                    noise: noise.flatMap { color in snr.map { (color, $0) } }, noiseAround: noiseAround,
                                    noiseDraw: noiseDraw, grammar: grammarFile == nil ? nil : Self.trialGrammar,
                                    printing: details ? .every : quiet ? .none : .misses,
                                    eachFirstOfSession: firstOfSession, band: band, background: background)
        let run = try decoder.decode(items)
        let tally = run.tally
        if let noise, let snr {
            Console.line(String(format: "noise: %@ at %.0f dB SNR", noise.rawValue, snr)
                         + (noiseAround > 0 ? String(format: ", alone for %.1f s before and after each recording", noiseAround) : "")
                         + (noiseDraw > 0 ? ", draw \(noiseDraw)" : ""))
        }
        if firstOfSession { Console.line("each recording heard as the first of a session") }
        if let frequencyScale { Console.line(String(format: "frequencies scaled by %.2f", frequencyScale)) }
        if run.noisy > 0 {
            Console.line("noisy (speech less than \(Int(AudioBackground.noisyBelowDB)) dB above the pauses), heard with the noise taken out"
                         + noisyRoomMeansNote(env) + ": \(run.noisy) of \(items.count) recordings")
        }
        if run.narrowband > 0 {
            Console.line("telephone band (nothing above 4 kHz), heard with the narrowband means: \(run.narrowband) of \(items.count) recordings")
        }
        for kind in CorpusItem.Kind.allCases {
            guard let r = tally.byKind[kind] else { continue }
            Console.line("\(kind.rawValue): \(r.line)")
        }
        for speaker in tally.bySpeaker.keys.sorted() { Console.line("speaker \(speaker): \(tally.bySpeaker[speaker]!.line)") }
        run.printTimings()
        Console.line("recognition: \(tally.total.right)/\(tally.total.count) correct (\(tally.total.percent))")
    }

    /// `--noisy-room-means`'s word for the acoustic model's own means.
    static let modelsOwnMeans = "model"

    /// The means a noisy room was heard with, for the summary; none where a learned voice
    /// replaces the model.
    private func noisyRoomMeansNote(_ env: AppEnvironment) -> String {
        guard env.storedVoice() == nil else { return "" }
        if noisyRoomMeans == Self.modelsOwnMeans { return " and the model's own means" }
        if let noisyRoomMeans { return " and the means \(noisyRoomMeans)" }
        guard RecognizerFactory.localeMeans(for: Self.noisyRoom, table: env.table, resources: env.resources) != nil,
              let file = env.table.speech.noisyRoomMeans else { return "" }
        return " and the locale's means \(file)"
    }

    /// The means file `--noisy-room-means` names.
    private func noisyRoomMeansFile(_ table: LocaleTable) -> String? {
        noisyRoomMeans == Self.modelsOwnMeans ? RecognizerFactory.modelMeans(table) : noisyRoomMeans
    }

    static let trialGrammar = "trial"
    /// The scales it takes: within them a voice still sounds like a voice (0.7 lowers it by about
    /// six semitones, 1.4 raises it as much).
    static let frequencyScales = 0.7...1.4
    /// The audio `--noisy-room-means` is for: full band, heard with the noise taken out.
    static let noisyRoom = AudioConditions(band: .wide, background: .noisy)
}

extension NoiseColor: ExpressibleByArgument {}
extension AudioBand: ExpressibleByArgument {}
extension AudioBackground: ExpressibleByArgument {}

/// A synthetic development corpus: readings, commands and sentences not meant for the assistant,
/// said by espeak-ng voices at varied speeds, written with a manifest `bench recognition` reads.
struct BenchCorpus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "corpus", abstract: "Write a synthetic speech corpus (WAV files and manifest.tsv) for bench recognition.")

    @OptionGroup var common: CommonOptions
    @Option(help: "Directory to write into (created).") var out: String
    @Option(help: "espeak-ng voices, comma-separated (default: five of the language's).") var voices: String?
    @Option(help: "How many readings.") var readings = 100
    @Option(help: "Seed for choosing readings, voices and speeds.") var seed: UInt64 = 7
    @Option(help: "Slowest speech, words a minute.") var slowest = 120
    @Option(help: "Fastest speech, words a minute.") var fastest = 190
    @Flag(help: "Also have every voice say the locale's enrollment phrases (kind enroll), for bench enrollment.")
    var enrollment = false
    @Option(help: "Also have every voice say every emergency phrase this many times, each at a random speed (kind command), to measure their recall.")
    var emergencyRounds = 0
    @Flag(help: "Also say other unrelated sentences (kind reject), last, which no threshold was calibrated on: to measure rejection on speech it has not seen.")
    var heldOutUnrelated = false
    @Option(help: "Also say this many readings with the time they were taken (\"my sugar this morning was six point five\"), after everything else: their words drawn each on its own, their voices and speeds in turn after the other readings'.")
    var timedReadings = 0

    /// Five voices of each language: the locale's own and its variants.
    static let defaultVoices = ["en": "en-us,en-gb,en-us+f3,en-gb-x-rp,en-us+m3",
                                "zh-Hans": "cmn-latn-pinyin,cmn-latn-pinyin+f3,cmn-latn-pinyin+m3,cmn-latn-pinyin+f2,cmn-latn-pinyin+m5"]

    /// The voices given (comma-separated), else five of the language's.
    static func voices(_ given: String?, table: LocaleTable) -> [String] {
        (given ?? defaultVoices[table.id] ?? table.speech.voice).split(separator: ",").map(String.init)
    }

    /// Sentences a person near the microphone might say that are not meant for the assistant.
    static let unrelated = ["en": englishUnrelated, "zh-Hans": chineseUnrelated]
    /// More of them, kept out of every calibration (`--held-out-unrelated`). Many hold numbers,
    /// times or meals, the words the grammars are made of.
    static let heldOutUnrelated = ["en": englishHeldOutUnrelated, "zh-Hans": chineseHeldOutUnrelated]

    static let englishHeldOutUnrelated = [
        "the bus number is fifty three", "I need to buy some milk and bread", "can you hear the birds outside",
        "my daughter lives in Manchester", "the match starts at three o'clock", "turn to chapter nine",
        "there are twenty four hours in a day", "the phone bill was sixty pounds", "put the kettle on would you",
        "I watered the plants this morning", "the dog needs a walk", "we had fish for dinner",
        "that film was far too long", "the post has come", "I can't find the remote control",
        "the lift is on floor eleven", "flight two hundred and six is delayed", "it was nineteen degrees yesterday",
        "my neighbour has a new car", "the shop closes at half past five", "I read the newspaper every day",
        "let's play cards after lunch", "the radio is too loud", "he was born in nineteen fifty two",
        "the garden needs weeding", "my size is ten", "the meeting is on the fourth floor",
        "she baked a cake for my birthday", "there were thirty people at church", "the heating is on",
        "I'd like a glass of water", "the grandchildren are coming on Sunday", "my pension comes on Thursday",
        "he scored two goals", "the roof is leaking again", "we need new light bulbs",
        "the queue was very long at the bank", "take the number eight bus", "the library book is due back",
        "my knee hurts when it rains", "the cat is asleep on the sofa", "I paid twelve fifty for the taxi",
        "dinner will be ready in ten minutes", "the clocks go back tonight", "I left my keys in the car",
        "the soup is too hot", "my brother phoned last night", "the score was four one",
        "can you read this letter for me", "the television licence is due", "I walked to the park and back",
        "it is raining cats and dogs", "the chemist opens at nine", "my favourite number is seven",
        "the crossword was hard today", "I'll have the soup please", "the window cleaner comes on Friday",
        "this jumper is too small", "my grandson is six foot two", "the answer is forty",
    ]

    static let chineseHeldOutUnrelated = [
        "公共汽车是五十三路", "我要去买牛奶和面包", "外面的鸟在叫", "我女儿住在上海", "比赛三点开始", "翻到第九章",
        "一天有二十四个小时", "电话费是六十块", "帮我烧点水", "我今天早上浇了花", "狗要出去走走", "我们晚饭吃了鱼",
        "电梯在十一楼", "昨天十九度", "我邻居买了新车", "商店五点半关门", "我每天看报纸", "午饭后我们打牌吧",
        "收音机太吵了", "他是一九五二年出生的", "教堂里有三十个人", "我想喝杯水", "星期天孙子们要来", "他进了两个球",
        "屋顶又漏水了", "坐八路车", "下雨的时候我膝盖疼", "出租车花了十二块五", "十分钟后吃晚饭", "我最喜欢的数字是七",
    ]

    static let chineseUnrelated = [
        "我家里有三只猫", "今天天气很好", "请把盐递给我", "公共汽车几点来", "我等一下再打给你", "把电视声音关小一点",
        "我的眼镜放在哪里了", "水已经开了", "星期六我们去买东西吧", "我孙子要来看我", "第四十二页", "七频道",
        "一共五块五", "火车九点半开", "你要不要喝杯茶", "好像要下雨了", "请把窗户打开", "医生说要多休息",
        "十二号房间", "她今年八十六岁",
    ]

    static let englishUnrelated = [
        "I have three cats at home", "the weather is lovely today", "could you pass me the salt",
        "what time does the bus come", "I'll call you back later", "turn the television down",
        "where did I put my glasses", "the kettle has boiled", "we should go shopping on Saturday",
        "my grandson is coming to visit", "page forty two", "channel seven", "it costs five pounds fifty",
        "the train leaves at half past nine", "do you want a cup of tea", "I think it might rain",
        "open the window please", "the doctor said to rest", "room number twelve", "she is eighty six this year",
    ]

    func run() throws {
        let env = try AppEnvironment.make(common)
        let synthesizer = try SpeechSynthesizer.shared()
        let directory = URL(fileURLWithPath: out)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("wav"), withIntermediateDirectories: true)
        var generator = SeededGenerator(seed: seed)
        let voiceList = Self.voices(voices, table: env.table)
        let numbers = NumberWords(env.table.numbers)
        var rows: [(sentence: String, kind: CorpusItem.Kind, expected: String, voice: String?)] = []

        for _ in 0..<readings {
            let spec = ReadingSpec.random(using: &generator, leads: ReadingSpec.leads(env.table))
            rows.append((spec.sentence(table: env.table, numbers: numbers), .reading, spec.expected, nil))
        }
        // Every way the locale says each command.
        let answers = env.table.answers
        let commands: [(ExpectedOutcome.Command, [String])] = [
            (.yes, answers["yes"] ?? []), (.no, answers["no"] ?? []), (.cancel, answers["cancel"] ?? []),
            (.repeat, answers["repeat"] ?? []), (.back, env.table.profile.back),
            (.help, env.table.emergency.filter { $0.hasPrefix("help") }),
            (.emergency, env.table.emergency.filter { !$0.hasPrefix("help") }),
        ]
        // What the assistant listens for: not the phrases understood only typed, and in Chinese only Chinese.
        let sayable = { (phrase: String) in
            !env.table.speech.unsaid.contains(phrase) && (env.pinyin == nil || phrase.allSatisfy { Tokenizer.isChinese($0) })
        }
        for (command, phrases) in commands {
            for phrase in phrases where sayable(phrase) { rows.append((phrase, .command, command.rawValue, nil)) }
        }
        for sentence in Self.unrelated[env.table.id] ?? [] { rows.append((sentence, .reject, "-", nil)) }
        // After the rest, which stays as it would be without them.
        let callsForHelp = commands.filter { $0.0 == .help || $0.0 == .emergency }
        for _ in 0..<emergencyRounds {
            for voice in voiceList {
                for (command, phrases) in callsForHelp {
                    for phrase in phrases where sayable(phrase) { rows.append((phrase, .command, command.rawValue, voice)) }
                }
            }
        }
        if enrollment {
            for voice in voiceList {
                for phrase in env.table.enrollment.prompts { rows.append((phrase, .enroll, "-", voice)) }
            }
        }
        if heldOutUnrelated {
            for sentence in Self.heldOutUnrelated[env.table.id] ?? [] { rows.append((sentence, .reject, "-", nil)) }
        }

        // Their words each from a sequence of its own, so that asking for more changes none
        // before them; their voices and speeds are drawn in turn below, as every reading's.
        for index in 0..<timedReadings {
            var own = SeededGenerator(seed: seed, key: "timed reading\t\(index)")
            let spec = TimedReadingSpec.random(using: &own, table: env.table, numbers: numbers)
            rows.append((spec.sentence(table: env.table, numbers: numbers), .reading, spec.expected, nil))
        }

        var manifest = "file\tkind\texpected\tspeaker\ttext\trate\n"
        // Readings draw their voices and speeds in turn, after their words; every other item from
        // a sequence of its own, named by what it is, so that a phrase added to the locale (or a
        // kind added to the corpus) changes no other item's voice or speed.
        var occurrences: [String: Int] = [:]
        for (index, row) in rows.enumerated() {
            func voiceAndRate(_ g: inout SeededGenerator) -> (String, Int) {
                (row.voice ?? voiceList.randomElement(using: &g)!, Int.random(in: slowest...fastest, using: &g))
            }
            let voice: String, rate: Int
            if row.kind == .reading {
                (voice, rate) = voiceAndRate(&generator)
            } else {
                let key = [row.kind.rawValue, row.expected, row.sentence, row.voice ?? ""].joined(separator: "\t")
                let occurrence = occurrences[key, default: 0]
                occurrences[key] = occurrence + 1
                var own = SeededGenerator(seed: seed, key: key + "\t\(occurrence)")
                (voice, rate) = voiceAndRate(&own)
            }
            let name = String(format: "wav/%04d-%@.wav", index + 1, row.kind.rawValue)
            let audio = try synthesizer.synthesize(env.pinyin?.spell(row.sentence) ?? row.sentence, voice: voice, rate: rate)
            try WAVFile.write(audio, to: directory.appendingPathComponent(name))
            manifest += "\(name)\t\(row.kind.rawValue)\t\(row.expected)\t\(voice)\t\(row.sentence)\t\(rate)\n"
        }
        try manifest.write(to: directory.appendingPathComponent("manifest.tsv"), atomically: true, encoding: .utf8)
        Console.line("corpus: \(rows.count) recordings in \(directory.path)")
    }
}
