import CareLanguage
import CareModel
import Foundation
import Testing
@testable import CareReport

@Suite struct ReportContentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let book = Phrasebook(table: try! ResourceLocator(root: root).loadLocale("en"))
    static let utc = TimeZone(identifier: "UTC")!

    static func reading(_ value: Double, hoursAgo: Double, tag: MealTag?, offsetHours: Int = 0) -> GlucoseReading {
        GlucoseReading(takenAt: Date(timeIntervalSince1970: 1_800_000_000 - hoursAgo * 3600), utcOffsetSeconds: offsetHours * 3600,
                       level: GlucoseLevel(value, .mmolPerL), tag: tag, source: .voice)
    }

    @Test func withoutReadingsThereIsTheSummaryAndNothingToDraw() {
        let content = ReportContent.make(current: GlucoseAnalysis([]), previous: nil, range: .days(30), interval: nil, name: nil,
                                         unit: .mmolPerL, book: Self.book, now: Date(timeIntervalSince1970: 1_800_000_000), timeZone: Self.utc)
        #expect(content.title == "Blood glucose report")
        #expect(content.summary == ["There are no readings in the last 30 days."])
        #expect(content.chart == nil && content.hours == nil && content.readings == nil)
        #expect(!content.header.contains { $0.hasPrefix("For ") }, "no name, no line for it")
    }

    /// Rows oldest first, each in the clock of where it was taken; the chart's scale reaches
    /// above the highest reading; notes mark the pattern.
    @Test func everyReadingIsARowInItsOwnClock() throws {
        let readings = [Self.reading(6.0, hoursAgo: 30, tag: .beforeBreakfast), Self.reading(5.0, hoursAgo: 20, tag: .beforeBreakfast),
                        Self.reading(7.0, hoursAgo: 2, tag: .beforeBreakfast, offsetHours: -8),
                        Self.reading(21.3, hoursAgo: 1, tag: nil)]
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let content = ReportContent.make(current: GlucoseAnalysis(readings), previous: nil, range: .days(7),
                                         interval: ReportRange.days(7).interval(endingAt: now, calendar: Calendar(identifier: .gregorian)),
                                         name: "Anna Li", unit: .mmolPerL, book: Self.book, now: now, timeZone: Self.utc)
        #expect(content.header.first == "For Anna Li")
        let rows = try #require(content.readings?.rows)
        #expect(rows.map { $0[2] } == ["6", "5", "7", "21.3"])
        #expect(rows[2][0...1] == ["2027-01-14", "22:00"], "the -8 hours clock: \(rows[2])")
        #expect(rows[2][4] == "higher than usual" && rows[0][4] == "")
        #expect(rows[3][3] == "", "untagged")
        let chart = try #require(content.chart)
        #expect(chart.scale.upperBound >= 21.3 && chart.band == 3.9...10.0)
        #expect(chart.points.count == 4)
        #expect(content.hours?.rows.map { $0[0] } == ["02:00", "07:00", "12:00", "22:00"], "1_800_000_000 is 2027-01-15 08:00 UTC")
        #expect(chart.notes.isEmpty && !chart.legend.contains("triangle"))
    }

    /// Diary notes inside the period are marked on the chart, and the legend says what the marks are.
    @Test func diaryNotesInThePeriodAreMarked() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let inside = now.addingTimeInterval(-3 * 86_400), outside = now.addingTimeInterval(-40 * 86_400)
        let content = ReportContent.make(current: GlucoseAnalysis([Self.reading(6.0, hoursAgo: 30, tag: nil)]), previous: nil,
                                         range: .days(30), interval: ReportRange.days(30).interval(endingAt: now, calendar: Calendar(identifier: .gregorian)),
                                         name: nil, unit: .mmolPerL, book: Self.book, now: now, notes: [inside, outside], timeZone: Self.utc)
        let chart = try #require(content.chart)
        #expect(chart.notes == [inside])
        #expect(chart.legend.hasSuffix("each triangle at the bottom is a diary note."))
    }
}
