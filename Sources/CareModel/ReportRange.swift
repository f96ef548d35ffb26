import Foundation

/// The period a report, an export or a trend covers: the last days, weeks, months or years up to
/// now, or everything on record. Written as `30d`, `2w`, `3m`, `1y` or `all`.
public enum ReportRange: Sendable, Equatable, CustomStringConvertible {
    case days(Int), weeks(Int), months(Int), years(Int)
    case all

    public init?(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespaces).lowercased()
        if text == "all" { self = .all; return }
        guard let unit = text.last, let count = Int(text.dropLast()), count > 0, count <= 100 * 366 else { return nil }
        switch unit {
        case "d": self = .days(count)
        case "w": self = .weeks(count)
        case "m": self = .months(count)
        case "y": self = .years(count)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .days(let n): return "\(n)d"
        case .weeks(let n): return "\(n)w"
        case .months(let n): return "\(n)m"
        case .years(let n): return "\(n)y"
        case .all: return "all"
        }
    }

    /// From the same moment that many days, weeks, months or years before `now`, up to `now`;
    /// nil for everything.
    public func interval(endingAt now: Date, calendar: Calendar) -> DateInterval? {
        let step: (Calendar.Component, Int)
        switch self {
        case .days(let n): step = (.day, n)
        case .weeks(let n): step = (.day, 7 * n)
        case .months(let n): step = (.month, n)
        case .years(let n): step = (.year, n)
        case .all: return nil
        }
        let start = calendar.date(byAdding: step.0, value: -step.1, to: now) ?? .distantPast
        return DateInterval(start: start, end: now)
    }
}
