import Foundation

/// When something happened, as said: "yesterday at 9 pm", "at seven thirty this
/// morning", "on 2026-05-01 at 07:30". Resolved against the clock separately, so
/// parsing stays pure.
public struct TimeExpression: Sendable, Equatable {
    public enum Day: Sendable, Equatable {
        case today, yesterday
        case date(year: Int, month: Int, day: Int)
    }
    public enum Meridiem: String, Sendable, Equatable { case am, pm }

    public var day: Day?
    public var hour: Int?
    public var minute: Int?
    public var meridiem: Meridiem?
    /// The typical hour of a part of the day ("this morning" = 8), used when no clock time was said.
    public var defaultHour: Int?
    /// "now", "right now": the same as saying nothing.
    public var isNow: Bool

    public init(day: Day? = nil, hour: Int? = nil, minute: Int? = nil, meridiem: Meridiem? = nil,
                defaultHour: Int? = nil, isNow: Bool = false) {
        self.day = day
        self.hour = hour
        self.minute = minute
        self.meridiem = meridiem
        self.defaultHour = defaultHour
        self.isNow = isNow
    }

    public enum ResolutionError: Error, Equatable { case invalid, inFuture }

    /// Tolerance for clocks and for "at 7:30" said at 7:29.
    public static let futureTolerance: TimeInterval = 5 * 60

    /// The moment meant, in `calendar`'s time zone, relative to `now`.
    ///
    /// A clock hour without am/pm on a given day is taken as the latest such
    /// time that is not in the future ("at 9" said at 14:00 is 09:00); on a
    /// past day, 1-6 is taken as afternoon and 7-11 as morning.
    public func resolve(now: Date, calendar: Calendar) throws -> Date {
        if isNow || (day == nil && hour == nil && defaultHour == nil) { return now }
        let today = calendar.startOfDay(for: now)
        let dayStart: Date
        switch day {
        case nil, .today?: dayStart = today
        case .yesterday?: dayStart = calendar.date(byAdding: .day, value: -1, to: today)!
        case .date(let y, let m, let d)?:
            guard let date = calendar.date(from: DateComponents(year: y, month: m, day: d)),
                  calendar.component(.day, from: date) == d else { throw ResolutionError.invalid }
            dayStart = date
        }

        var result: Date
        if let hour {
            let minute = self.minute ?? 0
            guard (0...23).contains(hour), (0...59).contains(minute) else { throw ResolutionError.invalid }
            if let meridiem {
                guard (1...12).contains(hour) else { throw ResolutionError.invalid }
                let h24 = hour % 12 + (meridiem == .pm ? 12 : 0)
                result = at(dayStart, h24, minute, calendar)
            } else if hour > 12 || hour == 0 {
                result = at(dayStart, hour, minute, calendar)
            } else if day == nil || day == .today {
                // Latest of the two readings of the hour that is not in the future;
                // if both are, it was last night.
                let morning = at(dayStart, hour % 12, minute, calendar)
                let evening = at(dayStart, hour % 12 + 12, minute, calendar)
                if evening <= now + Self.futureTolerance { result = evening }
                else if morning <= now + Self.futureTolerance { result = morning }
                else { result = at(calendar.date(byAdding: .day, value: -1, to: dayStart)!, hour % 12 + 12, minute, calendar) }
                if day == .today, result < today { result = morning }
            } else {
                let h24 = hour == 12 ? 12 : (hour <= 6 ? hour + 12 : hour)
                result = at(dayStart, h24, minute, calendar)
            }
        } else if let defaultHour {
            result = at(dayStart, defaultHour, 0, calendar)
            // "this evening" said at 18:00: the evening has only just begun.
            if result > now && dayStart == today { result = now }
        } else {
            // A day without a clock time: the same time of day as now.
            let seconds = now.timeIntervalSince(today)
            result = dayStart.addingTimeInterval(seconds)
        }
        if result > now + Self.futureTolerance { throw ResolutionError.inFuture }
        return result
    }

    private func at(_ dayStart: Date, _ hour: Int, _ minute: Int, _ calendar: Calendar) -> Date {
        calendar.date(bySettingHour: hour, minute: minute, second: 0, of: dayStart) ?? dayStart
    }
}
