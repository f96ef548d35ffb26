import CareLanguage
import CareTestSupport
import Foundation
import Testing
@testable import CareAssistant
@testable import CareSpeech

/// Where the assistant waits for a reading or a command, the recognizer also hears common words
/// beside the grammar (`OtherWordsCheck`): a sentence they explain better is turned away, not
/// forced onto a reading. Heard with the assistant's own recognizer, on espeak-ng's speech.
@Suite(.serialized) struct OtherWordsTests {
    /// The assistant's recognizer, and the cepstral mean it learned from three readings, where
    /// every test starts its session.
    static let warmed = Result {
        let recognizer = try RecognizerFactory.make(table: english, resources: ChineseRecognizerTests.resources)
        let reading = try SpokenFixtures.say("my blood sugar is six point five millimoles per litre before breakfast")
        recognizer.run(PCMAudio(samples: reading.samples + reading.samples + reading.samples, sampleRate: reading.sampleRate)) { _ in }
        return (recognizer: recognizer, mean: try #require(recognizer.learnedMean))
    }
    let acceptance = SpeechAcceptance(table: english)

    func heard(_ sentence: String, in context: ListeningContext = .reading) throws -> [RecognitionResult] {
        let warmed = try Self.warmed.get()
        warmed.recognizer.beginSession(startingMean: warmed.mean)
        try warmed.recognizer.selectGrammar(context.rawValue)
        var results: [RecognitionResult] = []
        warmed.recognizer.run(try SpokenFixtures.session([sentence])) { results.append($0) }
        return results
    }

    /// Sentences the grammar heard as readings that fit well enough to be taken ("my six hundred
    /// and two milligrams"): the other words turn them away.
    @Test(arguments: ["my sister has two dogs", "he ran four miles"])
    func speechNotMeantForTheAssistantIsHeardAsOtherWords(_ sentence: String) throws {
        let results = try heard(sentence)
        #expect(!results.isEmpty)
        for result in results {
            #expect(result.otherWords != nil, "\(result.text)")
            #expect(acceptance.verdict(result, in: .reading) == .notMeant, "\(result.text)")
        }
        let takenWithoutThem = results.filter { result in
            var unchecked = result
            unchecked.otherWords = nil
            return acceptance.verdict(unchecked, in: .reading) != .notMeant
        }
        #expect(!takenWithoutThem.isEmpty, "\(results.map { ($0.text, $0.grammarFit ?? 0) })")
    }

    /// Most unrelated speech fits the grammar poorly too: turned away either way.
    @Test func aSentenceOfOtherWordsIsTurnedAway() throws {
        let results = try heard("the children are playing in the garden")
        #expect(!results.isEmpty && results.allSatisfy { acceptance.verdict($0, in: .reading) == .notMeant })
    }

    @Test(arguments: ["glucose six point five before breakfast", "my blood sugar is one hundred and twenty",
                      "add a note", "help me"])
    func readingsCommandsAndCallsForHelpAreHeardAsSaid(_ sentence: String) throws {
        let results = try heard(sentence)
        #expect(EarlyAnswerTests.heardAsSaid(results.map(\.text), sentence), "\(results.map(\.text))")
        #expect(results.allSatisfy { $0.otherWords == nil }, "\(results.compactMap(\.otherWords))")
        #expect(results.allSatisfy { acceptance.verdict($0, in: .reading) != .notMeant })
    }

    /// Only where something new is awaited: an answer's grammar is small, and its words are
    /// checked by their fit.
    @Test func answersAreNotChecked() throws {
        let results = try heard("the children are playing in the garden", in: .answer)
        #expect(!results.isEmpty && results.allSatisfy { $0.otherWords == nil })
    }

    /// A learned voice fits readings better, so its other words are likelier, in both
    /// languages; a locale without odds of its own for a learned voice uses the others.
    @Test func aLearnedVoiceHearsOtherWordsAtHigherOdds() throws {
        for table in [english, chinese] {
            let without = try #require(RecognizerFactory.otherWordOddsPerPhone(table, voiceLearned: false))
            let with = try #require(RecognizerFactory.otherWordOddsPerPhone(table, voiceLearned: true))
            #expect(with > without, "\(table.id)")
        }
        var plain = english
        plain.speech.otherWordOddsPerPhoneWithVoice = nil
        #expect(RecognizerFactory.otherWordOddsPerPhone(plain, voiceLearned: true) == english.speech.otherWordOddsPerPhone)
    }

    /// In a noisy room a learned voice fits readings well enough for the loop to stand beside
    /// them at its quiet odds; without one, noise fits free words better than readings, and
    /// they are heard at odds far lower, or not at all where the locale has none.
    @Test func aNoisyRoomHearsOtherWordsAtLowerOddsWithoutALearnedVoice() throws {
        for table in [english, chinese] {
            let inNoise = try #require(RecognizerFactory.otherWordOddsPerPhone(table, voiceLearned: false, background: .noisy))
            #expect(inNoise == table.speech.otherWordOddsPerPhoneInNoise, "\(table.id)")
            #expect(inNoise > 0 && inNoise < RecognizerFactory.otherWordOddsPerPhone(table, voiceLearned: false)! / 1.5, "\(table.id)")
            #expect(RecognizerFactory.otherWordOddsPerPhone(table, voiceLearned: true, background: .noisy)
                    == RecognizerFactory.otherWordOddsPerPhone(table, voiceLearned: true), "\(table.id)")
            var without = table
            without.speech.otherWordOddsPerPhoneInNoise = nil
            #expect(RecognizerFactory.otherWordOddsPerPhone(without, voiceLearned: false, background: .noisy) == nil, "\(table.id)")
        }
    }

    /// The assistant's recognizer hears with those odds once a voice is stored, and with the
    /// plain ones without; in a noisy room with them, or with the noisy room's without a voice. (The stored
    /// voice here is the general model itself, linked in as a MAP voice: what is checked is the
    /// choice, not what a voice learns.)
    @Test func aRecognizerWithAStoredVoiceUsesTheOddsForLearnedVoices() throws {
        let resources = ChineseRecognizerTests.resources
        let (voice, dir) = try Self.storedVoice()
        defer { try? FileManager.default.removeItem(at: dir) }
        let heardWith = try RecognizerFactory.make(table: english, resources: resources, voice: voice)
        let heardWithout = try RecognizerFactory.make(table: english, resources: resources)
        #expect(heardWith.configuration.otherWords?.oddsPerPhone == english.speech.otherWordOddsPerPhoneWithVoice)
        #expect(heardWithout.configuration.otherWords?.oddsPerPhone == english.speech.otherWordOddsPerPhone)
        // In a noisy room, the same with the voice, far lower without.
        let noisy = AudioConditions(background: .noisy)
        let noisyWith = try RecognizerFactory.make(table: english, resources: resources, voice: voice, conditions: noisy)
        let noisyWithout = try RecognizerFactory.make(table: english, resources: resources, conditions: noisy)
        #expect(noisyWith.configuration.otherWords?.oddsPerPhone == english.speech.otherWordOddsPerPhoneWithVoice)
        #expect(noisyWithout.configuration.otherWords?.oddsPerPhone == english.speech.otherWordOddsPerPhoneInNoise)
    }

    /// A voice stored in a data directory of its own (to remove): the general model itself,
    /// linked in as a MAP voice.
    static func storedVoice() throws -> (AdaptedVoice, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("carevoice-voice-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let general = try RecognizerFactory.configuration(table: english, resources: ChineseRecognizerTests.resources).modelDirectory
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("model").path, withDestinationPath: general)
        try #"{"enrolled": "2026-11-26T12:00:00Z", "method": "map", "seconds": 40, "source": "enrollment", "utterances": 20}"#
            .write(to: dir.appendingPathComponent("voice.json"), atomically: true, encoding: .utf8)
        return (try #require(try AdaptedVoice.load(from: dir)), dir)
    }

    /// In a noisy room without a learned voice the other words' search keeps at most 3000 HMMs a
    /// frame, and the grammars' their own (pocketsphinx's default); with a voice, or in a quiet
    /// room, it is not narrowed; a bench's limit applies in every room.
    @Test func aNoisyRoomsOtherWordsSearchIsNarrowedWithoutALearnedVoice() throws {
        let resources = ChineseRecognizerTests.resources
        let grammarsDefault = 30000
        let noisy = AudioConditions(background: .noisy)
        let noisyWithout = try RecognizerFactory.make(table: english, resources: resources, conditions: noisy)
        #expect(noisyWithout.mostHMMsPerFrame.grammars == grammarsDefault)
        #expect(noisyWithout.mostHMMsPerFrame.otherWords == 3000)
        let (voice, dir) = try Self.storedVoice()
        defer { try? FileManager.default.removeItem(at: dir) }
        let noisyWith = try RecognizerFactory.make(table: english, resources: resources, voice: voice, conditions: noisy)
        #expect(noisyWith.mostHMMsPerFrame.otherWords == grammarsDefault)
        let quiet = try RecognizerFactory.make(table: english, resources: resources)
        #expect(quiet.mostHMMsPerFrame.otherWords == grammarsDefault)
        let tried = try RecognizerFactory.make(table: english, resources: resources, otherWordsHMMsPerFrame: 2000)
        #expect(tried.mostHMMsPerFrame.otherWords == 2000 && tried.mostHMMsPerFrame.grammars == grammarsDefault)
        let unlimited = try RecognizerFactory.make(table: english, resources: resources, conditions: noisy, otherWordsHMMsPerFrame: -1)
        #expect(unlimited.mostHMMsPerFrame.otherWords == -1)
    }

    /// English has its other words, and the reading grammar's own join them; Chinese has a
    /// character for each Mandarin syllable; odds of 0 turn them off.
    @Test func theLoopHasCommonWordsAndTheGrammarsOwn() throws {
        let resources = ChineseRecognizerTests.resources
        let odds = english.speech.otherWordOddsPerPhone
        let check = try #require(RecognizerFactory.otherWordsCheck(table: english, resources: resources,
                                                                   builder: GrammarBuilder(table: english), oddsPerPhone: odds))
        #expect(check.grammar == ListeningContext.reading.rawValue)
        #expect(check.words.contains("children") && check.words.contains("glucose") && check.words.contains("forty"))
        #expect(Set(check.words).count == check.words.count)
        #expect(check.oddsPerPhone > 0 && check.oddsPerPhone < 1)
        #expect(RecognizerFactory.otherWordsCheck(table: english, resources: resources, builder: GrammarBuilder(table: english),
                                                  oddsPerPhone: 0) == nil)
        #expect(RecognizerFactory.otherWordsCheck(table: english, resources: resources, builder: GrammarBuilder(table: english),
                                                  conditions: AudioConditions(band: .narrow), oddsPerPhone: odds) == nil)
        let syllables = try #require(RecognizerFactory.otherWordsCheck(table: chinese, resources: resources,
                                                                       builder: GrammarBuilder(table: chinese),
                                                                       oddsPerPhone: chinese.speech.otherWordOddsPerPhone))
        // 妈 ma, 说 shuo, 血糖 (the grammar's); a line's pinyin is a note, not a word.
        #expect(syllables.words.contains("妈") && syllables.words.contains("说") && syllables.words.contains("血糖"))
        #expect(syllables.words.count > 400 && !syllables.words.contains("ma") && !syllables.words.contains("嗯"))
        // A models folder without the file: no check (and a warning), and the recognizer is made.
        let empty = ResourceLocator(root: FileManager.default.temporaryDirectory.appendingPathComponent("no-models-\(UUID())"))
        #expect(RecognizerFactory.otherWordsCheck(table: english, resources: empty, builder: GrammarBuilder(table: english),
                                                  oddsPerPhone: odds) == nil)
    }
}
