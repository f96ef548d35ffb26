import CareLanguage
import CareModel
import Foundation
import Testing
@testable import CareAssistant

private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let english = try! ResourceLocator(root: root).loadLocale("en")
let chinese = try! ResourceLocator(root: root).loadLocale("zh-Hans")
let calendar: Calendar = {
    var c = Calendar(identifier: .gregorian)
    c.timeZone = TimeZone(identifier: "Europe/London")!
    return c
}()
let now = calendar.date(from: DateComponents(year: 2026, month: 11, day: 22, hour: 14))!

/// Drives the dialog with events, as the runtime would, and records what it asks for.
struct Script {
    var dialog = Dialog(phrasebook: Phrasebook(table: english, calendar: calendar), preferredUnit: .mmolPerL)
    var effects: [DialogEffect] = []

    init(preferredUnit: GlucoseUnit = .mmolPerL) {
        dialog.preferredUnit = preferredUnit
        effects = dialog.handle(.started, now: now)
    }

    init(_ dialog: Dialog) {
        self.dialog = dialog
        effects = self.dialog.handle(.started, now: now)
    }

    @discardableResult
    mutating func send(_ event: DialogEvent) -> [DialogEffect] {
        effects = dialog.handle(event, now: now)
        // The runtime answers a save with the stored reading.
        if let reading = saved { effects += dialog.handle(.saved(reading), now: now) }
        return effects
    }

    var saved: GlucoseReading? {
        for case .save(let reading) in effects { return reading }
        return nil
    }
    var said: [String] { effects.compactMap { if case .say(let m) = $0 { return m.display } else { return nil } } }
    var spoken: [String] { effects.compactMap { if case .say(let m) = $0 { return m.spoken } else { return nil } } }
    var editable: String? {
        for case .showEditable(_, let text, _) in effects { return text }
        return nil
    }
    var listening: ListeningContext? {
        effects.compactMap { if case .listen(let c) = $0 { return c } else { return nil } }.last
    }
}

@Suite struct DialogTests {
    @Test func greetsAndListensForAReading() {
        let script = Script()
        #expect(script.said.first?.hasPrefix("Hello") == true)
        #expect(script.listening == .reading)
    }

    @Test func readsBackAndSavesOnYes() throws {
        var s = Script()
        s.send(.heard("glucose six point five before breakfast"))
        #expect(s.spoken == ["six point five millimoles per litre, before breakfast. Shall I save it?"])
        #expect(s.said == ["6.5 mmol/L, before breakfast. Shall I save it?"])
        #expect(s.editable == "glucose 6.5 before breakfast")
        #expect(s.listening == .answer)
        #expect(s.saved == nil)

        s.send(.heard("yes"))
        let reading = try #require(s.saved)
        #expect(reading.level.mmolPerL == 6.5)
        #expect(reading.tag == .beforeBreakfast)
        #expect(reading.source == .voice)
        #expect(reading.takenAt == now)
        #expect(s.said.first == "Saved: 6.5 mmol/L, before breakfast.")
        #expect(s.listening == .reading)
        #expect(s.dialog.state == .idle)
    }

    @Test func enterOnTheUnchangedLineConfirms() throws {
        var s = Script()
        s.send(.typed("sugar 7.2 after dinner"))
        let line = try #require(s.editable)
        s.send(.edited(line))
        #expect(try #require(s.saved).level.mmolPerL == 7.2)
        #expect(s.saved?.source == .keyboard)
    }

    @Test func noSavesNothing() {
        var s = Script()
        s.send(.heard("glucose six point five"))
        s.send(.heard("no"))
        #expect(s.saved == nil)
        #expect(s.said.first == "Not saved.")
        #expect(s.dialog.state == .idle)
    }

    @Test(arguments: [DialogEvent.edited(""), .edited("   "), .cancelledByKey, .heard("cancel"), .typed("cancel")])
    func cancelSavesNothing(_ event: DialogEvent) {
        var s = Script()
        s.send(.heard("glucose six point five"))
        s.send(event)
        #expect(s.saved == nil)
        #expect(s.said.first == "Cancelled. Nothing was saved.")
        #expect(s.dialog.state == .idle)
    }

    /// A plain line (piped stdin) has nothing pre-filled: an empty one is no answer yet, so
    /// the reading stays pending and the person is told what to type. Typing the same line again,
    /// or yes, then saves it.
    @Test func anEmptyPlainLineNeitherSavesNorCancels() throws {
        var s = Script()
        s.send(.heard("glucose six point five"))
        s.send(.typed(""))
        #expect(s.saved == nil)
        #expect(s.said == ["Please say yes to save it, or no."])
        #expect(s.editable == "glucose 6.5")
        guard case .confirming = s.dialog.state else { Issue.record("the reading was dropped"); return }
        s.send(.typed("yes"))
        #expect(try #require(s.saved).level.mmolPerL == 6.5)
    }

    @Test func anEditedLineIsParsedAgainAndSaved() throws {
        var s = Script()
        s.send(.heard("glucose six point five before breakfast"))
        s.send(.edited("glucose 7.5 before breakfast"))
        let reading = try #require(s.saved)
        #expect(reading.level.mmolPerL == 7.5)
        #expect(reading.source == .keyboard)
        #expect(s.said.first == "Saved: 7.5 mmol/L, before breakfast.")
    }

    @Test func aSpokenCorrectionIsReadBackBeforeSaving() throws {
        var s = Script()
        s.send(.heard("glucose six point five"))
        s.send(.heard("glucose seven point two"))
        #expect(s.saved == nil)
        #expect(s.said == ["7.2 mmol/L. Shall I save it?"])
        s.send(.heard("yes"))
        #expect(try #require(s.saved).level.mmolPerL == 7.2)
    }

    /// A reading is answered at the first pause, so its meal may come after the read-back: it
    /// is added, read back again, and saved only on the yes to that.
    @Test func aMealSaidAfterTheReadBackIsAddedAndReadBackAgain() throws {
        var s = Script()
        s.send(.heard("glucose six point five"))
        #expect(s.said == ["6.5 mmol/L. Shall I save it?"])
        s.send(.heard("before breakfast"))
        #expect(s.saved == nil)
        #expect(s.said == ["6.5 mmol/L, before breakfast. Shall I save it?"])
        #expect(s.editable == "glucose 6.5 before breakfast")
        #expect(s.listening == .answer)
        s.send(.heard("after lunch"))
        #expect(s.said == ["6.5 mmol/L, after lunch. Shall I save it?"], "a meal said again replaces the first")
        s.send(.heard("yes"))
        let reading = try #require(s.saved)
        #expect(reading.level.mmolPerL == 6.5 && reading.tag == .afterLunch)
        #expect(reading.takenAt == now)
    }

    /// When the reading was taken may come after the read-back too, with its meal or alone, said
    /// or typed: it is read back again with that time, and saved at it.
    @Test func aTimeSaidAfterTheReadBackIsAddedAndReadBackAgain() throws {
        var s = Script()
        s.send(.heard("glucose six point five"))
        s.send(.heard("this morning"))
        #expect(s.saved == nil)
        #expect(s.said == ["6.5 mmol/L, today at 8:00 AM. Shall I save it?"])
        #expect(s.editable == "glucose 6.5 today at 8:00 AM")
        s.send(.heard("before breakfast yesterday"))
        #expect(s.said == ["6.5 mmol/L, before breakfast, yesterday at 2:00 PM. Shall I save it?"])
        s.send(.edited("last night"))
        #expect(s.editable == "glucose 6.5 before breakfast yesterday at 10:00 PM")
        s.send(.heard("yes"))
        let reading = try #require(s.saved)
        #expect(reading.tag == .beforeBreakfast)
        #expect(reading.takenAt == calendar.date(from: DateComponents(year: 2026, month: 11, day: 21, hour: 22)))
    }

    /// A time after the read-back that is still to come is said to be wrong; the reading waits
    /// as it was, and a yes saves it as it was read back.
    @Test func aFutureTimeAfterTheReadBackIsQuestionedAndLosesNothing() throws {
        var s = Script()
        s.send(.heard("glucose six point five"))
        s.send(.edited("at 11:30 pm"))
        #expect(s.said.first?.contains("in the future") == true, "\(s.said)")
        #expect(s.editable == "glucose 6.5")
        s.send(.heard("yes"))
        #expect(try #require(s.saved).takenAt == now)
    }

    /// A unit said after the read-back is the unit the number was in; one that does not fit the
    /// number is said to be wrong, and the reading waits as it was.
    @Test func aUnitSaidAfterTheReadBackIsTakenOrQuestioned() throws {
        var s = Script()
        s.send(.heard("sugar one hundred twenty"))
        s.send(.heard("milligrams per deciliter after lunch"))
        #expect(s.said == ["120 mg/dL, after lunch. Shall I save it?"])
        s.send(.heard("glucose six point five"))
        s.send(.heard("milligrams per deciliter"))
        #expect(s.said.first?.contains("sounds wrong") == true, "\(s.said)")
        #expect(s.editable == "glucose 6.5")
        s.send(.heard("yes"))
        #expect(try #require(s.saved).level.mmolPerL == 6.5)
    }

    /// Typed alone on the line, a meal is added the same way and the reading shown again: the
    /// whole of it was not on the line, so it is not taken as confirmed.
    @Test func aMealTypedAloneIsAddedAndShownAgain() throws {
        var s = Script()
        s.send(.typed("glucose 6.5"))
        s.send(.edited("fasting"))
        #expect(s.saved == nil)
        #expect(s.editable == "glucose 6.5 fasting")
        s.send(.edited("glucose 6.5 fasting"))
        #expect(try #require(s.saved).tag == .fasting)
    }

    /// With nothing waiting, a meal alone means nothing.
    @Test func aMealWithNoReadingIsNotUnderstood() {
        var s = Script()
        s.send(.heard("before breakfast"))
        #expect(s.said == ["Sorry, I didn't catch that."])
        #expect(s.listening == .reading)
    }

    /// The overview is the runtime's to say (it reads the store); the dialog asks for it and
    /// goes on listening. While a reading waits for its yes the question is not taken.
    @Test func askingHowItIsGoingAsksForTheOverviewOfThatPeriod() {
        var s = Script()
        s.send(.heard("how am i doing"))
        #expect(s.effects.first == .sayOverview(.days(7)))
        #expect(s.listening == .reading)
        s.send(.typed("what was my average last month"))
        #expect(s.effects.first == .sayOverview(.days(30)))
        s.send(.heard("glucose six point five"))
        s.send(.heard("how am i doing"))
        #expect(!s.effects.contains(.sayOverview(.days(7))))
        #expect(s.saved == nil)
    }

    /// A reading heard loosely is read back as a guess, its number digit by digit; the answer
    /// to it is taken as any other, and the next reading heard well is read back plainly.
    @Test func aLooselyHeardReadingIsReadBackAsAGuessDigitByDigit() throws {
        var s = Script()
        s.send(.heardUnsure("glucose six point five before breakfast"))
        #expect(s.said == ["I think you said 6.5 mmol/L, before breakfast. That is six, point, five. Is that right?"])
        #expect(s.spoken.first?.contains("six point five millimoles per litre") == true)
        #expect(s.editable == "glucose 6.5 before breakfast")
        s.send(.heardUnsure("yes"))
        #expect(try #require(s.saved).level.mmolPerL == 6.5)
        s.send(.heard("glucose seven point two"))
        #expect(s.said.first == "7.2 mmol/L. Shall I save it?")
        s.send(.heardUnsure("no"))
        s.send(.heardUnsure("glucose seven"))
        #expect(s.said.last == "I think you said 7 mmol/L. That is seven. Is that right?")
    }

    /// A yes that may have been a no saves nothing: the read-back is asked again.
    @Test func aDoubtfulYesSavesNothingAndAsksAgain() {
        var s = Script()
        s.send(.heard("glucose six point five before breakfast"))
        s.send(.heardDoubtfulYes("sure"))
        #expect(s.saved == nil)
        #expect(s.said.first == "I'm not sure that was a yes, so nothing is done yet.")
        #expect(s.said.contains("6.5 mmol/L, before breakfast. Shall I save it?"), "\(s.said)")
        #expect(s.listening == .answer)
        s.send(.heard("yes"))
        #expect(s.saved?.level.mmolPerL == 6.5)
    }

    @Test func askingWhatWasRecordedAsksForThatDay() {
        var s = Script()
        s.send(.heard("what did i record yesterday"))
        #expect(s.effects.first == .sayDay(daysAgo: 1))
        #expect(s.listening == .reading)
    }

    @Test func notUnderstoodSavesNothingAndGoesOn() {
        var s = Script()
        s.send(.heard("I have three cats"))
        #expect(s.said == ["Sorry, I didn't catch that."])
        #expect(s.saved == nil)
        #expect(s.listening == .reading)
        s.send(.typed("glucose 5.5"))
        #expect(s.editable == "glucose 5.5")
    }

    /// A yes with nothing read back (a reading turned away is often answered so) saves nothing
    /// and says why; so do a no and a typed yes. A reading said then is read back as usual.
    @Test func anAnswerWithNothingReadBackSavesNothingAndSaysSo() {
        var s = Script()
        s.send(.heard("I have three cats"))
        s.send(.heard("yes"))
        #expect(s.said == ["Nothing is waiting to be saved. If you told me a reading, please say it again."])
        #expect(s.saved == nil)
        #expect(s.listening == .reading)
        for answer in [DialogEvent.heard("no thanks"), .typed("yes"), .heard("cancel")] {
            s.send(answer)
            #expect(s.said == ["Nothing is waiting to be saved. If you told me a reading, please say it again."], "\(answer)")
            #expect(s.saved == nil)
        }
        s.send(.heard("glucose six point five before breakfast"))
        #expect(s.said.contains("6.5 mmol/L, before breakfast. Shall I save it?"), "\(s.said)")
        s.send(.heard("yes"))
        #expect(s.saved?.level.mmolPerL == 6.5)
    }

    @Test(arguments: ["glucose 0.299", "glucose 65 mmol", "glucose 700", "glucose 6.5 mg/dl", "glucose 0.5"])
    func implausibleValuesAreAskedAgain(_ text: String) {
        var s = Script()
        s.send(.typed(text))
        #expect(s.saved == nil)
        #expect(s.said.first?.contains("sounds wrong") == true)
        #expect(s.dialog.state == .idle)
    }

    @Test func theDecimalPointIsNeverLost() {
        var s = Script()
        s.send(.typed("glucose 0.299"))
        #expect(s.said.first?.hasPrefix("0.299 ") == true)
        #expect(s.spoken.first?.hasPrefix("zero point two nine nine") == true)
    }

    @Test func repeatSaysTheReadBackAgain() {
        var s = Script()
        s.send(.heard("glucose six point five"))
        let first = s.said
        s.send(.heard("repeat"))
        #expect(s.said == first)
        #expect(s.saved == nil)
        #expect(s.dialog.state != .idle)
    }

    @Test func bareNumbersTakeTheUnitThatFits() throws {
        var s = Script(preferredUnit: .mmolPerL)
        s.send(.typed("98"))
        #expect(s.said.first == "98 mg/dL. Shall I save it?")
        s.send(.typed("yes"))
        #expect(abs(try #require(s.saved).level.mgPerDL - 98) < 1e-9)
    }

    @Test func theReadBackNamesANamedTime() {
        var s = Script()
        s.send(.typed("glucose 6.5 yesterday at 9 pm"))
        #expect(s.said.first == "6.5 mmol/L, yesterday at 9:00 PM. Shall I save it?")
        #expect(s.editable == "glucose 6.5 yesterday at 9:00 PM")
    }

    @Test func futureTimesAreAskedAgain() {
        var s = Script()
        s.send(.typed("glucose 6.5 at 11 pm today"))
        #expect(s.said.first == "That time is in the future. Please say the reading again.")
    }

    @Test func emergencyWordsInterruptAConfirmation() {
        var s = Script()
        s.send(.heard("glucose six point five"))
        s.send(.heard("help"))
        #expect(s.effects.first == .showEmergency)
        #expect(s.saved == nil)
        #expect(s.editable == "glucose 6.5")
    }

    /// In noise an answer was heard as "bye": a spoken goodbye that would drop what waits for a
    /// yes is asked about first, and "no" (or anything but yes) asks for the yes again.
    @Test func aSpokenGoodbyeBeforeTheYesAsksFirst() {
        var s = Script()
        s.send(.heard("glucose six point five before breakfast"))
        s.send(.heard("bye"))
        #expect(s.said == ["Do you want to leave now? What I just read back is not saved yet. Say yes to leave, or no to go on."])
        #expect(s.listening == .confirmation)
        #expect(!s.effects.contains(.exit))
        s.send(.heard("no"))
        #expect(s.said.contains("6.5 mmol/L, before breakfast. Shall I save it?"), "\(s.said)")
        #expect(s.listening == .answer)
        s.send(.heard("yes"))
        #expect(s.saved?.level.mmolPerL == 6.5)
    }

    @Test(arguments: ["yes", "goodbye"])
    func yesToLeavingLeavesItUnsaved(_ answer: String) {
        var s = Script()
        s.send(.heard("glucose six point five"))
        s.send(.heard("goodbye"))
        s.send(.heard(answer))
        #expect(s.said == ["Not saved.", "Goodbye."], "\(s.said)")
        #expect(s.effects.last == .exit)
        #expect(s.saved == nil)
    }

    @Test func helpWhileAskedAboutLeavingIsGivenAndTheReadingStillWaits() {
        var s = Script()
        s.send(.heard("glucose six point five"))
        s.send(.heard("exit"))
        s.send(.heard("help me"))
        #expect(s.effects.first == .showEmergency)
        #expect(s.editable == "glucose 6.5")
        #expect(s.dialog.state.waitsForAYes)
    }

    /// Typed, and with nothing waiting, goodbye is meant as it is.
    @Test func aTypedGoodbyeOrOneWithNothingWaitingLeavesAtOnce() {
        var typed = Script()
        typed.send(.heard("glucose six point five"))
        typed.send(.typed("quit"))
        #expect(typed.effects.last == .exit)
        var idle = Script()
        idle.send(.heard("goodbye"))
        #expect(idle.effects.last == .exit)
    }

    @Test func endOfInputDuringAConfirmationSavesNothing() {
        var s = Script()
        s.send(.heard("glucose six point five"))
        s.send(.endOfInput)
        #expect(s.saved == nil)
        #expect(s.effects.last == .exit)
    }

    @Test func aFailedSaveIsReported() {
        var s = Script()
        s.send(.heard("glucose six point five"))
        _ = s.dialog.handle(.heard("yes"), now: now)
        let effects = s.dialog.handle(.saveFailed(reason: "disk full"), now: now)
        #expect(effects.first == .say(Message("I couldn't save that reading: disk full. Nothing that was saved before is lost.")))
    }
}

/// "Learn my voice" / "enroll again": asked back with what it takes; yes hands the phrases to the
/// runtime, no leaves the voice; what became of it is said, and a learned voice can be forgotten.
@Suite struct LearnVoiceDialogTests {
    static func hearing() -> Script {
        var script = Script()
        script.dialog.canLearnVoice = true
        return script
    }

    @Test func learningIsAskedBackAndStartedOnYes() {
        var script = Self.hearing()
        script.send(.heard("learn my voice"))
        #expect(script.said == ["Shall I learn your voice now? You say 20 short phrases after me; it takes about two minutes. Say yes or no."])
        #expect(script.listening == .confirmation)
        #expect(!script.effects.contains(.learnVoice), "not before a yes")
        script.send(.heard("yes"))
        #expect(script.effects == [.learnVoice])
        script.send(.voiceLearned(.learned(recordings: 19, seconds: 41)))
        #expect(script.said.first == "Done. I learned your voice from 19 recordings (41 seconds of speech) and use it from now on.")
        #expect(script.listening == .reading)
        #expect(script.dialog.hasLearnedVoice)
        script.send(.heard("forget my voice"))
        #expect(script.said.contains("Shall I forget your voice and use the general voice model from now on? Say yes or no."),
                "a voice just learned can be forgotten")
    }

    /// Learning again says that the voice known now stays if it does not work.
    @Test func learningAgainSaysTheVoiceKnownNowIsKept() {
        var script = Self.hearing()
        script.dialog.hasLearnedVoice = true
        script.send(.typed("enroll again"))
        #expect(script.said.first?.hasPrefix("Shall I learn your voice again?") == true)
        #expect(script.said.first?.contains("If it doesn't work, I keep the voice I know now.") == true)
    }

    /// No and cancel leave the voice as it is, whether learning or forgetting it was asked.
    @Test(arguments: ["no", "cancel"], [
        ("learn my voice", "All right, I won't learn your voice now.", DialogEffect.learnVoice),
        ("use the general voice", "I kept your voice.", DialogEffect.forgetVoice),
    ])
    func noLeavesTheVoice(_ answer: String, _ asked: (request: String, sentence: String, effect: DialogEffect)) {
        var script = Self.hearing()
        script.dialog.hasLearnedVoice = true
        script.send(.typed(asked.request))
        script.send(.typed(answer))
        #expect(script.said.first == asked.sentence)
        #expect(!script.effects.contains(asked.effect))
        #expect(script.listening == .reading)
    }

    /// Nothing learned keeps what there was: too few clear phrases, no microphone, a failure.
    @Test func whatWentWrongIsSaidAndNothingChanges() {
        let outcomes: [(VoiceLearning, String)] = [
            (.tooFew(heard: 3), "I heard only 3 of the phrases clearly, too few to learn from. Nothing changed; please try again somewhere quieter."),
            (.noMicrophone(reason: "the device is busy"), "Learning your voice needs a microphone: the device is busy."),
            (.failed(reason: "bw failed"), "I couldn't learn your voice: bw failed. Nothing changed."),
        ]
        for (outcome, sentence) in outcomes {
            var script = Self.hearing()
            script.send(.heard("learn my voice"))
            script.send(.heard("yes"))
            script.send(.voiceLearned(outcome))
            #expect(script.said.first == sentence)
            #expect(!script.dialog.hasLearnedVoice)
            #expect(script.listening == .reading)
        }
    }

    /// A session that cannot hear the phrases says so at once, rather than asking first.
    @Test func withoutAMicrophoneItSaysWhyNot() {
        var script = Script()
        script.send(.typed("learn my voice"))
        #expect(script.said.first?.hasPrefix("I can't learn your voice in this session: there is no microphone to hear you.") == true)
        #expect(!script.effects.contains(.learnVoice))
        #expect(script.listening == .reading)
    }

    /// While learning or forgetting the voice is asked, help and goodbye work as everywhere.
    @Test(arguments: [("learn my voice", "All right, I won't learn your voice now."),
                      ("forget my voice", "I kept your voice.")])
    func helpAndGoodbyeStillWork(_ request: String, _ leftAlone: String) {
        var script = Self.hearing()
        script.dialog.hasLearnedVoice = true
        script.send(.heard(request))
        script.send(.heard("help me"))
        #expect(script.effects.contains(.showEmergency))
        #expect(script.listening == .confirmation, "the question still waits")
        script.send(.heard("goodbye"))
        #expect(script.said.first == leftAlone)
        #expect(script.effects.last == .exit)
    }

    @Test func chineseSaysItToo() {
        let parser = UtteranceParser(table: chinese)
        #expect(parser.parse("学习我的声音") == .learnVoice)
        #expect(parser.parse("重新学习我的声音") == .learnVoice)
        #expect(UtteranceParser(table: english).parse("learn my voice again") == .learnVoice)
        #expect(UtteranceParser(table: english).parse("forget my voice") == .forgetVoice)
    }
}

/// "Forget my voice", said anywhere a reading may be: asked back first; yes has the runtime
/// forget it, no keeps it, and what became of it is said.
@Suite struct ForgetVoiceDialogTests {
    static func withLearnedVoice() -> Script {
        var script = Script()
        script.dialog.hasLearnedVoice = true
        return script
    }

    /// "forget my voice", yes, and what the runtime answers.
    static func forget(_ script: inout Script, outcome: VoiceForgetting) {
        script.send(.heard("forget my voice"))
        script.send(.heard("yes"))
        script.send(.voiceForgotten(outcome))
    }

    /// Without a learned voice there is no question: there is nothing to forget.
    @Test func withoutALearnedVoiceThereIsNothingToAsk() {
        var script = Script()
        script.send(.heard("forget my voice"))
        #expect(script.said.first == "I haven't learned your voice, so there is nothing to forget.")
        #expect(!script.effects.contains(.forgetVoice))
        #expect(script.listening == .reading)
    }

    /// Once forgotten, asking again finds nothing to forget; a failure leaves the voice to ask about.
    @Test func afterForgettingThereIsNothingLeft() {
        var script = Self.withLearnedVoice()
        Self.forget(&script, outcome: .failed(reason: "the disk is read-only"))
        #expect(script.dialog.hasLearnedVoice)
        Self.forget(&script, outcome: .forgotten)
        #expect(!script.dialog.hasLearnedVoice)
        script.send(.heard("forget my voice"))
        #expect(script.said.first == "I haven't learned your voice, so there is nothing to forget.")
    }

    @Test func forgettingTheVoiceIsAskedBackAndDoneOnYes() {
        var script = Self.withLearnedVoice()
        script.send(.heard("forget my voice"))
        #expect(script.said.contains("Shall I forget your voice and use the general voice model from now on? Say yes or no."))
        #expect(script.listening == .confirmation)
        #expect(!script.effects.contains(.forgetVoice), "not before a yes")
        script.send(.heard("yes"))
        #expect(script.effects == [.forgetVoice])
        script.send(.voiceForgotten(.forgotten))
        #expect(script.said.first == "I forgot your voice. From now on I use the general one.")
        #expect(script.listening == .reading)
        script.send(.heard("glucose six point five"))
        #expect(script.said.first == "6.5 mmol/L. Shall I save it?", "back to readings")
    }

    @Test func whatBecameOfItIsSaid() {
        var nothing = Self.withLearnedVoice()
        Self.forget(&nothing, outcome: .nothingStored)
        #expect(nothing.said.first == "I haven't learned your voice, so there is nothing to forget.")
        var failed = Self.withLearnedVoice()
        Self.forget(&failed, outcome: .failed(reason: "the disk is read-only"))
        #expect(failed.said.first == "I couldn't forget your voice: the disk is read-only. Nothing changed.")
    }

    @Test func chineseSaysItToo() {
        let parser = UtteranceParser(table: chinese)
        #expect(parser.parse("忘掉我的声音") == .forgetVoice)
        #expect(parser.parse("用通用的声音") == .forgetVoice)
        #expect(UtteranceParser(table: english).parse("use the general voice") == .forgetVoice)
        #expect(UtteranceParser(table: english).parse("my voice") == .unknown)
    }
}
