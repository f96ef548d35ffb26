import CareModel
import Foundation
import Testing
@testable import CareLanguage

/// One phrasing and what it must mean. Time is "now" or "yyyy-MM-dd HH:mm" in the
/// fixture's clock (Sunday 2026-11-22 14:00, Vancouver).
struct Phrasing: CustomTestStringConvertible, Sendable {
    let text: String
    let number: String
    let unit: GlucoseUnit?
    let tag: MealTag?
    let time: String
    var testDescription: String { text }

    init(_ text: String, _ number: String, _ unit: GlucoseUnit? = nil, _ tag: MealTag? = nil, at time: String = "now") {
        self.text = text; self.number = number; self.unit = unit; self.tag = tag; self.time = time
    }

    /// Records an issue unless `parser` reads the text as exactly this reading.
    func check(with parser: UtteranceParser) throws {
        guard case .glucose(let draft) = parser.parse(text) else {
            Issue.record("not understood as a reading: \(text) -> \(parser.parse(text))")
            return
        }
        #expect(draft.number == number)
        #expect(draft.unit == unit)
        #expect(draft.tag == tag)
        let when = try draft.time?.resolve(now: Fixtures.now, calendar: Fixtures.calendar) ?? Fixtures.now
        let expected = time == "now" ? Fixtures.now : Fixtures.date(time)
        #expect(when == expected, "time of \(text)")
    }
}

let mmol = GlucoseUnit.mmolPerL
let mg = GlucoseUnit.mgPerDL

let phrasings: [Phrasing] = [
    // The issue's own examples.
    Phrasing("glucose six point five", "6.5"),
    Phrasing("my blood sugar is one hundred twenty before breakfast", "120", nil, .beforeBreakfast),
    Phrasing("sugar 7.2 after dinner", "7.2", nil, .afterDinner),
    Phrasing("glucose 110 milligrams per deciliter fasting", "110", mg, .fasting),
    Phrasing("six point five millimoles at bedtime", "6.5", mmol, .bedtime),
    Phrasing("at seven thirty this morning glucose six point five", "6.5", at: "2026-11-22 07:30"),
    Phrasing("my sugar this morning was six point five", "6.5", at: "2026-11-22 08:00"),
    Phrasing("my blood sugar last night at ten was seven point two after dinner", "7.2", nil, .afterDinner, at: "2026-11-21 22:00"),
    Phrasing("glucose 6.5 yesterday at 9 pm", "6.5", at: "2026-11-21 21:00"),
    Phrasing("glucose 6.5 on 2026-05-01 at 07:30", "6.5", at: "2026-05-01 07:30"),
    // Decimals never lose or gain a point.
    Phrasing("glucose 0.299", "0.299"),
    Phrasing("glucose zero point two nine nine", "0.299"),
    Phrasing("point five", "0.5"),
    Phrasing("glucose .8", "0.8"),
    Phrasing("glucose 6.50", "6.50"),
    Phrasing("glucose 6,5", "6.5"),
    Phrasing("glucose 6.5.", "6.5"),
    Phrasing("glucose 6.5mmol", "6.5", mmol),
    Phrasing("glucose 6.5...", "6.5"),
    Phrasing("glucose 6 point 5", "6.5"),
    Phrasing("six point zero five", "6.05"),
    Phrasing("six point oh five", "6.05"),
    Phrasing("twelve point three", "12.3"),
    Phrasing("twenty point one", "20.1"),
    Phrasing("thirty three point three", "33.3"),
    Phrasing("glucose four point four four", "4.44"),
    Phrasing("glucose 10", "10"),
    Phrasing("glucose 10.0", "10.0"),
    // Whole numbers in words.
    Phrasing("one hundred and twenty", "120"),
    Phrasing("a hundred and twenty", "120"),
    Phrasing("a hundred", "100"),
    Phrasing("one hundred", "100"),
    Phrasing("hundred and five", "105"),
    Phrasing("one hundred five", "105"),
    Phrasing("one oh five", "105"),
    Phrasing("one twenty", "120"),
    Phrasing("one twenty five", "125"),
    Phrasing("two fifty", "250"),
    Phrasing("three hundred forty two", "342"),
    Phrasing("ninety eight", "98"),
    Phrasing("seventy", "70"),
    Phrasing("fifteen", "15"),
    Phrasing("eleven point one", "11.1"),
    Phrasing("five", "5"),
    Phrasing("six hundred", "600"),
    Phrasing("two hundred and nineteen", "219"),
    // Leads and fillers.
    Phrasing("blood glucose 5.4", "5.4"),
    Phrasing("blood sugar 5.4", "5.4"),
    Phrasing("my glucose is 5.4", "5.4"),
    Phrasing("my sugar was 5.4", "5.4"),
    Phrasing("glucose level 5.4", "5.4"),
    Phrasing("sugar level is 5.4", "5.4"),
    Phrasing("reading 5.4", "5.4"),
    Phrasing("my reading is 5.4", "5.4"),
    Phrasing("record glucose 5.4", "5.4"),
    Phrasing("log blood sugar 5.4 please", "5.4"),
    Phrasing("5.4", "5.4"),
    Phrasing("Glucose 5.4!", "5.4"),
    Phrasing("  GLUCOSE   5.4  ", "5.4"),
    Phrasing("It's 5.4", "5.4"),
    Phrasing("i had 5.4 before lunch", "5.4", nil, .beforeLunch),
    // Units, spoken and written.
    Phrasing("glucose 6.5 mmol/L", "6.5", mmol),
    Phrasing("glucose 6.5 mmol/l", "6.5", mmol),
    Phrasing("glucose 6.5 mmol", "6.5", mmol),
    Phrasing("glucose 6.5 millimoles per litre", "6.5", mmol),
    Phrasing("glucose 6.5 millimoles per liter", "6.5", mmol),
    Phrasing("glucose 6.5 millimole per litre", "6.5", mmol),
    Phrasing("glucose 120 mg/dL", "120", mg),
    Phrasing("glucose 120 mg/dl", "120", mg),
    Phrasing("glucose 120mg/dl", "120", mg),
    Phrasing("glucose 120 mg", "120", mg),
    Phrasing("glucose 120 milligrams", "120", mg),
    Phrasing("glucose 120 milligrams per decilitre", "120", mg),
    Phrasing("one hundred twenty milligrams per deciliter", "120", mg),
    Phrasing("six point five millimoles", "6.5", mmol),
    Phrasing("glucose 6.5 mg/dl", "6.5", mg),
    Phrasing("glucose 65 mmol", "65", mmol),
    // Tags, every one, before and after the number.
    Phrasing("glucose 5.1 before breakfast", "5.1", nil, .beforeBreakfast),
    Phrasing("glucose 7.9 after breakfast", "7.9", nil, .afterBreakfast),
    Phrasing("glucose 5.6 before lunch", "5.6", nil, .beforeLunch),
    Phrasing("glucose 8.1 after lunch", "8.1", nil, .afterLunch),
    Phrasing("glucose 5.9 before dinner", "5.9", nil, .beforeDinner),
    Phrasing("glucose 5.9 before supper", "5.9", nil, .beforeDinner),
    Phrasing("glucose 8.4 after dinner", "8.4", nil, .afterDinner),
    Phrasing("glucose 8.4 after supper", "8.4", nil, .afterDinner),
    Phrasing("glucose 5.0 fasting", "5.0", nil, .fasting),
    Phrasing("fasting glucose 5.0", "5.0", nil, .fasting),
    Phrasing("glucose 5.0 on an empty stomach", "5.0", nil, .fasting),
    Phrasing("glucose 6.7 at bedtime", "6.7", nil, .bedtime),
    Phrasing("glucose 6.7 bedtime", "6.7", nil, .bedtime),
    Phrasing("glucose 6.7 before bed", "6.7", nil, .bedtime),
    Phrasing("glucose 4.8 after exercise", "4.8", nil, .afterExercise),
    Phrasing("glucose 4.8 after exercising", "4.8", nil, .afterExercise),
    Phrasing("glucose 4.8 after a workout", "4.8", nil, .afterExercise),
    Phrasing("after my workout sugar 4.8", "4.8", nil, .afterExercise),
    Phrasing("before breakfast glucose six point one", "6.1", nil, .beforeBreakfast),
    Phrasing("after lunch my blood sugar was eight point two", "8.2", nil, .afterLunch),
    Phrasing("before dinner 102 mg/dl", "102", mg, .beforeDinner),
    Phrasing("at bedtime seven point four", "7.4", nil, .bedtime),
    Phrasing("blood sugar one hundred and forty after dinner", "140", nil, .afterDinner),
    Phrasing("glucose ninety five milligrams per deciliter before breakfast", "95", mg, .beforeBreakfast),
    Phrasing("glucose 6.5 mmol/L before breakfast", "6.5", mmol, .beforeBreakfast),
    Phrasing("glucose 6.5 before breakfast mmol/L", "6.5", mmol, .beforeBreakfast),
    // Times.
    Phrasing("glucose 6.5 now", "6.5", at: "now"),
    Phrasing("glucose 6.5 right now", "6.5", at: "now"),
    Phrasing("glucose 6.5 just now", "6.5", at: "now"),
    Phrasing("glucose 6.5 at 7:30", "6.5", at: "2026-11-22 07:30"),
    Phrasing("glucose 6.5 at 07:30", "6.5", at: "2026-11-22 07:30"),
    Phrasing("glucose 6.5 at 13:15", "6.5", at: "2026-11-22 13:15"),
    Phrasing("glucose 6.5 at 9", "6.5", at: "2026-11-22 09:00"),
    Phrasing("glucose 6.5 at 1", "6.5", at: "2026-11-22 13:00"),
    Phrasing("glucose 6.5 at 3", "6.5", at: "2026-11-22 03:00"),
    Phrasing("glucose 6.5 at 9 am", "6.5", at: "2026-11-22 09:00"),
    Phrasing("glucose 6.5 at 9am", "6.5", at: "2026-11-22 09:00"),
    Phrasing("glucose 6.5 at 9 a.m.", "6.5", at: "2026-11-22 09:00"),
    Phrasing("glucose 6.5 9 am", "6.5", at: "2026-11-22 09:00"),
    Phrasing("glucose 6.5 at 12 pm", "6.5", at: "2026-11-22 12:00"),
    Phrasing("glucose 6.5 at 7:30 am", "6.5", at: "2026-11-22 07:30"),
    Phrasing("glucose 6.5 at 7:30am", "6.5", at: "2026-11-22 07:30"),
    Phrasing("glucose 6.5 at seven", "6.5", at: "2026-11-22 07:00"),
    Phrasing("glucose 6.5 at seven o'clock", "6.5", at: "2026-11-22 07:00"),
    Phrasing("glucose 6.5 at seven a m", "6.5", at: "2026-11-22 07:00"),
    Phrasing("glucose 6.5 at seven thirty", "6.5", at: "2026-11-22 07:30"),
    Phrasing("glucose 6.5 at seven forty five", "6.5", at: "2026-11-22 07:45"),
    Phrasing("glucose 6.5 at seven oh five", "6.5", at: "2026-11-22 07:05"),
    Phrasing("glucose 6.5 at eleven fifteen", "6.5", at: "2026-11-22 11:15"),
    Phrasing("glucose 6.5 at twelve", "6.5", at: "2026-11-22 12:00"),
    Phrasing("glucose 6.5 at noon", "6.5", at: "2026-11-22 12:00"),
    Phrasing("glucose 6.5 at midnight", "6.5", at: "2026-11-22 00:00"),
    Phrasing("glucose 6.5 at seven in the morning", "6.5", at: "2026-11-22 07:00"),
    Phrasing("glucose 6.5 at one in the afternoon", "6.5", at: "2026-11-22 13:00"),
    Phrasing("glucose 6.5 this morning", "6.5", at: "2026-11-22 08:00"),
    Phrasing("glucose 6.5 this afternoon", "6.5", at: "2026-11-22 14:00"),
    Phrasing("glucose 6.5 at seven thirty this morning", "6.5", at: "2026-11-22 07:30"),
    Phrasing("glucose 6.5 this morning at seven thirty", "6.5", at: "2026-11-22 07:30"),
    Phrasing("glucose 6.5 today at 8", "6.5", at: "2026-11-22 08:00"),
    Phrasing("glucose 6.5 today", "6.5", at: "2026-11-22 14:00"),
    Phrasing("glucose 6.5 yesterday", "6.5", at: "2026-11-21 14:00"),
    Phrasing("glucose 6.5 yesterday at 9 am", "6.5", at: "2026-11-21 09:00"),
    Phrasing("glucose 6.5 yesterday at nine p m", "6.5", at: "2026-11-21 21:00"),
    Phrasing("glucose 6.5 yesterday at 9", "6.5", at: "2026-11-21 09:00"),
    Phrasing("glucose 6.5 yesterday at 2", "6.5", at: "2026-11-21 14:00"),
    Phrasing("glucose 6.5 yesterday at 21:30", "6.5", at: "2026-11-21 21:30"),
    Phrasing("glucose 6.5 last night", "6.5", at: "2026-11-21 22:00"),
    Phrasing("glucose 6.5 last night at eleven", "6.5", at: "2026-11-21 23:00"),
    Phrasing("yesterday at 9 pm glucose 6.5", "6.5", at: "2026-11-21 21:00"),
    Phrasing("glucose 6.5 on 2026-05-01", "6.5", at: "2026-05-01 14:00"),
    Phrasing("glucose 6.5 2026-05-01 12:30", "6.5", at: "2026-05-01 12:30"),
    Phrasing("on 2026-05-01 at 7:30 pm glucose 8.8", "8.8", at: "2026-05-01 19:30"),
    Phrasing("glucose 6.5 before breakfast yesterday at 7", "6.5", nil, .beforeBreakfast, at: "2026-11-21 07:00"),
    Phrasing("glucose 6.5 at 7:30 am before breakfast", "6.5", nil, .beforeBreakfast, at: "2026-11-22 07:30"),
    Phrasing("glucose 110 mg/dl fasting at 6:45 this morning", "110", mg, .fasting, at: "2026-11-22 06:45"),
    Phrasing("six point five millimoles at bedtime last night", "6.5", mmol, .bedtime, at: "2026-11-21 22:00"),
    Phrasing("blood sugar one hundred and twenty after dinner yesterday at eight p m", "120", nil, .afterDinner,
             at: "2026-11-21 20:00"),
    Phrasing("around 9 am glucose 5.5", "5.5", at: "2026-11-22 09:00"),
    // The assistant's own editable line parses back to the same reading.
    Phrasing("glucose 6.5 before breakfast", "6.5", nil, .beforeBreakfast),
    Phrasing("glucose 6.5 mmol/L at bedtime", "6.5", mmol, .bedtime),
    Phrasing("glucose 6.5 today at 7:30 AM", "6.5", at: "2026-11-22 07:30"),
    Phrasing("glucose 6.5 yesterday at 9:00 PM", "6.5", at: "2026-11-21 21:00"),
    Phrasing("glucose 6.5 on 2026-05-01 at 7:30 AM", "6.5", at: "2026-05-01 07:30"),
]

@Suite struct ReadingPhrasingTests {
    let parser = UtteranceParser(table: Fixtures.english)

    @Test func thereAreAtLeast150Phrasings() {
        #expect(phrasings.count >= 150)
    }

    @Test(arguments: phrasings)
    func phrasingMeansWhatItSays(_ p: Phrasing) throws {
        try p.check(with: parser)
    }
}

@Suite struct NotAReadingTests {
    let parser = UtteranceParser(table: Fixtures.english)

    @Test(arguments: [
        "I have three cats", "glucose", "hello there", "six point five and seven", "glucose 6.5 7.2",
        "glucose 6.5 before breakfast after dinner", "what time is it", "", "   ", "the weather is nice at seven",
        "glucose 6.5 mmol mg/dl",
        // A doubled point is a typo: 6.5, 65 or 6.55 is not guessed.
        "glucose 6..5 before breakfast", "glucose 7...2", "6..5",
    ])
    func isNotTakenForAReading(_ text: String) {
        #expect(parser.parse(text) == .unknown)
    }

    /// A time alone is no reading: after a read-back it says when that reading was taken.
    @Test func aTimeAloneIsADetailOfTheReadingBeforeIt() {
        #expect(parser.parse("at seven") == .readingDetails(ReadingDetails(time: TimeExpression(hour: 7))))
        #expect(parser.parse("before breakfast yesterday")
            == .readingDetails(ReadingDetails(tag: .beforeBreakfast, time: TimeExpression(day: .yesterday))))
    }

    @Test(arguments: [
        ("yes", Answer.yes), ("Yes.", .yes), ("yeah", .yes), ("save it", .yes), ("OK", .yes), ("that's right", .yes), ("that's correct", .yes),
        ("yes thank you", .yes), ("that is correct", .yes), ("That is right.", .yes), ("that is wrong", .no),
        ("that is not right", .no), ("that is not correct", .no),
        ("no", .no), ("nope", .no), ("wrong", .no), ("that's not right", .no), ("not correct", .no), ("no thanks", .no),
        ("no thank you", .no), ("don't save it", .no), ("do not save", .no), ("cancel", .cancel), ("never mind", .cancel),
        ("repeat", .repeat), ("say that again", .repeat),
    ])
    func answers(_ text: String, _ answer: Answer) {
        #expect(parser.parse(text) == .answer(answer))
    }

    @Test(arguments: ["help", "HELP!", "emergency", "call an ambulance", "glucose 2.1 help", "help me please",
                      "救命", "快叫救护车", "glucose 2.1 救命"])   // another language's, typed
    func emergencyWordsWinAnywhere(_ text: String) {
        #expect(parser.parse(text) == .emergency)
    }

    @Test(arguments: ["quit", "goodbye", "exit"])
    func quit(_ text: String) {
        #expect(parser.parse(text) == .quit)
    }
}

@Suite struct TimeResolutionTests {
    @Test func futureTimesAreRefused() {
        let time = TimeExpression(day: .today, hour: 9, minute: 0, meridiem: .pm)
        #expect(throws: TimeExpression.ResolutionError.inFuture) {
            try time.resolve(now: Fixtures.now, calendar: Fixtures.calendar)
        }
    }

    @Test func impossibleDatesAreRefused() {
        let time = TimeExpression(day: .date(year: 2026, month: 2, day: 30))
        #expect(throws: TimeExpression.ResolutionError.invalid) {
            try time.resolve(now: Fixtures.now, calendar: Fixtures.calendar)
        }
    }

    @Test func anHourLaterThanNowWithoutAmPmIsLastNight() throws {
        // Said at 00:30: "at 9" cannot be 09:00 or 21:00 today, so it is 21:00 yesterday.
        let now = Fixtures.date("2026-11-22 00:30")
        let time = TimeExpression(hour: 9)
        #expect(try time.resolve(now: now, calendar: Fixtures.calendar) == Fixtures.date("2026-11-21 21:00"))
    }
}
