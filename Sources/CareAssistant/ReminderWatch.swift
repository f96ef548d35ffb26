import CareModel
import CareStore
import Foundation

/// Watches, on its own thread, for the moment a reading falls due, and tells the conversation
/// once per due reading. It is quiet otherwise: nothing interrupts the person's typing
/// until there is something to say.
final class ReminderWatch: @unchecked Sendable {
    private let store: PendingStore
    private let events: EventQueue
    private let checkEvery: TimeInterval
    private let lock = NSLock()
    private var interval: ReminderInterval
    /// The last announcement: for which last reading (nil: none on record), and when. The same
    /// due reading is announced again only after another interval.
    private var announced: (lastReading: Date?, at: Date)?
    private var stopped = false
    private let wake = NSCondition()

    init(store: PendingStore, events: EventQueue, interval: ReminderInterval, checkEvery: TimeInterval) {
        self.store = store
        self.events = events
        self.interval = interval
        self.checkEvery = checkEvery
    }

    /// The reminder due now, if it has not been announced yet (called at start and by the thread).
    func dueNow(now: Date = Date()) -> DialogEvent? {
        guard case .success(let store)? = store.outcomeSoFar else { return nil }
        let latest: Date?
        do { latest = try store.latestReading()?.takenAt } catch { return nil }
        lock.lock()
        defer { lock.unlock() }
        guard case .due(_, let last) = ReadingReminder.status(interval: interval, lastReading: latest, now: now),
              let hours = interval.hours else { return nil }
        if let announced, announced.lastReading == last, now < announced.at.addingTimeInterval(Double(hours) * 3600) {
            return nil
        }
        announced = (last, now)
        return .reminderDue(lastReading: last)
    }

    func change(_ interval: ReminderInterval) {
        lock.lock()
        self.interval = interval
        announced = nil
        lock.unlock()
    }

    /// Looks every `checkEvery` seconds. The thread holds the watch only while it looks, and
    /// `stop` wakes it: the store must be free to close when the session ends (a store left
    /// open at exit leaves its write-ahead log behind).
    func start() {
        let wake = self.wake, checkEvery = self.checkEvery
        Thread { [weak self] in
            while true {
                wake.lock()
                _ = wake.wait(until: Date().addingTimeInterval(checkEvery))
                wake.unlock()
                guard let watch = self, !watch.isStopped else { return }
                if let event = watch.dueNow() { watch.events.put(InputEvent(origin: .keyboard, event: event)) }
            }
        }.start()
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        wake.lock()
        wake.signal()
        wake.unlock()
    }
}
