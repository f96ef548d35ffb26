import Foundation
import Testing
@testable import CareModel

@Suite struct ReportRangeTests {
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/Vancouver")!
        return calendar
    }()

    @Test(arguments: [("30d", ReportRange.days(30)), ("2w", .weeks(2)), ("3m", .months(3)), ("6M", .months(6)),
                      ("1y", .years(1)), ("all", .all), (" ALL ", .all)])
    func rangesAreWrittenAsACountAndAUnit(_ text: String, _ range: ReportRange) {
        #expect(ReportRange(text) == range)
        #expect(ReportRange(range.description) == range)
    }

    @Test(arguments: ["", "30", "d", "0d", "-3m", "3x", "1.5y", "99999999y", "forever"])
    func anythingElseIsNotARange(_ text: String) {
        #expect(ReportRange(text) == nil)
    }

    /// Months are calendar months: three months before 31 May is 28 February (no 31st), and a
    /// week is seven days across the change from summer time.
    @Test func intervalsEndNowAndStartThatFarBack() throws {
        let may31 = try #require(Self.calendar.date(from: DateComponents(year: 2026, month: 5, day: 31, hour: 12)))
        let three = try #require(ReportRange.months(3).interval(endingAt: may31, calendar: Self.calendar))
        #expect(three.end == may31)
        #expect(Self.calendar.dateComponents([.year, .month, .day, .hour], from: three.start)
                == DateComponents(year: 2026, month: 2, day: 28, hour: 12))
        let nov5 = try #require(Self.calendar.date(from: DateComponents(year: 2026, month: 11, day: 5, hour: 9)))
        let week = try #require(ReportRange.weeks(1).interval(endingAt: nov5, calendar: Self.calendar))
        #expect(Self.calendar.dateComponents([.month, .day, .hour], from: week.start) == DateComponents(month: 10, day: 29, hour: 9))
        #expect(ReportRange.all.interval(endingAt: nov5, calendar: Self.calendar) == nil)
    }
}
