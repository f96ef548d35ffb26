import CareLanguage
import CareModel
import Foundation
import Testing
@testable import CareAssistant

/// The dialog's side of "change my weight to 70 kilos" and "speak slower": read back, a yes,
/// then the runtime's save; nothing is saved before the yes.
private func changeScript(hasProfile: Bool = true, settings: Settings = Settings()) -> Script {
    Script(Dialog(phrasebook: Phrasebook(table: english, calendar: calendar), preferredUnit: settings.glucoseUnit,
                  settings: settings, hasProfile: hasProfile, countries: ["CA", "FR"]))
}

extension Script {
    /// The change the dialog asked the runtime to save.
    var change: ProfileChange? {
        for case .saveChange(let change) in effects { return change }
        return nil
    }
}

@Suite struct ChangeDialogTests {
    @Test func aSpokenChangeIsReadBackAndSavedOnlyAfterYes() {
        var s = changeScript()
        s.send(.heard("change my weight to seventy kilos"))
        #expect(s.said == ["Weight: 70 kg. Shall I save it?"])
        #expect(s.spoken == ["Weight: 70 kilograms. Shall I save it?"])
        #expect(s.editable == "change my weight to 70 kg")
        #expect(s.change == nil)
        #expect(s.dialog.listeningContext == .answer)
        s.send(.heard("yes"))
        #expect(s.change == .answer(.weight(kg: 70)))
        s.send(.changeSaved(Settings()))
        #expect(s.said.first == "Saved. Weight: 70 kg.")
        #expect(s.dialog.state == .idle)
    }

    /// A goodbye heard before the yes asks first here too, and "no" asks for the yes again.
    @Test func aSpokenGoodbyeBeforeTheYesToAChangeAsksFirst() {
        var s = changeScript()
        s.send(.heard("change my weight to seventy kilos"))
        s.send(.heard("bye"))
        #expect(s.dialog.listeningContext == .confirmation)
        #expect(!s.effects.contains(.exit))
        s.send(.heard("no"))
        #expect(s.said.contains("Weight: 70 kg. Shall I save it?"), "\(s.said)")
        s.send(.heard("goodbye"))
        s.send(.heard("yes"))
        #expect(s.said == ["Not changed.", "Goodbye."], "\(s.said)")
        #expect(s.change == nil)
    }

    /// By voice a field is named alone and its question asked, in that question's grammar.
    @Test func aFieldNamedAloneGetsItsQuestion() {
        var s = changeScript()
        s.send(.heard("change my weight"))
        #expect(s.said == ["How much do you weigh? For example: 70 kilos, or 154 pounds."])
        #expect(s.dialog.listeningContext == .question(.weight))
        s.send(.heard("five kilos"))
        #expect(s.said.first?.contains("doesn't sound right for a weight") == true)
        #expect(s.dialog.listeningContext == .question(.weight))
        s.send(.heard("seventy kilos"))
        #expect(s.said == ["Weight: 70 kg. Shall I save it?"])
        s.send(.heard("yes"))
        #expect(s.change == .answer(.weight(kg: 70)))

        var t = changeScript()
        t.send(.heard("change my height"))
        t.send(.heard("cancel"))
        #expect(t.said.first == "Not changed.")
        #expect(t.dialog.state == .idle)
        t.send(.typed("change my name"))
        #expect(t.said == ["Please give a new value for Name."])
    }

    @Test func noLeavesTheOldValueAndEnterOnTheLineSaves() {
        var s = changeScript()
        s.send(.typed("change my height to 160 cm"))
        s.send(.heard("no"))
        #expect(s.change == nil)
        #expect(s.said.first == "Not changed.")
        s.send(.typed("change my height to 160 cm"))
        s.send(.edited(s.editable ?? ""))
        #expect(s.change == .answer(.height(cm: 160)))
    }

    @Test func anEditedLineIsParsedAgainAndImplausibleValuesAreExplained() {
        var s = changeScript()
        s.send(.typed("change my weight to 70 kg"))
        s.send(.edited("change my weight to 71 kg"))
        #expect(s.change == .answer(.weight(kg: 71)))
        var t = changeScript()
        t.send(.typed("change my height to 4 m"))
        #expect(t.change == nil)
        #expect(t.said.first?.contains("doesn't sound right for a height") == true)
        // It says "please say it again", and the next words are taken as the height.
        #expect(t.dialog.state == .askingChange(.height))
    }

    @Test func settingsChangeRelativeToWhereTheyStandAndApplyAtOnce() {
        var s = changeScript(settings: Settings(speechRate: 150))
        s.send(.heard("speak slower"))
        #expect(s.said.first == "Speech rate: 130 words a minute. Shall I save it?")
        s.send(.heard("yes"))
        #expect(s.change == .speechRate(wordsPerMinute: 130))
        s.send(.changeSaved(Settings(speechRate: 130)))
        s.send(.heard("speak slower"))
        #expect(s.said.first == "Speech rate: 110 words a minute. Shall I save it?")

        // The glucose unit and digit by digit change how the next reading is understood and said.
        var u = changeScript()
        u.send(.typed("read numbers digit by digit"))
        u.send(.typed("yes"))
        u.send(.changeSaved(Settings(glucoseUnit: .mgPerDL, numbersDigitByDigit: true)))
        u.send(.heard("glucose one hundred twenty"))
        #expect(u.said.first == "120 mg/dL. Shall I save it?")
        #expect(u.spoken.first?.hasPrefix("one two zero milligrams") == true)
    }

    /// "Speak Chinese": once saved, the runtime hands the dialog the Chinese phrasebook (as it
    /// does on `changeSaved`), and what follows is said and understood in Chinese; what was
    /// done before (for "undo") and the digit-by-digit setting stay.
    @Test func aChangedLanguageIsSpokenAndUnderstoodFromTheNextSentence() {
        var s = changeScript(settings: Settings(numbersDigitByDigit: true))
        s.send(.heard("glucose six point five"))
        s.send(.heard("yes"))
        s.send(.heard("speak chinese"))
        #expect(s.said.first == "Language: Chinese. Shall I save it?")
        s.send(.heard("yes"))
        #expect(s.change == .answer(.language(.chinese)))
        s.dialog = s.dialog.speaking(Phrasebook(table: chinese, calendar: calendar))
        s.send(.changeSaved(Settings(language: .chinese, numbersDigitByDigit: true)))
        #expect(s.said == ["已保存。语言：中文。", "请告诉我下一个读数，或者说“再见”。"])
        s.send(.heard("血糖一百二十"))
        #expect(s.said.first == "120 mg/dL。要保存吗？说“对”就保存。")
        #expect(s.spoken.first == "一二零 毫克每分升。要保存吗？说“对”就保存。", "digit by digit, in Chinese")
        s.send(.heard("对"))
        #expect(s.said.first == "已保存：120 mg/dL。")
        #expect(s.dialog.history.count == 2)
        s.send(.heard("换成英文"))
        #expect(s.said.first == "语言：英文。要保存吗？说“对”就保存。")
    }

    /// A value that is not one of the choices: the field's question follows, naming them, and
    /// the next words answer it; an implausible one is asked for again the same way.
    @Test func aValueNotUnderstoodIsAskedForAgainWithItsChoices() {
        var s = changeScript()
        s.send(.typed("change my language to french"))
        #expect(s.said == ["Language: I didn't understand french. Which language would you like: English or Chinese? 请问您想用英文还是中文？"])
        #expect(s.dialog.listeningContext == .question(.language))
        s.send(.typed("chinese"))
        #expect(s.said.first == "Language: Chinese. Shall I save it?")

        var h = changeScript()
        h.send(.heard("change my height to four hundred centimetres"))
        #expect(h.said.first?.hasPrefix("four hundred centimetres doesn't sound right for a height.") == true, "\(h.said)")
        h.send(.heard("one hundred seventy centimetres"))
        #expect(h.said.first == "Height: 170 cm. Shall I save it?")

        // While a question waits, a whole other change is taken as meant.
        var w = changeScript()
        w.send(.typed("change my height to 4 m"))
        w.send(.typed("change my weight to 70 kg"))
        #expect(w.said.first == "Weight: 70 kg. Shall I save it?")

        // Chinese, typed without spaces: the value is found, and the sentences join without one.
        var z = Script(Dialog(phrasebook: Phrasebook(table: chinese, calendar: calendar), preferredUnit: .mmolPerL))
        z.send(.typed("把我的血糖单位改成七十"))
        #expect(z.said == ["我没能把“七十”理解为您的血糖单位。您的血糖仪显示的单位是毫摩尔每升，还是毫克每分升？"])
        z.send(.typed("把我的体重改成七十公斤"))
        #expect(z.said.first == "体重：70 公斤。要保存吗？说“对”就保存。")
    }

    @Test func profileChangesNeedAProfileButSettingsDoNot() {
        var s = changeScript(hasProfile: false)
        s.send(.heard("change my weight to seventy kilos"))
        #expect(s.said.first?.contains("no profile yet") == true)
        #expect(s.dialog.state == .idle)
        s.send(.heard("speak louder"))
        #expect(s.said.first == "Volume: 120 percent. Shall I save it?")
    }

    @Test func helpStillComesWhileAChangeWaits() {
        var s = changeScript()
        s.send(.heard("change my weight to seventy kilos"))
        s.send(.heard("help"))
        #expect(s.effects.first == .showEmergency)
        #expect(s.editable == "change my weight to 70 kg")
        s.send(.heard("yes"))
        #expect(s.change == .answer(.weight(kg: 70)))
    }

    @Test func aReminderIsSaidOnlyWhenNothingElseIsGoingOn() {
        let last = calendar.date(from: DateComponents(year: 2026, month: 11, day: 21, hour: 7, minute: 30))!
        var s = changeScript()
        s.send(.reminderDue(lastReading: last))
        #expect(s.said == ["It's time for a glucose reading. Your last one was yesterday at 7:30 AM."])
        s.send(.heard("glucose six point five"))
        s.send(.reminderDue(lastReading: last))
        #expect(s.effects.isEmpty)
        #expect(s.dialog.listeningContext == .answer)
    }
}
