import Foundation

/// A value more than one thread reads and writes (the noisy room's recognizer is made on a
/// thread of its own: `BackgroundFollower.prepare`), behind a lock.
public final class Locked<Value>: @unchecked Sendable {
    private var stored: Value
    private let lock = NSLock()

    public init(_ value: Value) { stored = value }

    public var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value in place, under the lock (for a collection, say).
    public func mutate(_ change: (inout Value) -> Void) {
        lock.withLock { change(&stored) }
    }
}
