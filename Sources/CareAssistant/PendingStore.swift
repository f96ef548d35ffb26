import CareStore
import Foundation

/// The store, opened on a thread of its own: a data file that another process has locked makes
/// SQLite wait out its busy timeout (5 s), and that wait must never come before the assistant's
/// first words or before emergency help. The assistant waits for it only to save.
public final class PendingStore: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<Store, Error>?

    public init(_ open: @escaping @Sendable () throws -> Store) {
        let thread = Thread { [self] in
            let opened = Result { try open() }
            condition.lock()
            result = opened
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "carevoice.store-open"
        thread.start()
    }

    /// An already-open store (tests, benchmarks).
    public init(_ store: Store) {
        result = .success(store)
    }

    /// A store that could not be opened, and why.
    public init(failure: Error) {
        result = .failure(failure)
    }

    /// Blocks until the store has been opened or has failed to open.
    public func wait() -> Result<Store, Error> {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return result!
    }

    /// Waits at most `timeout` seconds; nil if the store is still being opened then.
    public func wait(timeout: TimeInterval) -> Result<Store, Error>? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(timeout)
        while result == nil, condition.wait(until: deadline) {}
        return result
    }

    /// The outcome if it is known already; nil while the store is still being opened.
    public var outcomeSoFar: Result<Store, Error>? {
        condition.lock()
        defer { condition.unlock() }
        return result
    }
}
