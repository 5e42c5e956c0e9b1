import Foundation

/// A value shared between threads, read and changed only under its lock: the one box the
/// package's workers, tasks and callbacks share state through (a refusal heard by a callback, a
/// blocking wrapper's result, a running hash).
///
/// `@unchecked Sendable`: every access to `value` goes through `lock` (``withLock(_:)`` and the
/// `value` accessors), and `Value` is `Sendable`, so what leaves the box may cross threads.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    package init(_ value: Value) {
        stored = value
    }

    /// The value now.
    package var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Runs `body` on the value under the lock: a read and a change with nothing between.
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }
}
