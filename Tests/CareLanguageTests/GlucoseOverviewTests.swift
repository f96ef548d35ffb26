import CareModel
import Foundation
import Testing
@testable import CareLanguage

@Suite struct GlucoseOverviewTests {
    static let overview = GlucoseOverview(book: Phrasebook(table: Fixtures.english, calendar: Fixtures.calendar), unit: .mmolPerL)

    static func readings(_ values: [Double], tag: MealTag? = nil, day: Int = 1) -> [GlucoseReading] {
        values.enumerated().map { index, value in
            GlucoseReading(takenAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(index) * 86_400 * Double(day)), utcOffsetSeconds: 0,
                           level: GlucoseLevel(value, .mmolPerL), tag: tag, source: .voice)
        }
    }

    /// Five readings on five days: 3.5 is the one low, 11.0 the one high; the week before averaged 8.0.
    @Test func theSpokenSummarySaysHowManyTheAverageTheExtremesAndTheChange() {
        let now = GlucoseAnalysis(Self.readings([3.5, 6.0, 7.0, 7.5, 11.0]))
        let before = GlucoseAnalysis(Self.readings([8.0, 8.0]))
        let lines = Self.overview.spoken(now, range: .weeks(1), previous: before)
        #expect(lines.map(\.display) == [
            "In the last week: 5 readings on 5 days.",
            "Average 7 mmol/L; lowest 3.5, highest 11.",
            "1 below 3.9, 1 above 10.",
            "That is 1 mmol/L lower than the period before, when the average was 8 mmol/L.",
        ])
        #expect(lines[1].spoken == "Average seven millimoles per litre; lowest three point five, highest eleven.")
    }

    @Test func anEmptyPeriodSaysSoAndNothingElse() {
        let lines = Self.overview.written(GlucoseAnalysis([]), range: .days(30), previous: GlucoseAnalysis([]))
        #expect(lines.map(\.display) == ["There are no readings in the last 30 days."])
    }

    @Test func aChangeSmallerThanTheMeterShowsIsTheSame() {
        let lines = Self.overview.spoken(GlucoseAnalysis(Self.readings([7.02])), range: .all, previous: GlucoseAnalysis(Self.readings([7.0])))
        #expect(lines.last?.display == "About the same as the period before, when the average was 7 mmol/L.")
        #expect(lines.first?.display == "In all your readings: one reading on one day.")
    }

    /// The written overview adds the consensus shares (said to be shares of readings), the
    /// variation, the meal groups and the pattern, worded as a pattern.
    @Test func theWrittenOverviewAddsSharesVariationMealsAndPatterns() {
        let before = Self.readings([5.0, 6.0, 7.0], tag: .beforeBreakfast)
        let after = Self.readings([8.0, 9.0, 16.0], tag: .afterDinner)
        let lines = Self.overview.written(GlucoseAnalysis(before + after), range: .days(30), previous: nil).map(\.display)
        #expect(lines.contains("In the target range, 3.9 to 10: 83 percent. Below 3.9: 0 percent, of them below 3: 0 percent. Above 10: 17 percent, of them above 13.9: 17 percent."))
        #expect(lines.contains { $0.hasPrefix("These are shares of your readings, not of the day") })
        #expect(lines.contains("Before meals the average was 6 mmol/L (3 readings); after meals 11 (3)."))
        #expect(lines.contains { $0.hasPrefix("Variation (coefficient of variation): 46 percent; 36 or less is the target. Glucose management indicator: 7.0 percent.") })
        #expect(lines.contains { $0.hasPrefix("2 readings higher than usual for that meal") && $0.hasSuffix("not a diagnosis.") })
        #expect(!lines.contains { $0.contains("lower than the period before") }, "nothing to compare with")
    }

    @Test func milligramsAreShownWithTheirOwnLimits() {
        let overview = GlucoseOverview(book: Self.overview.book, unit: .mgPerDL)
        let lines = overview.spoken(GlucoseAnalysis(Self.readings([6.5])), range: .days(30), previous: nil).map(\.display)
        #expect(lines == ["In the last 30 days: one reading on one day.", "Average 117 mg/dL; lowest 117, highest 117.", "0 below 70, 0 above 180."])
    }
}

@Suite struct OverviewRequestTests {
    static let parser = UtteranceParser(table: Fixtures.english)

    @Test(arguments: [("how am I doing", ReportRange.days(7)), ("How am I doing this week?", .days(7)),
                      ("what was my average last month", .days(30)), ("how is my sugar today", .days(1)),
                      ("how are my readings in the last three months", .months(3)), ("give me a summary", .days(7)),
                      ("what is my average this year", .years(1))])
    func aQuestionAndItsPeriodAreAnOverview(_ text: String, _ range: ReportRange) {
        #expect(Self.parser.parse(text) == .overview(range))
    }

    /// Only the periods the table names: an unknown one is not guessed at.
    @Test(arguments: ["how am i doing tomorrow", "doing how am i", "my average", "how am i"])
    func anythingElseIsNotAnOverview(_ text: String) {
        #expect(Self.parser.parse(text) == .unknown)
    }
}

@Suite struct RecallRequestTests {
    static let parser = UtteranceParser(table: Fixtures.english)

    @Test(arguments: [("what did I record yesterday", 1), ("What did I record?", 0), ("what did i save today", 0),
                      ("read me my day", 0), ("what have i recorded yesterday", 1)])
    func aQuestionAboutADayIsARecall(_ text: String, _ daysAgo: Int) {
        #expect(Self.parser.parse(text) == .recall(daysAgo: daysAgo))
    }

    @Test(arguments: ["what did i record last week", "what did i record tomorrow", "record yesterday"])
    func otherDaysAreNotGuessedAt(_ text: String) {
        // ("Record yesterday" is a time alone: after a read-back, when that reading was taken.)
        if case .recall = Self.parser.parse(text) { Issue.record("\"\(text)\" was taken for a recall") }
    }

    /// The same words read a day back, readings and notes in time order on their own clocks.
    @Test func aDayIsToldInTheOrderThingsHappened() {
        let book = Phrasebook(table: Fixtures.english, calendar: Fixtures.calendar)
        let day = CalendarDay(year: 2026, month: 11, day: 21)
        let morning = Date(timeIntervalSince1970: 1_795_244_400)   // 2026-11-21 07:00 UTC = 23:00 the day before at -8
        let reading = GlucoseReading(takenAt: morning.addingTimeInterval(12 * 3600), utcOffsetSeconds: -8 * 3600,
                                     level: GlucoseLevel(6.5, .mmolPerL), tag: .beforeLunch, source: .voice)
        let note = DiaryEntry(id: 4, takenAt: morning.addingTimeInterval(8 * 3600), utcOffsetSeconds: -8 * 3600,
                              title: "Breakfast", body: "porridge", tags: ["breakfast", "grandson visit"])
        let lines = book.day(day, readings: [reading], notes: [note], unit: .mmolPerL).map(\.display)
        #expect(lines == ["21 November 2026:", "07:00  note 4: Breakfast. porridge. Tags: breakfast, grandson visit.",
                          "11:00  glucose 6.5 mmol/L, before lunch"])
        #expect(book.day(day.adding(days: -1), readings: [reading], notes: [note], unit: .mmolPerL).map(\.display)
                == ["Nothing was recorded on 20 November 2026."])
    }
}
