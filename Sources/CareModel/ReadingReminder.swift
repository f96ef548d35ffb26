import Foundation

/// When the next glucose reading is due: the chosen interval after the last one.
public enum ReadingReminder {
    public enum Status: Sendable, Equatable {
        /// Reminders are off.
        case off
        /// Due since `since` (now when there has never been a reading).
        case due(since: Date, lastReading: Date?)
        case notDue(until: Date)
    }

    public static func status(interval: ReminderInterval, lastReading: Date?, now: Date) -> Status {
        guard let hours = interval.hours else { return .off }
        guard let lastReading else { return .due(since: now, lastReading: nil) }
        let dueAt = lastReading.addingTimeInterval(Double(hours) * 3600)
        return dueAt <= now ? .due(since: dueAt, lastReading: lastReading) : .notDue(until: dueAt)
    }
}
