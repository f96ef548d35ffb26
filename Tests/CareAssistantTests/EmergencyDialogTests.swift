import CareLanguage
import CareModel
import Foundation
import Testing
@testable import CareAssistant

/// Help at any moment, and what a confirmed low or high reading calls for.
@Suite struct EmergencyDialogTests {
    static let phrases = english.emergency
    enum Input: CaseIterable { case heard, typed }

    private func send(_ text: String, _ input: Input, to s: inout Script) {
        s.send(input == .heard ? .heard(text) : .typed(text))
    }

    @Test(arguments: phrases, Input.allCases)
    func helpInterruptsWaitingForAReading(_ phrase: String, _ input: Input) {
        var s = Script()
        send(phrase, input, to: &s)
        #expect(s.effects.first == .showEmergency)
        #expect(s.said == ["When you're ready, tell me a reading, or say help again."])
        #expect(s.dialog.state == .idle)
        #expect(s.listening == .reading)
    }

    /// Help comes first, no questions asked; the reading that was waiting is kept and offered again.
    @Test(arguments: phrases, Input.allCases)
    func helpInterruptsAConfirmationAndKeepsTheReading(_ phrase: String, _ input: Input) throws {
        var s = Script()
        s.send(.heard("glucose six point five before breakfast"))
        send(phrase, input, to: &s)
        #expect(s.effects.first == .showEmergency)
        #expect(s.saved == nil)
        #expect(s.said == ["When you're ready, we can go on. 6.5 mmol/L, before breakfast. Shall I save it?"])
        #expect(s.editable == "glucose 6.5 before breakfast")
        #expect(s.listening == .answer)
        s.send(.heard("yes"))
        #expect(try #require(s.saved).level.mmolPerL == 6.5)
    }

    @Test(arguments: phrases, Input.allCases)
    func helpAnswersTheOfferAfterAVeryLowReading(_ phrase: String, _ input: Input) {
        var s = Script()
        s.send(.typed("glucose 2.8"))
        s.send(.typed("yes"))
        #expect(s.dialog.state == .offeringHelp)
        send(phrase, input, to: &s)
        #expect(s.effects.first == .showEmergency)
        #expect(s.dialog.state == .idle)
    }

    /// Each language's calls for help are written once, in its own table, and understood typed
    /// in the other's sessions too.
    @Test func theOtherLanguagesCallsForHelpAreTheirTablesOwn() throws {
        #expect(english.emergencyInOtherLanguages == chinese.emergency)
        #expect(chinese.emergencyInOtherLanguages == english.emergency)
        let heard = try #require(english.speech.heardCallsForHelp).phrases
        #expect(!heard.isEmpty && Set(heard).isSubset(of: chinese.emergency))
        #expect(english.callsForHelp.count == Set(english.callsForHelp).count, "each phrase once: \(english.callsForHelp)")
    }

    /// The English grammars listen for their own calls for help and the Chinese ones of
    /// `speech.heardCallsForHelp`; the Chinese grammars for their own only.
    @Test func eachGrammarListensForTheCallsForHelpItShould() {
        let rule = { (table: LocaleTable) in
            GrammarBuilder(table: table).jsgf(for: .answer).split(separator: "\n").first { $0.hasPrefix("<emergency> = ") }
        }
        #expect(rule(english) == "<emergency> = help | (help me) | emergency | (call an ambulance) | ambulance | 救命 | 叫救护车;")
        #expect(rule(chinese) == "<emergency> = 救命 | 急救 | 叫救护车 | 救护车 | 帮帮我 | 帮助 | 紧急情况;")
    }

    /// 救命 typed in an English session (a Chinese-speaking person, a session set up by their
    /// family) brings help at once, and the reading that was waiting is kept.
    @Test(arguments: chinese.emergency)
    func helpTypedInAnotherLanguageInterruptsAConfirmation(_ phrase: String) throws {
        var s = Script()
        s.send(.heard("glucose six point five before breakfast"))
        s.send(.typed(phrase))
        #expect(s.effects.first == .showEmergency)
        #expect(s.saved == nil)
        #expect(s.listening == .answer)
        s.send(.heard("yes"))
        #expect(try #require(s.saved).level.mmolPerL == 6.5)
    }

    /// "help" typed in a Chinese session does too.
    @Test(arguments: english.emergency)
    func englishHelpTypedInAChineseSession(_ phrase: String) {
        var s = Script(Dialog(phrasebook: Phrasebook(table: chinese, calendar: calendar), preferredUnit: .mmolPerL))
        s.send(.typed(phrase))
        #expect(s.effects.first == .showEmergency)
        #expect(s.dialog.state == .idle)
    }

    /// A yes that may have been a no saves nothing elsewhere, but answers the offer of help.
    @Test func aDoubtfulYesToTheOfferOfHelpIsTaken() {
        var s = Script()
        s.send(.typed("glucose 2.8"))
        s.send(.typed("yes"))
        #expect(s.dialog.state == .offeringHelp)
        s.send(.heardDoubtfulYes("okay"))
        #expect(s.effects.first == .showEmergency)
        #expect(s.dialog.state == .idle)
    }

    @Test func aPhraseInsideASentenceStillCounts() {
        var s = Script()
        s.send(.typed("please call an ambulance now"))
        #expect(s.effects.first == .showEmergency)
    }

    // MARK: Alerts after saving, exactly at the thresholds

    @Test(arguments: [
        ("glucose 3.9", nil), ("glucose 3.8", "low"), ("glucose 3.0", "low"), ("glucose 2.9", "very low"),
        ("glucose 13.9", nil), ("glucose 14.0", "high"), ("glucose 10", nil),
        ("glucose 70 mg/dl", nil), ("glucose 69 mg/dl", "low"), ("glucose 54 mg/dl", "low"),
        ("glucose 53 mg/dl", "very low"), ("glucose 250 mg/dl", nil), ("glucose 251 mg/dl", "high"),
    ] as [(String, String?)])
    func aConfirmedReadingIsFollowedByWhatItCallsFor(_ text: String, _ expected: String?) throws {
        var s = Script()
        s.send(.typed(text))
        s.send(.typed("yes"))
        _ = try #require(s.saved)
        let alert = s.said.dropFirst().first ?? ""
        switch expected {
        case nil:
            #expect(s.said.count == 2, "\(s.said)")
            #expect(alert == "Tell me your next reading, or say goodbye.")
        case "low"?:
            #expect(alert.hasPrefix("That is low. Take 15 grams of fast-acting sugar"))
            #expect(alert.contains("Check again in 15 minutes"))
            #expect(s.dialog.state == .idle)
        case "very low"?:
            #expect(alert.hasPrefix("That is very low."))
            #expect(s.said.last == "Shall I read out the emergency numbers and your contacts?")
            #expect(s.dialog.state == .offeringHelp)
            #expect(s.listening == .answer)
        default:
            #expect(alert.hasPrefix("That is high. Follow your care plan"))
        }
        // Never a dose, never a reason not to seek help.
        for sentence in s.said {
            #expect(!sentence.lowercased().contains("units of insulin"))
            #expect(!sentence.lowercased().contains("don't call"))
        }
    }

    @Test func theOfferOfHelpTakesYesNoOrANewReading() {
        func offered() -> Script {
            var s = Script()
            s.send(.typed("glucose 2.5"))
            s.send(.typed("yes"))
            return s
        }
        var yes = offered()
        yes.send(.heard("yes"))
        #expect(yes.effects.first == .showEmergency)

        var no = offered()
        no.send(.heard("no"))
        #expect(!no.effects.contains(.showEmergency))
        #expect(no.said == ["Tell me your next reading, or say goodbye."])

        var unclear = offered()
        unclear.send(.heard("the cat is asleep"))
        #expect(unclear.said == ["Shall I read out the emergency numbers and your contacts?"])
        #expect(unclear.dialog.state == .offeringHelp)

        var reading = offered()
        reading.send(.typed("glucose 3.5"))
        #expect(reading.said == ["3.5 mmol/L. Shall I save it?"])
    }
}
