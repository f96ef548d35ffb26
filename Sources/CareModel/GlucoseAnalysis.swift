import Foundation

/// Where a reading stands relative to a meal, for statistics kept separately before and after
/// meals (EasyGlucose's rule compares a reading with others of its own group).
public enum MealRelation: String, Sendable, CaseIterable {
    case beforeMeal, afterMeal
}

extension MealTag {
    /// Fasting counts as before a meal; bedtime and after exercise belong to neither group.
    public var mealRelation: MealRelation? {
        switch self {
        case .beforeBreakfast, .beforeLunch, .beforeDinner, .fasting: return .beforeMeal
        case .afterBreakfast, .afterLunch, .afterDinner: return .afterMeal
        case .bedtime, .afterExercise: return nil
        }
    }
}

/// Count, mean, sample standard deviation, lowest and highest of some readings, in mmol/L.
public struct GlucoseStatistics: Sendable, Equatable {
    public var count: Int
    public var mean: Double?
    /// Sample standard deviation (n - 1); nil below two readings.
    public var standardDeviation: Double?
    public var lowest: Double?
    public var highest: Double?

    public init(_ values: [Double]) {
        count = values.count
        lowest = values.min()
        highest = values.max()
        guard !values.isEmpty else { return }
        let mean = values.reduce(0, +) / Double(values.count)
        self.mean = mean
        if values.count >= 2 {
            let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
            standardDeviation = (squares / Double(values.count - 1)).squareRoot()
        }
    }

    /// Coefficient of variation in percent (standard deviation over mean); the consensus
    /// target is 36 % or less.
    public var coefficientOfVariation: Double? {
        guard let mean, let standardDeviation, mean > 0 else { return nil }
        return standardDeviation / mean * 100
    }
}

/// The glycaemic limits of the international consensus on time in range (Battelino et al.,
/// Diabetes Care 2019), each as the pair of values the two units use for it.
public enum GlycaemicLimit: Sendable, CaseIterable {
    case veryLow, low, high, veryHigh

    /// The limit in mmol/L and in mg/dL, as the consensus writes them.
    public var values: (mmolPerL: Double, mgPerDL: Double) {
        switch self {
        case .veryLow: return (3.0, 54)
        case .low: return (3.9, 70)
        case .high: return (10.0, 180)
        case .veryHigh: return (13.9, 250)
        }
    }

    /// Whether a level lies beyond this limit (below a low one, above a high one). The pairs
    /// are rounded equivalents (70 mg/dL is 3.885 mmol/L), so a level counts as beyond only
    /// when it is beyond in both units: a meter showing 70 mg/dL or 3.9 mmol/L is in range.
    public func isBeyond(_ level: GlucoseLevel) -> Bool {
        let mg = (level.mgPerDL * 1e6).rounded() / 1e6, mmol = (level.mmolPerL * 1e6).rounded() / 1e6
        switch self {
        case .veryLow, .low: return mmol < values.mmolPerL && mg < values.mgPerDL
        case .high, .veryHigh: return mmol > values.mmolPerL && mg > values.mgPerDL
        }
    }
}

/// The consensus metrics of some readings. With finger-stick readings these are shares of
/// readings, not of time: a report must say so.
public struct ConsensusMetrics: Sendable, Equatable {
    public var readings: Int
    /// Shares (0...1) of readings in 3.9-10.0 mmol/L, below 3.9, below 3.0, above 10.0, above 13.9.
    public var inRange: Double, belowRange: Double, veryLow: Double, aboveRange: Double, veryHigh: Double
    /// Glucose management indicator, % (3.31 + 0.02392 x mean in mg/dL); nil without readings.
    public var glucoseManagementIndicator: Double?
    /// Coefficient of variation, %; nil below two readings.
    public var coefficientOfVariation: Double?
    /// Calendar days (where each reading was taken) with at least one reading.
    public var daysWithData: Int

    public static let coefficientOfVariationTarget = 36.0

    public init(_ readings: [GlucoseReading]) {
        self.readings = readings.count
        func share(_ isIn: (GlucoseLevel) -> Bool) -> Double {
            readings.isEmpty ? 0 : Double(readings.filter { isIn($0.level) }.count) / Double(readings.count)
        }
        belowRange = share(GlycaemicLimit.low.isBeyond)
        veryLow = share(GlycaemicLimit.veryLow.isBeyond)
        aboveRange = share(GlycaemicLimit.high.isBeyond)
        veryHigh = share(GlycaemicLimit.veryHigh.isBeyond)
        inRange = share { !GlycaemicLimit.low.isBeyond($0) && !GlycaemicLimit.high.isBeyond($0) }
        let statistics = GlucoseStatistics(readings.map(\.level.mmolPerL))
        glucoseManagementIndicator = statistics.mean.map { 3.31 + 0.02392 * GlucoseLevel(mmolPerL: $0).mgPerDL }
        coefficientOfVariation = statistics.coefficientOfVariation
        daysWithData = Set(LocalTime.of(readings).map(\.day)).count
    }
}

/// Readings of one hour of the day (where each was taken): median and quartiles, in mmol/L.
public struct HourOfDayPattern: Sendable, Equatable {
    public var hour: Int
    public var count: Int
    public var lowerQuartile: Double
    public var median: Double
    public var upperQuartile: Double
}

/// Everything the reports say about a set of readings. Pure: readings in, numbers out.
public struct GlucoseAnalysis: Sendable {
    /// Oldest first.
    public let readings: [GlucoseReading]
    /// Where each reading was taken, in the same order.
    let times: [LocalTime]
    public let all: GlucoseStatistics
    public let beforeMeals: GlucoseStatistics
    public let afterMeals: GlucoseStatistics
    public let consensus: ConsensusMetrics

    public init(_ readings: [GlucoseReading]) {
        self.readings = readings.sorted { $0.takenAt < $1.takenAt }
        times = LocalTime.of(self.readings)
        all = GlucoseStatistics(readings.map(\.level.mmolPerL))
        beforeMeals = GlucoseStatistics(readings.filter { $0.tag?.mealRelation == .beforeMeal }.map(\.level.mmolPerL))
        afterMeals = GlucoseStatistics(readings.filter { $0.tag?.mealRelation == .afterMeal }.map(\.level.mmolPerL))
        consensus = ConsensusMetrics(readings)
    }

    public func statistics(_ relation: MealRelation) -> GlucoseStatistics {
        relation == .beforeMeal ? beforeMeals : afterMeals
    }

    /// EasyGlucose's pattern: at least the mean plus one standard deviation of its meal group
    /// (before or after meals). A pattern to talk about, never a diagnosis; readings outside
    /// both groups, or in a group of fewer than two, are never marked.
    public func isHigherThanUsual(_ reading: GlucoseReading) -> Bool {
        guard let relation = reading.tag?.mealRelation else { return false }
        let group = statistics(relation)
        guard let mean = group.mean, let deviation = group.standardDeviation else { return false }
        return reading.level.mmolPerL >= mean + deviation - 1e-9
    }

    /// The hours of the day that have readings, in order, with median and quartiles
    /// (linear interpolation between closest ranks).
    public var hourOfDay: [HourOfDayPattern] {
        var byHour: [Int: [Double]] = [:]
        for (reading, time) in zip(readings, times) { byHour[time.hour, default: []].append(reading.level.mmolPerL) }
        return byHour.keys.sorted().map { hour in
            let values = byHour[hour]!.sorted()
            return HourOfDayPattern(hour: hour, count: values.count, lowerQuartile: Self.quantile(values, 0.25),
                                    median: Self.quantile(values, 0.5), upperQuartile: Self.quantile(values, 0.75))
        }
    }

    /// The readings of each calendar month (where they were taken), oldest first.
    public var byMonth: [(month: LocalMonth, analysis: GlucoseAnalysis)] {
        var byMonth: [LocalMonth: [GlucoseReading]] = [:]
        for (reading, time) in zip(readings, times) { byMonth[time.month, default: []].append(reading) }
        return byMonth.keys.sorted().map { ($0, GlucoseAnalysis(byMonth[$0]!)) }
    }

    /// The q-quantile of sorted values, interpolating linearly between closest ranks.
    static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let position = q * Double(sorted.count - 1)
        let below = Int(position.rounded(.down)), above = Int(position.rounded(.up))
        return sorted[below] + (sorted[above] - sorted[below]) * (position - Double(below))
    }
}

/// A calendar month, e.g. 2026-11.
public struct LocalMonth: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public static func < (a: LocalMonth, b: LocalMonth) -> Bool { (a.year, a.month) < (b.year, b.month) }
    public var description: String { String(format: "%04d-%02d", year, month) }
}

extension GlucoseReading {
    /// The day where it was taken.
    public var localDay: CalendarDay { CalendarDay(takenAt, utcOffsetSeconds: utcOffsetSeconds) }
}

/// When a reading was taken on the clock and calendar where it was taken (its own UTC offset).
struct LocalTime: Sendable, Hashable {
    var day: CalendarDay
    var hour: Int
    var month: LocalMonth { LocalMonth(year: day.year, month: day.month) }

    /// The local times of many readings, with one calendar per UTC offset (making a calendar
    /// costs far more than asking it).
    static func of(_ readings: [GlucoseReading]) -> [LocalTime] {
        var calendars: [Int: Calendar] = [:]
        return readings.map { reading in
            let calendar = calendars[reading.utcOffsetSeconds] ?? {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = TimeZone(secondsFromGMT: reading.utcOffsetSeconds) ?? TimeZone(identifier: "UTC")!
                calendars[reading.utcOffsetSeconds] = calendar
                return calendar
            }()
            let c = calendar.dateComponents([.year, .month, .day, .hour], from: reading.takenAt)
            return LocalTime(day: CalendarDay(year: c.year!, month: c.month!, day: c.day!), hour: c.hour!)
        }
    }
}
