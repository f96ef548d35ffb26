import Foundation
import Testing
@testable import CareModel

@Suite struct GlucoseAnalysisTests {
    /// A reading at a local time (UTC offset in hours), in mmol/L unless a unit is given.
    static func reading(_ value: Double, _ unit: GlucoseUnit = .mmolPerL, _ tag: MealTag? = nil,
                        at local: String = "2026-11-02 07:30", offsetHours: Int = 0) -> GlucoseReading {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: offsetHours * 3600)
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return GlucoseReading(takenAt: formatter.date(from: local)!, utcOffsetSeconds: offsetHours * 3600,
                              level: GlucoseLevel(value, unit), tag: tag, source: .keyboard)
    }

    static func close(_ a: Double?, _ b: Double, within tolerance: Double = 1e-9) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= tolerance
    }

    @Test func anEmptyRangeHasNoNumbersToInvent() {
        let analysis = GlucoseAnalysis([])
        #expect(analysis.all == GlucoseStatistics([]))
        #expect(analysis.all.count == 0 && analysis.all.mean == nil && analysis.all.standardDeviation == nil)
        #expect(analysis.consensus.inRange == 0 && analysis.consensus.daysWithData == 0)
        #expect(analysis.consensus.glucoseManagementIndicator == nil && analysis.consensus.coefficientOfVariation == nil)
        #expect(analysis.hourOfDay.isEmpty && analysis.byMonth.isEmpty)
    }

    /// One reading: a mean, but no spread. GMI for 7.0 mmol/L (126.112 mg/dL): 3.31 + 0.02392 x 126.112.
    @Test func oneReadingHasAMeanButNoSpread() {
        let analysis = GlucoseAnalysis([Self.reading(7.0)])
        #expect(analysis.all.mean == 7.0 && analysis.all.lowest == 7.0 && analysis.all.highest == 7.0)
        #expect(analysis.all.standardDeviation == nil && analysis.consensus.coefficientOfVariation == nil)
        #expect(Self.close(analysis.consensus.glucoseManagementIndicator, 6.32659904, within: 1e-6))
        #expect(analysis.consensus.inRange == 1 && analysis.consensus.daysWithData == 1)
    }

    /// 5, 6, 7 and 10 by hand: mean 7, sample variance (4 + 1 + 0 + 9) / 3, CV = sd / mean.
    @Test func meanSampleDeviationAndVariationAreTheTextbookOnes() {
        let analysis = GlucoseAnalysis([5.0, 6.0, 7.0, 10.0].map { Self.reading($0) })
        #expect(analysis.all.mean == 7.0)
        #expect(Self.close(analysis.all.standardDeviation, (14.0 / 3).squareRoot()))
        #expect(Self.close(analysis.consensus.coefficientOfVariation, (14.0 / 3).squareRoot() / 7 * 100))
    }

    /// The consensus writes each limit in both units (70 mg/dL is 3.885 mmol/L): a meter showing
    /// the limit itself, in either unit, is in range.
    @Test(arguments: [
        (70.0, GlucoseUnit.mgPerDL, "in"), (69, .mgPerDL, "low"), (3.9, .mmolPerL, "in"), (3.8, .mmolPerL, "low"),
        (54, .mgPerDL, "low"), (53, .mgPerDL, "very low"), (3.0, .mmolPerL, "low"), (2.9, .mmolPerL, "very low"),
        (180, .mgPerDL, "in"), (181, .mgPerDL, "high"), (10.0, .mmolPerL, "in"), (10.1, .mmolPerL, "high"),
        (250, .mgPerDL, "high"), (251, .mgPerDL, "very high"), (13.9, .mmolPerL, "high"), (14.0, .mmolPerL, "very high"),
    ])
    func eachLimitHoldsInBothUnits(_ value: Double, _ unit: GlucoseUnit, _ expected: String) {
        let c = GlucoseAnalysis([Self.reading(value, unit)]).consensus
        let band = c.veryLow == 1 ? "very low" : c.belowRange == 1 ? "low" : c.veryHigh == 1 ? "very high"
            : c.aboveRange == 1 ? "high" : c.inRange == 1 ? "in" : "none"
        #expect(band == expected, "\(value) \(unit.rawValue)")
    }

    @Test func sharesAddUpAndNestTheSevereBands() {
        let values = [2.5, 3.5, 5.0, 6.0, 8.0, 9.9, 11.0, 15.0]
        let c = GlucoseAnalysis(values.map { Self.reading($0) }).consensus
        #expect(c.inRange == 4.0 / 8 && c.belowRange == 2.0 / 8 && c.veryLow == 1.0 / 8)
        #expect(c.aboveRange == 2.0 / 8 && c.veryHigh == 1.0 / 8)
        #expect(c.inRange + c.belowRange + c.aboveRange == 1)
    }

    /// A reading late on 31 October in Vancouver is 1 November in UTC: it belongs to October.
    @Test func monthsAndDaysAreWhereTheReadingWasTaken() {
        let readings = [Self.reading(6.0, at: "2026-10-31 23:30", offsetHours: -7),
                        Self.reading(8.0, at: "2026-11-01 07:00", offsetHours: -7),
                        Self.reading(9.0, at: "2026-11-01 19:00", offsetHours: -7)]
        let analysis = GlucoseAnalysis(readings)
        #expect(analysis.byMonth.map(\.month.description) == ["2026-10", "2026-11"])
        #expect(analysis.byMonth.map(\.analysis.all.count) == [1, 2])
        #expect(analysis.byMonth.last?.analysis.all.mean == 8.5)
        #expect(analysis.consensus.daysWithData == 2)
        #expect(analysis.hourOfDay.map(\.hour) == [7, 19, 23])
    }

    /// mg/dL readings are analysed in the same canonical mmol/L: 90 and 126 mg/dL average 108.
    @Test func milligramReadingsJoinTheSameStatistics() {
        let analysis = GlucoseAnalysis([Self.reading(90, .mgPerDL), Self.reading(126, .mgPerDL)])
        #expect(Self.close(analysis.all.mean.map { GlucoseLevel(mmolPerL: $0).mgPerDL }, 108))
    }

    /// Before meals 5, 6, 7 (mean 6, sd 1): 7 is higher than usual, 6.9 is not; after meals is
    /// its own group; bedtime belongs to neither.
    @Test func higherThanUsualComparesWithTheReadingsOwnMealGroup() {
        let before = [5.0, 6.0, 7.0].map { Self.reading($0, .mmolPerL, .beforeBreakfast) }
        let after = [9.0, 10.0, 11.0].map { Self.reading($0, .mmolPerL, .afterDinner) }
        let bedtime = Self.reading(20.0, .mmolPerL, .bedtime)
        let analysis = GlucoseAnalysis(before + after + [bedtime])
        #expect(analysis.beforeMeals.mean == 6.0 && analysis.afterMeals.mean == 10.0)
        #expect(analysis.isHigherThanUsual(before[2]))
        #expect(!analysis.isHigherThanUsual(Self.reading(6.9, .mmolPerL, .fasting)))
        #expect(!analysis.isHigherThanUsual(after[1]), "10 is the after-meal mean, not high for after a meal")
        #expect(analysis.isHigherThanUsual(after[2]))
        #expect(!analysis.isHigherThanUsual(bedtime), "no group to compare with")
    }

    /// At 7 o'clock 5, 6, 7, 8: quartiles by linear interpolation 5.75, 6.5, 7.25.
    @Test func eachHourHasItsMedianAndQuartiles() throws {
        let readings = [5.0, 8.0, 6.0, 7.0].enumerated().map { Self.reading($1, at: "2026-11-0\($0 + 1) 07:15") }
            + [Self.reading(9.0, at: "2026-11-01 12:00")]
        let hours = GlucoseAnalysis(readings).hourOfDay
        let seven = try #require(hours.first)
        #expect(seven == HourOfDayPattern(hour: 7, count: 4, lowerQuartile: 5.75, median: 6.5, upperQuartile: 7.25))
        #expect(hours.last == HourOfDayPattern(hour: 12, count: 1, lowerQuartile: 9, median: 9, upperQuartile: 9))
    }
}
