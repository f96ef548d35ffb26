import CareLanguage
import CareModel
import CareSpeech
import Foundation
import Testing
@testable import CareAssistant

/// Speech forced onto the grammar is turned away; emergency words much less readily. (What the
/// assistant then says is tested with real audio in SpeechLoopTests.)
@Suite struct SpeechAcceptanceTests {
    let acceptance = SpeechAcceptance(table: english, minimumFit: -28, minimumEmergencyFit: -60)

    func heard(_ text: String, fit: Double?) -> RecognitionResult {
        RecognitionResult(text: text, score: 0, confidence: 0, audioDuration: 1, grammarFit: fit)
    }

    @Test func aReadingThatFitsIsKeptAndOneForcedOntoTheGrammarIsNot() {
        #expect(acceptance.transcript(heard("six point five", fit: -12), in: .reading) == "six point five")
        #expect(acceptance.transcript(heard("six point five", fit: -28), in: .reading) == "six point five")
        #expect(acceptance.transcript(heard("six point five", fit: -28.1), in: .reading) == "")
        #expect(acceptance.transcript(heard("yes", fit: -40), in: .reading) == "")
    }

    @Test(arguments: ["help", "help me", "emergency", "call an ambulance", "ambulance"])
    func emergencyWordsPassFarWorseFits(_ phrase: String) {
        #expect(acceptance.transcript(heard(phrase, fit: -45), in: .reading) == phrase)
        #expect(acceptance.transcript(heard(phrase, fit: -61), in: .reading) == "")
    }

    /// A call for help to answer, which wins over what another hearing of the utterance heard
    /// (`SpeechRecognizer.heardFirst`): an emergency phrase above its floor, in sound that
    /// swings as speech does.
    @Test func aCallForHelpIsAnEmergencyPhraseThatIsNotTurnedAway() {
        #expect(acceptance.isCallForHelp(heard("help", fit: -45)))
        #expect(acceptance.isCallForHelp(heard("call an ambulance", fit: -59)))
        #expect(!acceptance.isCallForHelp(heard("help", fit: -61)))
        #expect(!acceptance.isCallForHelp(heard("sure", fit: 10)))
        #expect(!acceptance.isCallForHelp(heard("", fit: nil)))
        var steadyNoise = heard("help", fit: 0)
        steadyNoise.loudnessSwing = SpeechAcceptance.minimumLoudnessSwing - 1
        #expect(!acceptance.isCallForHelp(steadyNoise))
    }

    /// The words given odds begin the emergency (or quit) phrases and nothing else: odds on a
    /// word that other phrases have would tilt them too.
    @Test(arguments: ["en", "zh-Hans"])
    func theWordsWithOddsAreTheirPhrasesOwn(_ locale: String) {
        let table = locale == english.id ? english : chinese
        for (rule, phrases, words) in [("emergency", table.spokenCallsForHelp, RecognizerFactory.emergencyWords(table)),
                                       ("quit", table.commands["quit"] ?? [], RecognizerFactory.quitWords(table))] {
            #expect(!words.isEmpty)
            #expect(phrases.allSatisfy { phrase in words.contains { phrase == $0 || phrase.hasPrefix($0 + " ") } })
            for context in ListeningContext.grammarContexts {
                let others = GrammarBuilder(table: table).jsgf(for: context).split(separator: "\n")
                    .filter { !$0.hasPrefix("<\(rule)>") && !$0.hasPrefix("public") }
                    .flatMap { $0.split { " ()|[];=<>*+".contains($0) } }.map(String.init)
                #expect(words.isDisjoint(with: others), "\(table.id) \(context.rawValue): \(rule)")
            }
        }
    }

    /// A reading that other words explain better than the grammar (`OtherWordsCheck`) was not
    /// meant for the assistant, however well it fits; a command or a call for help is judged by
    /// its fit alone.
    @Test func aReadingOtherWordsExplainBetterIsNotMeant() {
        var reading = heard("my three hundred twenty three", fit: -5)
        #expect(acceptance.verdict(reading, in: .reading) == .confident)
        reading.otherWords = "my knee hurts when it rains"
        #expect(acceptance.verdict(reading, in: .reading) == .notMeant)
        #expect(acceptance.event(reading, in: .reading) == .heard(""))
        for phrase in ["help me", "add a note", "goodbye"] {
            var command = heard(phrase, fit: -5)
            command.otherWords = "good bye"
            #expect(acceptance.verdict(command, in: .reading) == .confident, "\(phrase)")
        }
    }

    /// Calls for help are heard readily everywhere; "goodbye" less readily where an answer is
    /// awaited, and as said where the assistant waits for something new.
    @Test func eachStateGivesTheEmergencyAndQuitWordsTheirOdds() {
        let waiting = ListeningContext.reading.wordOdds(english)
        let answering = ListeningContext.answer.wordOdds(english)
        #expect(waiting["help"]! == answering["help"]!)
        #expect(answering["help"]! > 1 && ListeningContext.question(.height).wordOdds(english)["emergency"]! > 1)
        #expect(waiting["bye"] == 1 && waiting["goodbye"] == 1)
        #expect(answering["bye"]! < 1 && ListeningContext.question(.height).wordOdds(english)["goodbye"]! < 1)
        // A meal said alone after the read-back is heard less readily than an answer or a call.
        #expect(answering["before"] == ListeningContext.mealOdds && answering["fasting"]! < 1 && answering["millimoles"]! < 1)
        #expect(waiting["before"] == nil && ListeningContext.answer.wordOdds(chinese)["午饭后"]! < 1)
        let tried = ListeningContext.answer.wordOdds(english, overriddenBy: WordOddsOverride(emergency: 5, quit: 0.5))
        #expect(tried["ambulance"] == 5 && tried["exit"] == 0.5)
        let oneTried = ListeningContext.answer.wordOdds(english, overriddenBy: WordOddsOverride(emergency: 5, emergencyByWord: ["help": 50]))
        #expect(oneTried["help"] == 50 && oneTried["ambulance"] == 5)
        // Each language has its own: Chinese calls for help are left at the grammar's odds,
        // where higher odds turned 取消 into 急救.
        #expect(answering["help"] == english.speech.emergencyOdds && english.speech.emergencyOdds > 1)
        #expect(ListeningContext.answer.wordOdds(chinese)["急救"] == chinese.speech.emergencyOdds)
        #expect(chinese.speech.emergencyOdds != english.speech.emergencyOdds)
        // A long emergency word has odds of its own, below the short ones' (a calibration's odds
        // for every emergency word still win over it: `tried` above).
        #expect(answering["ambulance"] == 1 && waiting["ambulance"] == 1 && answering["call"] == answering["help"])
        #expect(Set(english.speech.emergencyWordOdds!.keys).isSubset(of: RecognizerFactory.emergencyWords(english)))
    }

    /// In a noisy room "sixteen" and "sixty" are likelier in a reading (their "s" goes with the
    /// noise taken out), and "thirteen" (its "n" does); nowhere else, and not in Chinese.
    @Test func aNoisyRoomsReadingsFavourTheWordsNoiseTakesTheHissOf() {
        let noisy = ListeningContext.reading.wordOdds(english, background: .noisy)
        #expect(noisy["sixteen"] == 1000 && noisy["sixty"] == 100 && noisy["thirteen"] == 10)
        #expect(noisy["help"] == english.speech.emergencyOdds, "the emergency words keep theirs")
        #expect(ListeningContext.reading.wordOdds(english)["sixteen"] == nil)
        #expect(ListeningContext.answer.wordOdds(english, background: .noisy)["sixteen"] == nil)
        #expect(ListeningContext.reading.wordOdds(chinese, background: .noisy) == ListeningContext.reading.wordOdds(chinese))
        // A calibration's odds win over the locale's, word by word, in a noisy room's readings only.
        let tried = WordOddsOverride(readingInNoiseByWord: ["sixty": 1, "fifteen": 10])
        let triedInNoise = ListeningContext.reading.wordOdds(english, background: .noisy, overriddenBy: tried)
        #expect(triedInNoise["sixty"] == 1 && triedInNoise["fifteen"] == 10 && triedInNoise["sixteen"] == 1000)
        #expect(ListeningContext.reading.wordOdds(english, overriddenBy: tried)["fifteen"] == nil)
    }

    /// A loosely fitting yes may have been a no (refusals were heard as "sure" and "okay"): it
    /// is doubted, other answers are not, and Chinese answers are not doubted for being Chinese.
    @Test func aLooselyFittingYesIsDoubted() {
        #expect(acceptance.event(heard("sure", fit: -17.5), in: .answer) == .heardDoubtfulYes("sure"))
        #expect(acceptance.event(heard("yes", fit: -16.5), in: .answer) == .heard("yes"))
        #expect(acceptance.event(heard("nope", fit: -25), in: .answer) == .heardUnsure("nope"))
        let calibrated = SpeechAcceptance(table: chinese)
        #expect(calibrated.event(heard("对", fit: -5), in: .answer) == .heardUnsure("对"))
        #expect(calibrated.event(heard("对", fit: -18), in: .answer) == .heardDoubtfulYes("对"))
    }

    /// A yes heard in a sound loud for less than a tenth of a second was the burst of an
    /// answer cut in two ("incorrect" heard as "save", fitting 16.2): doubted, however well it
    /// fits; a no, a call for help or a reading that short is judged as any other.
    @Test func aYesTooShortToBeSaidWholeIsDoubted() {
        func heard(_ text: String, loudFor seconds: Double?) -> RecognitionResult {
            var result = self.heard(text, fit: 16)
            result.loudSeconds = seconds
            return result
        }
        let shortest = SpeechAcceptance.shortestConfidentYes
        #expect(acceptance.event(heard("save", loudFor: shortest - 0.01), in: .answer) == .heardDoubtfulYes("save"))
        #expect(acceptance.event(heard("save", loudFor: shortest), in: .answer) == .heard("save"))
        #expect(acceptance.event(heard("save", loudFor: nil), in: .answer) == .heard("save"), "not measured")
        #expect(acceptance.event(heard("nope", loudFor: 0.05), in: .answer) == .heard("nope"))
        #expect(acceptance.event(heard("help", loudFor: 0.05), in: .answer) == .heard("help"))
        #expect(SpeechAcceptance(table: chinese).event(heard("对", loudFor: 0.05), in: .answer) == .heardDoubtfulYes("对"))
    }

    /// Unrelated speech comes out as a reading far more often than as a command, so where a
    /// reading is awaited words heard as one must fit better than a command.
    @Test func aReadingMustFitBetterThanACommandWhereOneIsAwaited() {
        let calibrated = SpeechAcceptance(table: english)
        #expect(calibrated.transcript(heard("glucose was twelve", fit: -26), in: .reading) == "")
        #expect(calibrated.transcript(heard("glucose was twelve", fit: -24), in: .reading) == "glucose was twelve")
        #expect(calibrated.transcript(heard("new note", fit: -26), in: .reading) == "new note")
        #expect(calibrated.transcript(heard("new note", fit: -28), in: .reading) == "")
        // Elsewhere (a correction where a yes is awaited) the state's own floor holds for both.
        #expect(calibrated.transcript(heard("glucose was twelve", fit: -26), in: .confirmation) == "glucose was twelve")
        // A floor given for calibration holds for every intent.
        #expect(SpeechAcceptance(table: english, minimumFit: -28).transcript(heard("glucose was twelve", fit: -26), in: .reading)
                == "glucose was twelve")
    }

    /// Heard in a noisy room with the noise taken out, words fit better, and a reading where one
    /// is awaited must fit better still; commands, and readings elsewhere, keep their floors.
    @Test func aReadingInANoisyRoomMustFitBetterStill() {
        let calibrated = SpeechAcceptance(table: english)
        func inNoise(_ text: String, fit: Double) -> RecognitionResult {
            var result = heard(text, fit: fit)
            result.heardOver = .noisy
            return result
        }
        #expect(calibrated.transcript(inNoise("glucose was twelve", fit: -23), in: .reading) == "")
        #expect(calibrated.transcript(heard("glucose was twelve", fit: -23), in: .reading) == "glucose was twelve")
        #expect(calibrated.transcript(inNoise("glucose was twelve", fit: -21), in: .reading) == "glucose was twelve")
        #expect(calibrated.transcript(inNoise("new note", fit: -26), in: .reading) == "new note")
        #expect(calibrated.transcript(inNoise("glucose was twelve", fit: -26), in: .confirmation) == "glucose was twelve")
    }

    /// "Forget my voice" is heard where a voice that hears the person poorly makes it fit poorly,
    /// as an answer would be; nothing is forgotten before a yes.
    @Test func forgetMyVoiceIsHeardAsReadilyAsAnAnswer() {
        let calibrated = SpeechAcceptance(table: english)
        #expect(calibrated.transcript(heard("forget my voice", fit: -30), in: .reading) == "forget my voice")
        #expect(calibrated.transcript(heard("forget my voice", fit: -34), in: .reading) == "")
        #expect(calibrated.transcript(heard("learn my voice", fit: -30), in: .reading) == "")
    }

    /// A call for help is turned away only when it fits worse than any call for help measured.
    @Test func aCallForHelpPassesAFarLowerFloor() {
        let calibrated = SpeechAcceptance(table: english)
        #expect(calibrated.transcript(heard("help", fit: -72), in: .answer) == "help")
        #expect(calibrated.transcript(heard("help", fit: -76), in: .answer) == "")
        #expect(calibrated.transcript(heard("yes", fit: -72), in: .answer) == "")
    }

    @Test func eachStateHasItsOwnFloorUnlessOneIsGiven() {
        let calibrated = SpeechAcceptance(table: english)
        let digits = heard("six", fit: -40)
        #expect(calibrated.transcript(digits, in: .question(.contactPhone)) == "six")
        #expect(calibrated.transcript(digits, in: .reading) == "")
        #expect(SpeechAcceptance(table: english, minimumFit: -50).transcript(digits, in: .reading) == "six")
    }

    /// Between the floor and the confident fit the words are taken as a guess; emergency words
    /// are never doubted.
    @Test func looselyFittingWordsAreAGuess() {
        let glucose = "glucose six point five"
        #expect(acceptance.event(heard(glucose, fit: -12), in: .reading) == .heard(glucose))
        #expect(acceptance.event(heard(glucose, fit: SpeechAcceptance.confidentFit), in: .reading) == .heard(glucose))
        #expect(acceptance.event(heard(glucose, fit: -21), in: .reading) == .heardUnsure(glucose))
        #expect(acceptance.event(heard(glucose, fit: -29), in: .reading) == .heard(""))
        #expect(acceptance.event(heard("help me", fit: -45), in: .reading) == .heard("help me"))
        #expect(acceptance.event(heard("yes", fit: nil), in: .answer) == .heard("yes"))
    }

    /// In Chinese every reading heard is a guess, however well it fits (`speech.guessesReadings`);
    /// emergency words are still taken at once, and a poor fit is still turned away.
    @Test func chineseReadingsAreAlwaysAGuess() {
        let calibrated = SpeechAcceptance(table: chinese)
        let reading = "血糖 六 点 五 早餐前"
        #expect(calibrated.event(heard(reading, fit: -3), in: .reading) == .heardUnsure(reading))
        #expect(calibrated.event(heard("救命", fit: -3), in: .reading) == .heard("救命"))
        #expect(calibrated.event(heard(reading, fit: -40), in: .reading) == .heard(""))
        #expect(SpeechAcceptance(table: english).event(heard("glucose six point five", fit: -3), in: .reading)
                == .heard("glucose six point five"))
    }

    /// Words that hardly swing in loudness were forced onto a steady noise: turned away however
    /// well they fit, calls for help too. Without a swing measured the fit alone decides.
    @Test func wordsForcedOntoASteadyNoiseAreTurnedAway() {
        func heard(_ text: String, swing: Double?) -> RecognitionResult {
            var result = self.heard(text, fit: 5)
            result.loudnessSwing = swing
            return result
        }
        let floor = SpeechAcceptance.minimumLoudnessSwing
        for (text, context) in [("help", ListeningContext.reading), ("bye", .answer), ("glucose six point five", .reading)] {
            #expect(acceptance.transcript(heard(text, swing: floor - 0.1), in: context) == "", "\(text)")
            #expect(acceptance.transcript(heard(text, swing: floor), in: context) == text)
            #expect(acceptance.transcript(heard(text, swing: nil), in: context) == text)
        }
        // Measured: steady noise heard as words swung up to 1.8 dB, words said at least 3.0.
        #expect(acceptance.transcript(heard("help", swing: 1.8), in: .reading) == "")
        #expect(acceptance.transcript(heard("eight", swing: 3.0), in: .question(.contactPhone)) == "eight")
    }

    @Test func withoutAMeasuredFitTheTranscriptStands() {
        #expect(acceptance.transcript(heard("no", fit: nil), in: .reading) == "no")
        #expect(acceptance.transcript(heard("", fit: -90), in: .reading) == "")
    }

}
