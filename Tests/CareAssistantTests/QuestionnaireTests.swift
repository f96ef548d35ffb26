import CareLanguage
import CareModel
import Foundation
import Testing
@testable import CareAssistant

/// Drives the questionnaire as the runtime would and records what it asks for.
private struct Interview {
    var q = Questionnaire(phrasebook: Phrasebook(table: english, calendar: calendar), countries: ["CA", "GB", "US", "CN"],
                          today: CalendarDay(year: 2026, month: 11, day: 22))
    var effects: [DialogEffect] = []

    init() { effects = q.handle(.started) }

    init(_ questionnaire: Questionnaire) {
        q = questionnaire
        effects = q.handle(.started)
    }

    @discardableResult
    mutating func say(_ text: String) -> [DialogEffect] {
        effects = q.handle(.typed(text))
        return effects
    }

    mutating func edit(_ text: String) { effects = q.handle(.edited(text)) }

    /// Answers and confirms with yes.
    mutating func answer(_ text: String) {
        say(text)
        say("yes")
    }

    var said: [String] { effects.compactMap { if case .say(let m) = $0 { return m.display } else { return nil } } }
    var editable: String? {
        for case .showEditable(_, let text, _) in effects { return text }
        return nil
    }
    var result: OnboardingResult? {
        for case .saveOnboarding(let r) in effects { return r }
        return nil
    }
    var asking: ProfileQuestion? {
        if case .asking(let question) = q.state { return question }
        return nil
    }

    /// Answers every question up to (not including) `stop`.
    mutating func answerUntil(_ stop: ProfileQuestion) {
        let script: [ProfileQuestion: String] = [
            .language: "English", .glucoseUnit: "millimoles per litre", .bodyUnits: "metric", .dateOfBirth: "March 4 1948",
            .height: "170 cm", .weight: "70 kg", .sex: "female", .diabetesType: "type two", .country: "Canada",
            .contactName: "Anna Li", .contactPhone: "604 555 0199", .reminder: "twelve hours",
        ]
        while let question = asking, question != stop { answer(script[question]!) }
    }
}

@Suite struct QuestionnaireTests {
    @Test func aWholeInterviewIsSavedOnlyAfterTheLastYes() throws {
        var i = Interview()
        #expect(i.said.first?.hasPrefix("Welcome to CareVoice.") == true)
        #expect(i.said.last == "Which language would you like: English or Chinese? 请问您想用英文还是中文？")
        i.say("English")
        #expect(i.said == ["English. Is that right?"])
        #expect(i.editable == "english")
        i.say("yes")
        #expect(i.asking == .glucoseUnit)
        i.answerUntil(.reminder)
        i.say("twelve hours")
        i.say("yes")
        #expect(i.result == nil, "nothing is saved before the summary's yes")
        #expect(i.said == [
            "Here is what I have:", "language: English.", "glucose in: millimoles per litre (mmol/L).",
            "height and weight in: centimetres and kilograms.", "born: 4 March 1948.", "height: 170 cm.", "weight: 70 kg.",
            "sex: female.", "diabetes: type 2 diabetes.", "country: Canada.", "emergency contact: Anna Li.",
            "their number: 604 555 0199.", "reminder: 12 hours after your last reading.", "Shall I save all of this?",
        ])
        i.say("yes")
        let result = try #require(i.result)
        #expect(result.profile.dateOfBirth == CalendarDay(year: 1948, month: 3, day: 4))
        #expect(result.profile.heightCm == 170 && result.profile.weightKg == 70)
        #expect(result.profile.sex == .female && result.profile.diabetesType == .type2 && result.profile.country == "CA")
        #expect(result.settings.glucoseUnit == .mmolPerL && result.settings.reminder == .twelveHours)
        #expect(result.contact == EmergencyContact(name: "Anna Li", phone: "604 555 0199"))
        i.effects = i.q.handle(.onboardingSaved)
        #expect(i.said == ["All saved. Thank you."])
        #expect(i.effects.last == .exit)
    }

    @Test func backReturnsToThePreviousQuestionWithItsAnswerKept() {
        var i = Interview()
        i.answerUntil(.height)
        i.say("go back")
        #expect(i.asking == .dateOfBirth)
        #expect(i.editable == "1948-03-04", "the kept answer is offered")
        i.say("yes")                      // keeps it
        #expect(i.asking == .height)
        i.say("back")
        i.say("")                         // Enter on the offered answer keeps it too
        #expect(i.asking == .height)
        i.say("170 cm")
        i.say("back")                     // back from a read-back
        #expect(i.asking == .dateOfBirth)
    }

    /// Every answer is read back anyway: one heard loosely is handled as one heard well.
    @Test func aLooselyHeardAnswerIsReadBackLikeAnyOther() {
        var i = Interview()
        i.answerUntil(.weight)
        i.effects = i.q.handle(.heardUnsure("seventy kilos"))
        #expect(i.said == ["70 kg. Is that right?"])
        i.effects = i.q.handle(.heardUnsure("yes"))
        #expect(i.asking == .sex)
    }

    @Test func repeatSaysTheQuestionAgain() {
        var i = Interview()
        i.answerUntil(.weight)
        i.say("repeat")
        #expect(i.said == ["How much do you weigh? For example: 70 kilos, or 154 pounds."])
        i.say("70 kg")
        i.say("say that again")
        #expect(i.said == ["70 kg. Is that right?"])
    }

    @Test(arguments: [
        (ProfileQuestion.height, "4 m", "4 m doesn't sound right for a height."),
        (.height, "twelve feet", "twelve feet doesn't sound right for a height."),
        (.weight, "5 kg", "5 kg doesn't sound right for a weight."),
        (.dateOfBirth, "March 4 1850", "March 4 1850 is too long ago for a date of birth."),
        (.dateOfBirth, "March 4 2030", "March 4 2030 is in the future."),
        (.dateOfBirth, "February 30 1950", "That day doesn't exist."),
        (.dateOfBirth, "04/03/1948", "Please say the month by its name"),
        (.contactPhone, "12", "That doesn't sound like a phone number: it has fewer than 5 digits."),
        (.country, "Atlantis", "I don't know the country Atlantis."),
        (.sex, "purple", "Sorry, I didn't catch that."),
    ])
    func implausibleAnswersAreExplainedAndAskedAgain(_ question: ProfileQuestion, _ text: String, _ explanation: String) {
        var i = Interview()
        i.answerUntil(question)
        i.say(text)
        #expect(i.said.first?.hasPrefix(explanation) == true, "\(i.said)")
        #expect(i.asking == question)
    }

    @Test func aRequiredQuestionCannotBeSkipped() {
        var i = Interview()
        i.answerUntil(.weight)
        i.say("skip")
        #expect(i.said.first == "I need an answer to this one to look after you properly.")
        #expect(i.asking == .weight)
    }

    @Test func skippingTheContactSkipsTheirNumber() throws {
        var i = Interview()
        i.answerUntil(.country)
        i.say("skip")
        #expect(i.asking == .contactName)
        i.say("skip")
        #expect(i.asking == .reminder)
        i.answer("never")
        #expect(i.said.suffix(4) == ["country: skipped.", "emergency contact: skipped.", "reminder: never.", "Shall I save all of this?"])
        i.say("yes")
        let result = try #require(i.result)
        #expect(result.contact == nil && result.profile.country == nil)
    }

    @Test(arguments: ["help", "emergency", "call an ambulance"])
    func helpWorksMidWay(_ phrase: String) {
        var i = Interview()
        i.answerUntil(.height)
        i.say(phrase)
        #expect(i.effects.first == .showEmergency)
        #expect(i.said.first == "When you're ready, we can go on.")
        #expect(i.asking == .height)
        i.say("170 cm")
        i.say(phrase)                     // during a read-back, the answer waits
        #expect(i.effects.first == .showEmergency)
        #expect(i.said.last == "170 cm. Is that right?")
    }

    /// In noise an answer was heard as "bye": a spoken goodbye half-way asks first; "no" goes
    /// back where the questions were, and yes stops with nothing saved.
    @Test func aSpokenGoodbyeHalfWayAsksFirst() {
        var i = Interview()
        i.answerUntil(.weight)
        i.say("70 kg")
        i.effects = i.q.handle(.heard("bye"))
        #expect(i.said == ["Do you want to stop setting up? Nothing is saved until the end. Say yes to stop, or no to go on."])
        #expect(i.q.listeningContext == .confirmation)
        #expect(!i.effects.contains(.exit))
        i.effects = i.q.handle(.heard("no"))
        #expect(i.said == ["70 kg. Is that right?"], "the read-back waits again")
        i.effects = i.q.handle(.heard("yes"))
        #expect(i.asking == .sex)
        i.effects = i.q.handle(.heard("goodbye"))
        i.effects = i.q.handle(.heard("help"))
        #expect(i.effects.first == .showEmergency)
        #expect(i.asking == .sex, "help, then the question again")
        i.effects = i.q.handle(.heard("goodbye"))
        i.effects = i.q.handle(.heard("yes"))
        #expect(i.said == ["Nothing was saved. We can set things up next time."])
        #expect(i.effects.last == .exit)
        #expect(i.result == nil)
    }

    /// Typed, or before any answer is given, goodbye is meant as it is.
    @Test func aTypedGoodbyeOrOneBeforeAnyAnswerStopsAtOnce() {
        var typed = Interview()
        typed.answerUntil(.sex)
        typed.say("quit")
        #expect(typed.effects.last == .exit)
        var first = Interview()
        first.effects = first.q.handle(.heard("goodbye"))
        #expect(first.effects.last == .exit)
    }

    @Test(arguments: [DialogEvent.endOfInput, .cancelledByKey])
    func quittingHalfWayKeepsNothing(_ event: DialogEvent) {
        var i = Interview()
        i.answerUntil(.sex)
        i.effects = i.q.handle(event)
        #expect(i.result == nil)
        #expect(i.said == ["Nothing was saved. We can set things up next time."])
        #expect(i.effects.last == .exit)
    }

    @Test func anEditIsTheConfirmationAndIsReadAgain() {
        var i = Interview()
        i.answerUntil(.weight)
        i.say("70 kg")
        i.edit("72 kg")                   // changed on the editable line: parsed again and kept
        #expect(i.asking == .sex)
        i.say("back")
        #expect(i.editable == "72 kg")
        i.edit("72 kg")                   // unchanged: yes
        #expect(i.asking == .sex)
    }

    @Test func imperialUnitsShapeTheAnswersAndTheirReadBack() {
        var i = Interview()
        i.answerUntil(.bodyUnits)
        i.answer("feet and inches")
        i.answerUntil(.height)
        i.say("5 7")
        #expect(i.said == ["5 ft 7 in. Is that right?"])
        i.say("yes")
        i.say("154")
        #expect(i.said == ["154 lb. Is that right?"])
    }

    @Test func noAtTheSummaryGoesThroughAgainKeepingTheAnswers() {
        var i = Interview()
        i.answerUntil(.reminder)
        i.answer("never")
        i.say("no")
        #expect(i.said.first == "Let's go through the questions again. Your answers are kept: say yes to keep each one.")
        #expect(i.asking == .language)
        #expect(i.editable == "english")
        #expect(i.result == nil)
    }

    /// Chinese chosen in English: the runtime is asked to switch first, and the questionnaire,
    /// given the Chinese phrasebook, goes on in Chinese with the answers it has.
    @Test func chineseChosenInEnglishSwitchesTheQuestionsToChinese() throws {
        var i = Interview()
        i.answer("中文")
        #expect(i.effects == [.switchLanguage(.chinese)], "nothing is said before the switch: \(i.effects)")
        i.q = i.q.speaking(Phrasebook(table: chinese, calendar: calendar))
        i.effects = i.q.handle(.languageSwitched(true))
        #expect(i.said == ["好的，从现在起我说中文。", "您的血糖仪显示的单位是毫摩尔每升，还是毫克每分升？"])
        #expect(i.asking == .glucoseUnit)
        // Answers are understood in Chinese now, and "back" offers the language kept, in Chinese.
        i.say("毫摩尔")
        i.say("对")
        i.say("上一题")
        #expect(i.asking == .glucoseUnit)
        i.say("上一题")
        #expect(i.asking == .language)
        #expect(i.editable == "中文")
        i.say("对")
        #expect(!i.effects.contains(.switchLanguage(.chinese)), "the same language: no switch")
        #expect(i.said == ["您的血糖仪显示的单位是毫摩尔每升，还是毫克每分升？"])
        for answer in ["对", "公制", "1948年3月4日", "170厘米", "70公斤", "女", "2型", "加拿大", "跳过", "不提醒"] {
            i.say(answer)
            if answer != "对" && answer != "跳过" { i.say("对") }
        }
        #expect(i.said.first == "这是我记下的内容：", "\(i.said)")
        i.say("对")
        let result = try #require(i.result)
        #expect(result.settings.language == .chinese)
        #expect(result.settings.glucoseUnit == .mmolPerL && result.profile.heightCm == 170 && result.profile.country == "CA")
    }

    /// A runtime that cannot switch (no second language at hand): the language is saved with the
    /// answers for the next start, and the questions go on in English.
    @Test func aLanguageThatCannotBeSwitchedToIsSavedForTheNextStart() {
        var i = Interview()
        i.answer("中文")
        i.effects = i.q.handle(.languageSwitched(false))
        #expect(i.said.first == "From the next start I'll speak Chinese. Let's finish these questions in English. 下次启动时将使用中文。")
        #expect(i.asking == .glucoseUnit)
        i.answerUntil(.reminder)
        i.answer("never")
        i.say("yes")
        #expect(i.result?.settings.language == .chinese)
    }

    /// The whole questionnaire in Chinese, typed the way an input method gives it.
    @Test func aChineseInterview() throws {
        var i = Interview(Questionnaire(phrasebook: Phrasebook(table: chinese, calendar: calendar), countries: ["CA", "GB", "US", "CN"],
                                        today: CalendarDay(year: 2026, month: 11, day: 22)))
        #expect(i.said.contains("请问您想用英文还是中文？") || i.said.joined().contains("请问您想用英文还是中文？"))
        for (answer, confirmation) in [("中文", "对"), ("毫摩尔", "是"), ("公制", "对"), ("我1948年3月4日出生", "对"),
                                       ("一百七十厘米", "对"), ("体重七十公斤", "对"), ("女", "对"), ("二型糖尿病", "确认"),
                                       ("加拿大", "对"), ("李安娜", "对"), ("六零四五五五零一九九", "对"), ("十二小时", "对")] {
            let question = i.asking
            i.say(answer)
            #expect(i.said.contains { $0.contains("对吗") }, "\(answer): \(i.said)")
            i.say(confirmation)
            #expect(i.asking != question, "\(answer) was not taken: \(i.said)")
        }
        #expect(i.said.contains("出生日期：1948年3月4日。"), "\(i.said)")
        i.say("对")
        let result = try #require(i.result)
        #expect(result.settings.language == .chinese)
        #expect(result.profile.dateOfBirth == CalendarDay(year: 1948, month: 3, day: 4))
        #expect(result.profile.heightCm == 170 && result.profile.weightKg == 70)
        #expect(result.profile.sex == .female && result.profile.diabetesType == .type2 && result.profile.country == "CA")
        #expect(result.contact?.phone == "6045550199")
        #expect(result.settings.reminder == .twelveHours)
    }
}
