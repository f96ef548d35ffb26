import CareLanguage
import CareModel
import CareSpeech
import Foundation
import Logging

/// Builds the recognizer the assistant uses: Debian's acoustic model, the
/// locale's dictionary plus our extra words, and one grammar per listening context.
public enum RecognizerFactory {
    /// - Parameter countries: the countries the onboarding country question may hear (ISO codes).
    /// - Parameter voice: the person's adapted voice (`carevoice enroll`), used instead of the general model.
    /// - Parameter extraArguments: raw decoder options for this run; those that are per-grammar
    ///   settings (`SpeechRecognizer.searchOptionNames`) replace every grammar's own.
    /// - Parameter odds: the odds of the emergency and the quit words in every state, instead of
    ///   each state's own (`ListeningContext.wordOdds`), to calibrate them.
    /// - Parameter conditions: what the audio is like: telephone-band audio is heard with the
    ///   locale's narrowband means, unless a voice was learned (which replaces the model); noisy
    ///   audio with the noise taken out first (`AudioBackground`), and full-band noisy audio with
    ///   the locale's noisy room means (same proviso), but for what is said clearly over the room
    ///   (`SpeechRecognizer.Configuration.noiseLeftInAnswersFromDB`).
    /// - Parameter means: means to hear with instead of the band's, to measure them (`bench narrowband`).
    /// - Parameter frequencyScale: how much higher or lower the voice is heard (`VoiceScale`).
    /// - Parameter otherWordsHMMsPerFrame: the most HMMs a frame the other words' search keeps,
    ///   in every room, instead of the room's own (`otherWordsHMMsPerFrame(over:voiceLearned:)`),
    ///   to calibrate it; -1: no limit.
    public static func make(table: LocaleTable, resources: ResourceLocator, countries: [String] = [],
                            voice: AdaptedVoice? = nil, extraArguments: [String: String] = [:],
                            odds: WordOddsOverride = WordOddsOverride(), conditions: AudioConditions = AudioConditions(),
                            means: String? = nil, frequencyScale: Double = 1,
                            otherWordsHMMsPerFrame: Int? = nil) throws -> SpeechRecognizer {
        try make(table: table, resources: resources, countries: countries, voice: voice, extraArguments: extraArguments,
                 odds: odds, conditions: conditions, means: means, frequencyScale: frequencyScale,
                 otherWordsHMMsPerFrame: otherWordsHMMsPerFrame, listeningForCalls: false)
    }

    /// `make`; `listeningForCalls`: a quiet room's recognizer to hear a noisy room's utterances
    /// beside it for calls for help (`SpeechRecognizer.makeNoiseLeftIn`), which neither checks
    /// other words nor keeps audio. A noisy room's recognizer is given one to make.
    private static func make(table: LocaleTable, resources: ResourceLocator, countries: [String], voice: AdaptedVoice?,
                             extraArguments: [String: String], odds: WordOddsOverride, conditions: AudioConditions,
                             means: String?, frequencyScale: Double, otherWordsHMMsPerFrame: Int?,
                             listeningForCalls: Bool) throws -> SpeechRecognizer {
        var configuration = try Self.configuration(table: table, resources: resources)
        // A reading confirmed as it was heard is kept with its audio, to learn the voice from
        // (`ConfirmedSpeech`).
        configuration.keepsAudio = !listeningForCalls
        configuration.frequencyScale = frequencyScale
        configuration.extraArguments = extraArguments
        configuration.background = conditions.background
        endsOfSpeech(&configuration, table: table, background: conditions.background)
        if let voice {
            voice.apply(to: &configuration)
        } else {
            configuration.meansFile = means ?? localeMeans(for: conditions, table: table, resources: resources)
            // Means of a noisy room's own mishear clean speech: the model's do not.
            if let file = configuration.meansFile, file != modelMeans(table), conditions.background == .noisy {
                configuration.noiseLeftInAnswersFromDB = AudioBackground.quietFromDB
            }
        }
        func wordOdds(_ context: ListeningContext) -> [String: Double] {
            context.wordOdds(table, background: conditions.background, overriddenBy: odds)
        }
        // A grammar tried out with `bench recognition --grammar-file` is heard as in this state.
        configuration.wordOdds = wordOdds(.reading)
        let overrides = searchOverrides(extraArguments)
        func settings(_ context: ListeningContext) -> [String: Double] {
            context.searchOptions.merging(overrides) { _, run in run }
        }
        // The dialog's grammars use only words the locale table vouches for (a test checks them).
        // The reading grammar is given to init (the decoder needs one); the others are added.
        let mealAfterReadBack = readingsAnsweredAtOnce(table: table, background: conditions.background)
        let base = GrammarBuilder(table: table, hearsMealAfterReadBack: mealAfterReadBack)
        configuration.otherWords = otherWordsCheck(table: table, resources: resources, builder: base, conditions: conditions,
                                                   oddsPerPhone: odds.otherWordPerPhone ?? otherWordOddsPerPhone(table, voiceLearned: voice != nil,
                                                                                                              background: conditions.background))
        configuration.otherWords?.maxHMMsPerFrame = otherWordsHMMsPerFrame
            ?? Self.otherWordsHMMsPerFrame(over: conditions.background, voiceLearned: voice != nil)
        if listeningForCalls { configuration.otherWords = nil }
        let recognizer = try SpeechRecognizer(configuration, grammars: [ListeningContext.reading.rawValue: base.jsgf(for: .reading)])
        if settings(.reading) != [:] {
            try recognizer.addGrammar(name: ListeningContext.reading.rawValue, source: base.jsgf(for: .reading), searchOptions: settings(.reading))
        }
        // The question grammars name countries too; only those the recognizer can pronounce are
        // said (every one can be typed).
        let candidates = GrammarBuilder(table: table, countries: countries, hearsMealAfterReadBack: mealAfterReadBack)
        let pronounceable = Set(candidates.words.filter { recognizer.canPronounce($0) })
        let builder = GrammarBuilder(table: table, countries: countries, hearsMealAfterReadBack: mealAfterReadBack,
                                     isPronounceable: { pronounceable.contains($0) })
        let others = ListeningContext.grammarContexts.filter { $0 != .reading }
        for (context, source) in zip(others, builder.jsgf(for: others)) {
            try recognizer.addGrammar(name: context.rawValue, source: source, searchOptions: settings(context),
                                      wordOdds: wordOdds(context))
        }
        // Without a language model, a note is heard as what may be said instead of one, and typed.
        if let model = table.speech.languageModel, FileManager.default.isReadableFile(atPath: model) {
            try recognizer.addLanguageModel(name: ListeningContext.dictation.rawValue, path: model, searchOptions: settings(.dictation))
        } else {
            try recognizer.addGrammar(name: ListeningContext.dictation.rawValue, source: builder.jsgf(for: .dictation))
        }
        try recognizer.selectGrammar(ListeningContext.reading.rawValue)
        if conditions.background == .noisy, !listeningForCalls, let quiet = conditions.over(.quiet) {
            recognizer.makeNoiseLeftIn = {
                do {
                    // A quiet room's means: `means` may be a noisy room's (`bench recognition --noisy-room-means`).
                    return try make(table: table, resources: resources, countries: countries, voice: voice,
                                    extraArguments: extraArguments, odds: odds, conditions: quiet, means: nil,
                                    frequencyScale: frequencyScale, otherWordsHMMsPerFrame: otherWordsHMMsPerFrame,
                                    listeningForCalls: true)
                } catch {
                    Logger(label: "carevoice.recognition").warning("no recognizer to hear calls for help with the noise left in: \(error)")
                    return nil
                }
            }
        }
        return recognizer
    }

    /// The locale's odds per phone for the other words, with the person's voice learned or not
    /// (`speech.otherWordOddsPerPhoneWithVoice`).
    ///
    /// With a voice, calibrated with `bench enrollment --other-word-odds` on five voices learned
    /// from their enrollment phrases (`bench corpus --readings 100 --enrollment
    /// --held-out-unrelated`), by the rule of the odds without one: the highest that turned
    /// away none of the development readings heard right. English (`--seed 41`): readings 99
    /// of 100 at 0.07, 0.15 and 0.2, 98 at 0.25 and 0.3; unrelated speech turned away 71 of 80
    /// at 0, 77 at 0.07, 78 at 0.15, 79 at 0.2: 0.2. Five other voices (`--seed 45 --voices
    /// en-gb-scotland,en-029,en-us+grandpa,en-gb+grandma,en-us+m7`), 0.07 -> 0.2: readings
    /// 89 -> 87 of 100, turned away 79 -> 80 of 80. Chinese (`--locale zh-Hans --seed 33`):
    /// readings 97 at every odds up to 0.2, turned away 42 of 50 at 0, 45 at 0.04, 46 at 0.07 and
    /// beyond, so the lowest at the top, 0.07; five other voices (`--seed 37`), 0 -> 0.07:
    /// readings 96 -> 96, turned away 44 -> 48. Without a voice Chinese is not listened to;
    /// its 0.04 there (`bench recognition`) is the highest that kept the 42 of 60 development
    /// readings heard right (`--seed 33`; 41 at 0.05).
    ///
    /// In a noisy room (`AudioBackground.noisy`, heard with the noise taken out) with a voice,
    /// at the same odds: readings fit it well enough for the loop to stand beside them.
    /// `bench enrollment --noise pink --snr 10 --noise-around 1` (a background there a second
    /// before and after the words), readings and unrelated speech, with a voice, the check left
    /// out -> at 0.2: development voices (`--seed 41`) readings 98 -> 98 of 100 (0.3: 96),
    /// turned away 47 -> 70 of 80 (0.3: 72); five other voices (`--seed 45`) 88 -> 85 (0.1:
    /// 86), turned away 52 -> 75 (0.1: 70).
    ///
    /// Without a voice noise fits free words better than readings (`otherWordsCheck`), so there
    /// the odds are far lower (`speech.otherWordOddsPerPhoneInNoise`): the highest that took at
    /// most one development reading heard right. `bench recognition --noise pink --snr 10
    /// [--noise-around 1]` on readings and unrelated sentences, no check -> English 0.03:
    /// development (`--seed 41`) with the noise around, readings 72 -> 71 of 100, turned away
    /// 32 -> 35 of 80 (0.05: 69 and 44; 0.07: 65 and 59); starting with the words 75 -> 74, 52
    /// -> 55; five other voices (`--seed 45`) around 52 -> 52, 42 -> 49 (0.05: 48, 53); with the
    /// words 45 -> 45, 57 -> 58. Chinese 0.02 (`--seed 33`): around 40 -> 40, 5 -> 10 of 20
    /// (0.04: 38, 14); with the words 44 -> 44, 13 -> 14.
    static func otherWordOddsPerPhone(_ table: LocaleTable, voiceLearned: Bool, background: AudioBackground = .quiet) -> Double? {
        if voiceLearned { return table.speech.otherWordOddsPerPhoneWithVoice ?? table.speech.otherWordOddsPerPhone }
        return background == .noisy ? table.speech.otherWordOddsPerPhoneInNoise : table.speech.otherWordOddsPerPhone
    }

    /// The most HMMs a frame the other words' search keeps (`OtherWordsCheck.maxHMMsPerFrame`):
    /// in a noisy room without a learned voice 3000, elsewhere as many as the beams let through.
    ///
    /// In noise the other words were the recognizer's costliest search, 11925 HMMs a frame
    /// (the grammar's 2878), and the noisy room's recognizer, made while the first noisy
    /// utterance is said, was seconds behind the sound on a slow machine: the reply to a
    /// reading waited for it. With the noise taken out, `bench recognition --noise pink --snr 10
    /// --noise-around 1`, no voice, no limit -> 3000: English (`bench corpus --seed 41`, 100
    /// readings, 80 unrelated sentences) readings 78 -> 78, turned away 35 -> 36, processing
    /// 805 -> 571 s; Chinese (`--seed 33`, 100 and 20) 46 -> 46, 11 -> 12, 387 -> 302 s.
    /// With a learned voice the other words are heard at higher odds, and there it lost right
    /// readings to them: `bench enrollment` (the same, English, five voices each learned from
    /// their enrollment phrases) readings 99 -> 90, turned away 71 -> 71. In a quiet room,
    /// heard as the first words of a session, 3000 lost a development reading to the other
    /// words (85 -> 84; 2000: 82). So neither has a limit.
    public static func otherWordsHMMsPerFrame(over background: AudioBackground, voiceLearned: Bool) -> Int? {
        background == .noisy && !voiceLearned ? 3000 : nil
    }

    /// Where a reading or a command is awaited, the locale's other words (`OtherWordsCheck`)
    /// beside the reading grammar, and the grammar's own words spelled apart, so that the loop
    /// can say "forty" without taking the grammar's "forty". Nil when the locale has none, or
    /// the odds are 0 or none (`otherWordOddsPerPhone`); and over a telephone band (below).
    ///
    /// English `otherWordOddsPerPhone`, chosen with `carevoice bench recognition
    /// --other-word-odds` as the highest odds that turned away none of the development readings
    /// heard right (`bench corpus --readings 100 --seed 41`: 84 of 100 at 0, 0.03, 0.05
    /// and 0.07, 83 at 0.1). Readings heard right by five other voices (`--seed 45` and `--seed
    /// 43 --voices en-gb-scotland,en-029,en-us+grandpa,en-gb+grandma,en-us+m7`, 260 readings) and
    /// held-out unrelated sentences turned away (`--seed 71` and `--seed 73 ... --held-out-
    /// unrelated`, 120), at 0: 149 and 94; 0.03: 149 and 96; 0.05: 147 and 100; 0.07: 145 and
    /// 105; 0.1: 139 and 110. In pink noise at 10 dB, at 0.1, it took 11 of 100 development
    /// readings heard right (75 -> 64) and 11 of 200 others, all in recordings heard as noisy:
    /// noise fits free words better than readings, so without a learned voice a noisy room has
    /// odds of its own, far lower (`otherWordOddsPerPhone`). Over a telephone band it was not
    /// measured, and is left out. It costs a third decoder: the
    /// real-time factor went from 0.14 to 0.34, the final decode's p95 from 4 to 8 ms (ec41, a
    /// release build alone on two cores), start-up took 0.1-0.4 s longer and 50 MiB more.
    static func otherWordsCheck(table: LocaleTable, resources: ResourceLocator, builder: GrammarBuilder,
                                conditions: AudioConditions = AudioConditions(), oddsPerPhone: Double?) -> OtherWordsCheck? {
        guard conditions.band == .wide else { return nil }
        let common = resources.otherWords(for: table)
        if let file = table.speech.otherWords, common.isEmpty {
            Logger(label: "carevoice.recognition").warning("no other words in models/\(file): speech not meant for the assistant is judged by its fit alone")
        }
        guard let oddsPerPhone, oddsPerPhone > 0, !common.isEmpty else { return nil }
        let own = builder.words(for: .reading).sorted()
        var seen = Set<String>()
        let words = (common + own).filter { seen.insert($0).inserted }
        return OtherWordsCheck(grammar: ListeningContext.reading.rawValue, words: words, oddsPerPhone: oddsPerPhone) {
            builder.jsgf(for: .reading, besideOtherWords: $0)
        }
    }

    /// The locale's means for audio heard in these conditions, when it has them and they can be
    /// used: telephone-band audio's (`narrowbandMeans`), a noisy room's (`noisyRoomMeans`, full
    /// band); nil: the model's own. A missing or damaged file is logged and the model's own means
    /// are used (they hear such audio worse, but the assistant still listens).
    public static func localeMeans(for conditions: AudioConditions, table: LocaleTable, resources: ResourceLocator) -> String? {
        switch (conditions.band, conditions.background) {
        case (.narrow, _): return usableMeans(resources.narrowbandMeans(for: table), table: table, for: "narrowband", heard: "telephone-band audio")
        case (.wide, .noisy): return usableMeans(resources.noisyRoomMeans(for: table), table: table, for: "noisy room's", heard: "a noisy room")
        case (.wide, .quiet): return nil
        }
    }

    /// The acoustic model's own means file.
    public static func modelMeans(_ table: LocaleTable) -> String {
        table.speech.acousticModel + "/means"
    }

    /// The locale's means for telephone-band audio (`localeMeans`).
    static func narrowbandMeans(table: LocaleTable, resources: ResourceLocator) -> String? {
        localeMeans(for: AudioConditions(band: .narrow), table: table, resources: resources)
    }

    private static func usableMeans(_ url: URL?, table: LocaleTable, for kind: String, heard audio: String) -> String? {
        guard let url else { return nil }
        let logger = Logger(label: "carevoice.recognition")
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            logger.warning("no \(kind) means at \(url.path): \(audio) is heard with the model's own")
            return nil
        }
        do { try GaussianMeans.fit(url.path, model: modelMeans(table)) } catch {
            logger.warning("the \(kind) means at \(url.path) cannot be used (\(error)): \(audio) is heard with the model's own")
            return nil
        }
        return url.path
    }

    /// The locale's acoustic model, dictionary and extra words, measuring every utterance's fit
    /// (rejection needs it): what every recognizer of ours starts from.
    /// A language the acoustic model was not trained on (Chinese) has its words spelled in the
    /// model's phones through its pinyin (`PinyinPhones`).
    public static func configuration(table: LocaleTable, resources: ResourceLocator) throws -> SpeechRecognizer.Configuration {
        var configuration = SpeechRecognizer.Configuration()
        configuration.modelDirectory = table.speech.acousticModel
        configuration.dictionary = table.speech.dictionary
        configuration.extraWords = resources.extraPronunciations(for: table)
        if let speller = try resources.pinyinSpeller(for: table), let folder = table.speech.pinyinTables {
            let phones = try PinyinPhones.load(from: resources.modelsDirectory.appendingPathComponent(folder))
            configuration.pronounce = { phones.pronunciation(of: $0, speller: speller) }
        }
        configuration.measuresFit = true
        configuration.isCallForHelp = { [acceptance = SpeechAcceptance(table: table)] in acceptance.isCallForHelp($0) }
        // A sentence is answered after a short pause only when it is sure what was said, and
        // nothing can follow it, or what may follow does not change it (or, in a quiet room,
        // can be said after the reply: `endsOfSpeech`).
        configuration.earlyEndMinimumFit = SpeechAcceptance.confidentFit
        endsOfSpeech(&configuration, table: table, background: .quiet)
        return configuration
    }

    /// What a short pause (`SpeechRecognizer.Configuration.earlyEndSilence`, 0.2 s) ends over
    /// this background. In a quiet room (in English), a reading whose number is whole too, so
    /// that it is read back at once; its unit or meal may come after
    /// (`Intent.canBeAnsweredAtOnce`). In noise the
    /// detector hears short pauses inside words, so there only what more words cannot change
    /// ends early: with readings ended early there too (and a 0.15 s pause), `bench recognition`
    /// at 10 dB pink heard 45 of 100 development readings right instead of 74 ("blood sugar
    /// fifteen millimoles" | "thirty two before dinner"), 18 of 60 held-out ones instead of 35.
    /// A quiet room's recognizer hears the first words said in a noisy one (the microphone swaps
    /// only after an utterance): an utterance there that sounds noisy so far ends early by the
    /// noisy room's rule (`answersAtOnceOverNoise`). `bench loop --count 100 --seed 5 --noise
    /// pink --snr 10`, every session heard so: 44 of 100 readings cut in two without it, none
    /// with it; saved exactly right 24 -> 37.
    ///
    /// There a reading ends after a shorter pause still (`readingEndSilence`), so that its
    /// read-back comes sooner. Chinese readings keep 0.2 s (with 0.15 s, zc33 heard 70 of 100
    /// right instead of 73), and so does a noisy room (with every early end at 0.15 s in every
    /// room, ec41 at 10 dB pink heard 114 of 159 right instead of 121, hp45 137 of 259, not 151).
    ///
    /// In noise a Chinese reading ends only after a longer pause (`speech.readingEndPauseInNoise`,
    /// 0.3 s): its meal's last syllable decides it (运动后, 运动前), and a reading ended at a pause
    /// the noise made inside that word left the syllable to be heard as a word of its own.
    /// `bench loop --locale zh-Hans --voices cmn-latn-pinyin --count 50 --seed 5 --noise pink
    /// --snr 10` (a learned voice): such words in 9 of 50 sessions (不对 ×4, 急救 ×2, 救命, 不要,
    /// 再见) -> none, saved exactly right 37 -> 41 (0.25 s left 5; 0.4 s saved 41 too). `bench
    /// recognition` on ze33 at 10 dB, noise around: readings 67 -> 74 of 100. English gained
    /// nothing (every early end in noise at 0.25 or 0.3 s: 71 of 100 saved -> 68, 69). Tried
    /// again on 2026-12-07, every English early end in noise at 0.3 s (a trial build), pink at
    /// 10 dB: `bench recognition --noise-around 1` heard more (readings ec41 77 -> 80, ec45
    /// 56 -> 60 of 100; unrelated speech turned away 38 -> 38, 49 -> 51 of 80; commands the same;
    /// 340 yes/no answers 266 -> 268, heard as two utterances 6 -> 3; calls for help em61 + em62
    /// 204 -> 204 of 210), but `bench loop --count 60 --seed 5 --noise pink --snr 10` saved 40
    /// -> 39, and every answer waited the 0.1 s more (replies to answers median 225 -> 325 ms,
    /// readings 284 -> 365 ms). Two yeses after readings heard right fitted -18.1 and -17.9,
    /// under the yes floor (`SpeechAcceptance.confidentYesFit`), and were asked again; ended at
    /// 0.2 s they had been taken.
    ///
    /// An English reading that ends "before bed" waits that pause in noise
    /// (`speech.readingEndsWaitingInNoise`): up to the pause the noise makes inside "breakfast"
    /// (its k), "before breakfast" sounds like it, and in slow speech was ended there, the rest
    /// heard as a word of its own ("... before bed" | "help"). `bench recognition --noise pink
    /// --snr 10 --noise-around 1`, readings before -> after: ec41 91 -> 92 of 100, dv91 (five
    /// voices in no other tuning: en-us-nyc, en-gb-x-gbclan, en-gb-x-gbcwmd, en-us+f2, en-gb+m5;
    /// `bench corpus --readings 150 --seed 91`) 112 -> 115 of 150, ec45 64 -> 67 of 100; each
    /// gain a "before breakfast" (or "after breakfast") heard as "before bed", no reading lost;
    /// commands heard as before, unrelated sentences turned away 66 -> 66 of 80 (one each way),
    /// 14 -> 14 of 20 and 64 -> 65 of 80. Every reading waiting 0.3 s gained no more on dv91.
    /// 0.3 s is not always enough: ec45's "sugar twelve point seven millimoles per litre before
    /// breakfast" (en-us+m7, 124 words a minute) in 8 draws of that noise (`NoiseMixer` seeds
    /// 1-8) was ended at "before bed" in all 8 at 0.2 s, and still in 2 at 0.3 s.
    static func endsOfSpeech(_ configuration: inout SpeechRecognizer.Configuration, table: LocaleTable,
                             background: AudioBackground) {
        let parser = UtteranceParser(table: table)
        let isReading: @Sendable (String) -> Bool = { if case .glucose = parser.parse($0) { return true } else { return false } }
        if readingsAnsweredAtOnce(table: table, background: background) {
            configuration.answersAtOnce = { parser.parse($0).canBeAnsweredAtOnce }
            configuration.shortestEndSilence = readingEndSilence
            configuration.endsAtShortestPause = isReading
            configuration.answersAtOnceOverNoise = { parser.parse($0).meansTheSameWhateverFollows }
        } else {
            configuration.answersAtOnce = { parser.parse($0).meansTheSameWhateverFollows }
            configuration.shortestEndSilence = nil
            configuration.endsAtShortestPause = nil
            configuration.answersAtOnceOverNoise = nil
        }
        configuration.longerEndSilenceOverNoise = table.speech.readingEndPauseInNoise
        let endings = table.speech.readingEndsWaitingInNoise
        let waits: @Sendable (String) -> Bool = { words in
            guard isReading(words) else { return false }
            guard let endings else { return true }
            return endings.contains { RecognizerFactory.words(words, endWith: $0) }
        }
        configuration.waitsLongerOverNoise = table.speech.readingEndPauseInNoise == nil ? nil : waits
    }

    /// Whether the words end with this phrase, word for word ("... before bed", not "... bedtime").
    static func words(_ words: String, endWith phrase: String) -> Bool {
        let said = words.lowercased().split(separator: " "), ending = phrase.lowercased().split(separator: " ")
        return !ending.isEmpty && said.suffix(ending.count).elementsEqual(ending)
    }

    /// The pause, in seconds, that ends a reading where readings are answered at once, so that
    /// its read-back starts within a quarter of a second of the speech's end (`bench loop
    /// --count 100 --seed 5`: p95 236 ms, 254 ms with 0.2 s). Only readings: with every early
    /// end at 0.15 s, calls for help in 5 dB pink noise (em61, eh63) were heard 205 times of 210
    /// instead of 208 ("help | me" cut in two).
    static let readingEndSilence = 0.15

    /// Where a reading is answered at the first pause, and so its meal heard after the
    /// read-back: in a quiet room, in a language that does so (`speech.mealAfterReadBack`).
    static func readingsAnsweredAtOnce(table: LocaleTable, background: AudioBackground) -> Bool {
        background == .quiet && table.speech.mealAfterReadBack
    }

    /// The words the recognizer favours so that a call for help is not missed: the first word of
    /// each emergency phrase ("help", "call" of "call an ambulance"), a word no other phrase of
    /// the grammars has (a test checks), so that only calls for help are tilted.
    public static func emergencyWords(_ table: LocaleTable) -> Set<String> {
        firstWords(table.spokenCallsForHelp)
    }

    /// The words that end the conversation ("goodbye"), which the recognizer hears less readily
    /// where something waits for an answer (`ListeningContext.quitOdds`).
    public static func quitWords(_ table: LocaleTable) -> Set<String> {
        firstWords(table.commands["quit"] ?? [])
    }

    /// The words a reading's unit or meal said alone starts with ("before" of "before
    /// breakfast", 午饭后), which the recognizer hears less readily where an answer is awaited
    /// (`ListeningContext.mealOdds`).
    public static func mealWords(_ table: LocaleTable) -> Set<String> {
        firstWords(GlucoseUnit.allCases.flatMap { table.phrases(for: $0).say } + MealTag.allCases.flatMap { table.phrases(for: $0).say })
    }

    private static func firstWords(_ phrases: [String]) -> Set<String> {
        Set(phrases.compactMap { $0.split(separator: " ").first.map(String.init) })
    }

    /// The raw decoder options that are per-grammar settings, as numbers.
    public static func searchOverrides(_ extraArguments: [String: String]) -> [String: Double] {
        extraArguments.compactMapValues(Double.init).filter { SpeechRecognizer.searchOptionNames.contains($0.key) }
    }
}

extension ListeningContext {
    /// Decoder settings tuned for this state's grammar, on development data only (`carevoice
    /// bench recognition`); a setting that helps one grammar can hurt another.
    var searchOptions: [String: Double] {
        switch self {
        // A digit sequence is a loop: without a stiff insertion penalty "four" came out as
        // "four oh". FSDD digits (100-file subset), phone-number grammar: 43 % -> 60 % with 1e-4
        // (1e-5 to 1e-8 within a point; 1e-12 deleted digits).
        case .question(.contactPhone): return ["-wip": 1e-4]
        // A general language model of 130 000 words with the grammars' wide beams took 12-16 s
        // per note in a release build; pocketsphinx's own beams (these) keep it near real time.
        case .dictation: return ["-beam": 1e-48, "-pbeam": 1e-48, "-wbeam": 7e-29]
        default: return [:]
        }
    }

    /// The odds of words in this state's grammar (`SpeechRecognizer.Configuration.wordOdds`):
    /// the emergency words' (the locale table's `speech.emergencyOdds`, in every state), the
    /// quit words' (`quitOdds`), and where an answer is awaited a meal's (`mealOdds`).
    ///
    /// English `emergencyOdds`, calibrated with `carevoice bench recognition --emergency-odds` on
    /// 96 synthetic calls for help (4 phrases, 8 espeak-ng voices, 3 rates) and 160 answers (10
    /// of them, 8 voices, 2 rates), and checked on 48 calls and 96 answers said by 6 voices used
    /// in no calibration; a false alarm costs the emergency help read out and the question
    /// asked again, a missed call for help can cost a life.
    /// - Where a yes or no is awaited, "no", "nope" and "stop" sound like a lone "help". Calls
    ///   heard (clean, at 10 dB pink noise), answers heard right and heard as a call for help:
    ///   odds 100: 94 and 95 of 96; 151 and 135 of 160 right, 4 and 16 heard as help; the new
    ///   voices' calls 47 and 46 of 48. Odds 300: 94 and 95; 150 and 133. Odds 1000: 96 and 96;
    ///   150 and 129 right, 5 and 22 heard as help; the new voices' calls 48 and 47, their
    ///   answers 87 and 73 of 96 right (89 and 72 before silence was filled under the speech).
    /// - Waiting for a reading or a command, calls heard (clean, at 10 dB) and which of 159
    ///   readings, commands and unrelated sentences were heard as a call: odds 300: 92 and 93;
    ///   1000: 93 and 94, none of the 159. The misses are a lone "help" heard as "add a note",
    ///   "new note" or "two", all but one of them turned away.
    /// - With the noise there a second before and after each recording (`--noise-around 1`, as in
    ///   a room), at 10 dB: the `--emergency-rounds 4` corpora of seeds 61 and 62 (210 calls, 42
    ///   of them a lone "help") and 190 yes/no answers (10 voices x the 19 phrasings), calls heard
    ///   and answers heard as a call, with "help" alone at other odds (`--emergency-word-odds`):
    ///   1000: 201 and 10 (en-029's and en-gb+grandma's lone "help" heard as "save", "sure" or
    ///   "pardon", all 9 of theirs); 3000: 203 and 13; 10 000: 204 and 19. 3000 was tried and left:
    ///   it also turned en-us's "stop" at 10 dB into "help" (`anAnswerInNoiseIsNotHeardAsGoodbye`).
    /// - A lone "ambulance" has the grammar's own odds (`speech.emergencyWordOdds`): at 1000, 7
    ///   of those 10 answers heard as a call were "correct" or "incorrect" heard as "ambulance".
    ///   At 1, calls heard stay 201 of 210 (it needs no help: three syllables), answers heard as a
    ///   call 10 -> 6, the corpora's other utterances 6 -> 5 of 108; clean, calls 208 -> 208 and
    ///   utterances heard as a call 6 -> 4 of 298.
    ///   "Emergency" and "call" at 1 too lost a call and let one more false alarm through.
    ///
    /// In a noisy room a reading's own words too (`speech.readingWordOddsInNoise`).
    func wordOdds(_ table: LocaleTable, background: AudioBackground = .quiet,
                  overriddenBy override: WordOddsOverride = WordOddsOverride()) -> [String: Double] {
        var odds: [String: Double] = [:]
        if self == .reading, background == .noisy {
            odds.merge(table.speech.readingWordOddsInNoise ?? [:]) { _, inNoise in inNoise }
            odds.merge(override.readingInNoiseByWord) { _, tried in tried }
        }
        if self == .answer {
            for word in RecognizerFactory.mealWords(table) { odds[word] = Self.mealOdds }
        }
        for word in RecognizerFactory.quitWords(table) { odds[word] = override.quit ?? quitOdds }
        for word in RecognizerFactory.emergencyWords(table) {
            odds[word] = override.emergencyByWord[word] ?? override.emergency
                ?? table.speech.emergencyWordOdds?[word] ?? table.speech.emergencyOdds
        }
        return odds
    }

    /// How likely, compared with the grammar alone, a reading's unit or meal said alone is heard
    /// where an answer is awaited (`RecognizerFactory.mealWords`): it is said there only when the
    /// read-back came before it. At 10 dB pink noise, with the odds of the grammar alone, a
    /// Chinese call for help (帮助) was heard as 午饭后 (`bench recognition` on zc33); with 1/10 it
    /// is heard, and a meal said clearly after the read-back still is (EarlyAnswerTests).
    static let mealOdds = 1.0 / 10

    /// How likely, compared with the grammar alone, the quit words ("goodbye") are heard in this
    /// state. Where an answer is awaited, in noise, short answers were heard as "bye" and ended
    /// the conversation, dropping what waited for its yes (or, setting up, every answer).
    /// Waiting for something new, "goodbye" is how a person leaves, and is heard as said.
    var quitOdds: Double {
        switch self {
        case .reading: return 1
        default: return Self.answeringQuitOdds
        }
    }

    /// 64 quit words (goodbye, bye, quit, exit; 8 espeak-ng voices, 2 rates) heard as one where
    /// an answer is awaited, clean and at 10 dB pink noise, and the 160 answers of `wordOdds`
    /// heard as one at 10 dB (none clean at any odds), measured while silence was filled at
    /// -75 dBFS: odds 1: 50, 44 and 19; 1/10: 46, 36, 14; 1/30: 44, 34, 13; 1/100: 43, 32, 9.
    /// The goodbyes missed at 1/100 were heard as a correction ("exit" as "glucose was eight"),
    /// a refusal or "pardon", never as a yes: each is asked about again, where an answer heard
    /// as "bye" ended the session.
    static let answeringQuitOdds = 1.0 / 100

    /// The grammar fit below which an utterance heard in this state is turned away as not meant
    /// for the assistant (`SpeechAcceptance`). Calibrated with `carevoice bench recognition
    /// --details --minimum-fit` on development data, with silence filled under the speech
    /// (`NoiseFloor.belowSpeech`), which raised fits:
    /// - Waiting for a reading or a command (`bench corpus --readings 100 --seed 41`: 100
    ///   readings, 39 commands, 20 unrelated sentences): -27 turns away 17 of the 20 clean and
    ///   5 at 10 dB pink noise, and none of the readings and commands heard right (the lowest
    ///   -22.4); -33 turned away 10 and 0. Words heard as a reading have a floor of their own
    ///   (`minimumFit(for:)`).
    /// - Waiting for an answer (160 answers, 10 of them said by 8 espeak-ng voices): answers heard
    ///   right fit as low as -32 at 10 dB, so -33 stays; -27 would have asked 2 of them again, and
    ///   3 of 96 said by voices used in no calibration.
    /// A grammar's own settings move its fits. In the phone-number question (FSDD, each speaker
    /// heard with narrowband means learned without them; `bench enrollment --details`, 80 digits
    /// a speaker) real digits heard right fit as low as -67 (246 of 320), and -100 with a voice
    /// learned from 20 more (308 of 320). -56, where right digits fitted to -55 with the model's
    /// own means, turned away 7 and 11 of them (2.8 and 3.6 %: george 76, jackson 79, nicolas 71,
    /// yweweler 71 of 80 right with a voice); -70 turns away none and 4 (78, 79, 72, 75).
    /// What it costs: of 80 unrelated sentences heard in this question (the 20 of the corpus
    /// above and of `--readings 60 --seed 43 --voices en-gb-scotland,en-029,en-us+grandpa,
    /// en-gb+grandma,en-us+m7`, each at full band and resampled to 8 kHz), -70 turns away 15
    /// where -56 turned away 24. Here a fit tells little: unrelated words come out as a digit or
    /// two, which fit like digits; the question refuses fewer than 5 digits as a phone number,
    /// and reads a number back for a yes before it is saved.
    public var minimumFit: Double {
        switch self {
        case .question(.contactPhone): return -70
        // Free words fit any sound somehow; what was heard is shown for correction instead.
        case .dictation: return -.infinity
        case .reading: return -27
        default: return -33
        }
    }
}

extension ListeningContext {
    /// The floor for words that mean `intent` (`minimumFit`, except for a reading heard where
    /// the assistant waits for one). Unrelated speech is forced onto the reading grammar's wide
    /// paths of numbers: at 10 dB pink noise, every unrelated sentence still taken with fits from
    /// -27 to -25 was heard as a reading ("glucose was twelve", "ten point seven"), while right
    /// readings stayed above -22.4 (`bench corpus --readings 100 --seed 41`, its noise taken out:
    /// `AudioBackground`). A floor of -25 for readings turns away more of the 20 unrelated
    /// sentences, clean 16 -> 17, at 10 dB 10 -> 14, and none of the readings heard right.
    /// Checked on data used in no calibration, it turned away none of the readings heard right
    /// (70 said by five other voices, `--seed 43`, the lowest -24.3; 116 in Chinese; 324 real
    /// FSDD digits heard in this grammar, the lowest -19.1), and more unrelated sentences: the
    /// other voices' 18 -> 18 clean and 12 -> 15 at 10 dB; Chinese 9 -> 12 and 10 -> 12; those of
    /// the calls-for-help corpora (`--emergency-rounds 4 --seed 61` and 62) 15 -> 17, 16 -> 18
    /// clean and 10 -> 14, 10 -> 14 at 10 dB. -24 turned away one of the other voices' readings.
    /// Commands keep -27: of 120 commands of this state said by espeak-ng (30, each by two of the
    /// five development voices and two of five others; 97 heard exactly), -25 would have turned
    /// away 7 clean, -27 turns away 2; at 10 dB 2 and 1 of 87.
    ///
    /// "Forget my voice" has the floor of an answer (-33) wherever it is heard: it is most needed
    /// when the learned voice hears the person poorly, and then its words fit poorly too (a real
    /// speaker's voice, FSDD jackson, heard it from espeak-ng at -27.7 to -30.7, depending on the
    /// faint noise under it: `LiveMicrophoneTests`). Nothing is forgotten before a yes. Of the
    /// unrelated sentences of every corpus above, one was heard as it, at -47.
    ///
    /// Heard in a noisy room, with the noise taken out (`AudioBackground.noisy`), words heard as
    /// a reading where one is awaited fit better, the right ones and the unrelated alike, and
    /// have a floor of their own, `noisyRoomReadingFit`.
    public func minimumFit(for intent: Intent, heardOver background: AudioBackground = .quiet) -> Double {
        if case .glucose = intent, self == .reading { return background == .noisy ? Self.noisyRoomReadingFit : -25 }
        if case .forgetVoice = intent { return min(minimumFit, Self.answer.minimumFit) }
        return minimumFit
    }

    /// The floor for words heard as a reading, where one is awaited, in a noisy room
    /// (`minimumFit(for:heardOver:)`). There the decoders hear the room before the words, and
    /// its noise is taken out: readings heard right fitted -21.4 and up, in every condition
    /// measured, and the unrelated sentences heard as a reading -25 to -13.9 (ec41, pink 10 dB), so
    /// that -25 turned away few of them. `bench recognition --details --noise pink --snr S --noise-around 1`
    /// (every recording heard as a noisy room's), readings heard right and unrelated sentences
    /// turned away, at -25 -> -22 (measured at 10 dB pink; elsewhere counted from the fits):
    /// - development voices (`bench corpus --readings 100 --seed 41`, with the held-out
    ///   unrelated sentences: 80), pink 10 dB: 91 -> 91 of 100, 51 -> 66 of 80; pink 5 dB:
    ///   73 -> 73, 44 -> 59; pink 15 dB 79 -> 79, 65 -> 70; white 10 dB 83 -> 83, 56 -> 69
    ///   (-21 turned away the reading at -21.3, at 15 dB; -20 one more, in white noise);
    /// - voices used in no calibration (`--seed 45`), pink 10 dB: 64 -> 64, 52 -> 64 (-21: 63
    ///   readings);
    /// - the calls-for-help corpora's 40 unrelated sentences: 28 -> 31; Chinese (`--locale
    ///   zh-Hans --seed 33`), readings heard right fitted -16.2 and up (47), and the unrelated
    ///   sentences heard as one -21.8 and -20.9: 16 of 20 turned away either way;
    /// - with a learned voice (`bench enrollment` on the `--enrollment` sets of seeds 41 and
    ///   45, pink 10 dB) readings heard right fitted -12.4 and up (97 of 100) and -15.9 and up
    ///   (86).
    /// Raising the other words' odds in noise instead (`speech.otherWordOddsPerPhoneInNoise`
    /// 0.03 -> 0.05) turned away 60 of the development voices' 80 and lost a reading; with
    /// this floor as well, 67.
    static let noisyRoomReadingFit = -22.0
}

/// Odds for the emergency and the quit words in every state, instead of each state's own, to
/// calibrate them (`carevoice bench recognition --emergency-odds --quit-odds`).
public struct WordOddsOverride: Sendable {
    /// Every emergency word's odds instead of the locale's.
    public var emergency: Double?
    /// These emergency words' odds instead of the locale's or `emergency` (word: odds).
    public var emergencyByWord: [String: Double]
    public var quit: Double?
    /// The other words' odds per phone instead of the locale's (`OtherWordsCheck`); 0: no
    /// other words.
    public var otherWordPerPhone: Double?
    /// These words' odds in a noisy room's readings instead of the locale's
    /// (`speech.readingWordOddsInNoise`; word: odds, 1 for the grammar's own).
    public var readingInNoiseByWord: [String: Double]
    public init(emergency: Double? = nil, emergencyByWord: [String: Double] = [:], quit: Double? = nil,
                otherWordPerPhone: Double? = nil, readingInNoiseByWord: [String: Double] = [:]) {
        self.emergency = emergency
        self.emergencyByWord = emergencyByWord
        self.quit = quit
        self.otherWordPerPhone = otherWordPerPhone
        self.readingInNoiseByWord = readingInNoiseByWord
    }
}

/// Whether a recognised utterance is meant for the assistant. The recognizer forces whatever it
/// hears onto the grammar of the moment, so an unrelated sentence comes out as some reading or
/// command; its grammar fit (`RecognitionResult.grammarFit`) tells them apart. Pure: thresholds
/// and parser only.
public struct SpeechAcceptance: Sendable {
    /// Below this fit an utterance is taken as not meant for the assistant (nil: each state's
    /// calibrated floor, `ListeningContext.minimumFit`).
    public var minimumFit: Double?
    /// The same for emergency words, in every state: far looser, because a false alarm costs
    /// one spoken question and a missed one can cost a life.
    public var minimumEmergencyFit: Double
    /// Every reading is read back as a guess, however well it fits (`speech.guessesReadings`).
    public var guessesReadings: Bool
    private let parser: UtteranceParser

    /// The 437 calls for help heard as one in the synthetic corpora of
    /// `ListeningContext.minimumFit(for:)`, clean and at 10 dB pink noise (`bench recognition
    /// --details`; 420 of them from `--emergency-rounds 4 --seed 61` and 62), fitted from -71.3
    /// up; the 24 other utterances heard as a call fitted -63.7 to -9.8. A fit does not tell a
    /// false alarm from a call, so this floor only turns away what fits worse than any call did.
    /// -60 turned away the call at -71.3 (en-gb+grandma's "help" after other voices' words; -40.3
    /// said alone); -75 takes it, and one more false alarm ("yes" in noise heard as "help me").
    public static let calibratedMinimumEmergencyFit = -75.0

    public init(table: LocaleTable, minimumFit: Double? = nil,
                minimumEmergencyFit: Double = Self.calibratedMinimumEmergencyFit) {
        self.minimumFit = minimumFit
        self.minimumEmergencyFit = minimumEmergencyFit
        guessesReadings = table.speech.guessesReadings
        parser = UtteranceParser(table: table)
    }

    public enum Verdict: Sendable, Equatable {
        /// Taken as said.
        case confident
        /// Taken, but read back as a guess, digit by digit.
        case unsure
        /// A yes that may have been a no: asked again, nothing done.
        case doubtfulYes
        /// Not meant for the assistant: "I didn't catch that".
        case notMeant
    }

    /// Below this fit words are taken, but read back as a guess. On 60 synthetic readings
    /// (`bench corpus --readings 60 --seed 11`, then `bench recognition --details`) -20 made
    /// guesses of 7 of the 13 misheard and 15 of the 46 heard right; -15: 10 and 27; -22: 5 and 12.
    public static let confidentFit = -20.0

    /// Below this fit a yes may have been a no. On 64 + 48 synthetic yes/yep/no/nope (14
    /// espeak-ng voices, clean and in pink noise at 10 dB; `bench recognition --details`), 110
    /// yeses were heard as a yes with fits from -20.0 up, and 10 refusals heard as a yes had
    /// -29.9 to -10.5: -17 catches 9 of those 10 and asks 1 of the 110 yeses again.
    public static let confidentYesFit = -17.0

    /// A yes whose sound was loud for less than this, in seconds (`RecognitionResult.loudSeconds`),
    /// may have been a no, however well it fits: too short for a yes said whole, it is the
    /// burst of an answer cut in two. 190 yes and no answers (the locale's twelve yeses and
    /// seven noes, ten espeak-ng voices) in pink noise 10 dB under them (`bench recognition
    /// --noise pink --snr 10 --noise-around 1 --details`) had five utterances that short
    /// (their swing unmeasured), each the first of an answer heard as two: four refusals heard
    /// as a yes ("incorrect" as "save" twice and as "yeah", "don't save" as "sure"), fitting
    /// -8.6 to 16.2, and "okay" heard as "right". Every other yes or no heard was loud longer.
    public static let shortestConfidentYes = 0.1

    /// Words whose sound swings less than this, in dB (`RecognitionResult.loudnessSwing`), were
    /// forced onto a steady noise, not said: turned away in every state, calls for help too.
    /// With pink noise that was there a second before synthetic recordings (`bench recognition
    /// --noise pink --snr 10 --noise-around 1 --details`, ec41 and hp45), 105 utterances swung
    /// 1.1-1.8 dB: the noise alone, heard as "bye" 72 times, "help" 29, "two" 3, "eight" 1;
    /// 66 of them fitted above the floors. Words heard right swung 3.0 dB and up (real FSDD
    /// digits, the lowest), calls for help in pink noise at 5 dB 4.5 and up (em61, eh63).
    public static let minimumLoudnessSwing = 2.4

    /// How far the words fit the audio, in the state they were heard in. Words heard in a steady
    /// noise are turned away first, whatever they are (`minimumLoudnessSwing`). Emergency words
    /// are never doubted: help is given first. Without a measured fit the words stand.
    public func verdict(_ result: RecognitionResult, in context: ListeningContext) -> Verdict {
        if let swing = result.loudnessSwing, swing < Self.minimumLoudnessSwing { return .notMeant }
        guard !result.text.isEmpty else { return .confident }
        let intent = parser.parse(result.text)
        let emergency = intent == .emergency
        // A reading that other words explained better was not said (`OtherWordsCheck`): unrelated
        // speech is forced onto the reading grammar's wide paths of numbers, and caught there.
        // Commands keep their own floor: other words explained 7 of 120 commands said by six
        // espeak-ng voices ("undo", "goodbye", four of en-029's) that were taken on their fit,
        // and every held-out unrelated sentence they caught had been heard as a reading.
        if result.otherWords != nil, case .glucose = intent { return .notMeant }
        guard let fit = result.grammarFit else { return .confident }
        guard fit >= (emergency ? minimumEmergencyFit : (minimumFit ?? context.minimumFit(for: intent, heardOver: result.heardOver))) else { return .notMeant }
        if intent == .answer(.yes) && (fit < Self.confidentYesFit || (result.loudSeconds ?? .infinity) < Self.shortestConfidentYes) {
            return .doubtfulYes
        }
        return (fit < Self.confidentFit || guessesReadings) && !emergency ? .unsure : .confident
    }

    /// Whether the words are a call for help to answer: an emergency phrase not turned away.
    public func isCallForHelp(_ result: RecognitionResult) -> Bool {
        parser.parse(result.text) == .emergency && verdict(result, in: .reading) != .notMeant
    }

    /// What the dialog is told was said: the transcript, or "" (speech it did not catch).
    public func transcript(_ result: RecognitionResult, in context: ListeningContext) -> String {
        verdict(result, in: context) == .notMeant ? "" : result.text
    }

    /// The same as the event the dialog receives.
    public func event(_ result: RecognitionResult, in context: ListeningContext) -> DialogEvent {
        switch verdict(result, in: context) {
        case .confident: return .heard(result.text)
        case .unsure: return .heardUnsure(result.text)
        case .doubtfulYes: return .heardDoubtfulYes(result.text)
        case .notMeant: return .heard("")
        }
    }
}

extension RecognitionResult {
    /// What was heard and how it measured, for the debug log.
    var logged: String {
        "heard \(text) (fit \(grammarFit ?? .nan), \(signalToNoise ?? .nan) dB above the background, swing \(loudnessSwing ?? .nan) dB"
            + (otherWords.map { ", other words \($0)" } ?? "") + (heardOver == .noisy ? ", noise taken out" : "") + ", \(hearing.rawValue))"
    }
}
