import Foundation

/// A value shared between threads, read and changed only under its lock: the one box the
/// package's workers, tasks and callbacks share state through (a pool's queue, a pending task's
/// result, a refusal heard by a callback, a blocking wrapper's result, a running hash).
///
/// A thread may also wait in the box until the value is as it needs it
/// (``wait(until:then:)``); every change made through ``withLock(_:)`` or the `value` setter
/// wakes the waiters to look again.
///
/// `@unchecked Sendable`: every access to `stored` goes through `condition` (``withLock(_:)``,
/// ``wait(until:then:)`` and the `value` accessors), and `Value` is `Sendable`, so what leaves
/// the box may cross threads.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var stored: Value

    /// A box holding `value`.
    package init(_ value: consuming Value) {
        stored = value
    }

    /// The value now.
    package var value: Value {
        get { condition.withLock { stored } }
        set { withLock { $0 = newValue } }
    }

    /// Runs `body` on the value under the lock: a read and a change with nothing between. Threads
    /// waiting in ``wait(until:then:)`` look at the value again afterwards.
    package func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&stored)
    }

    /// Waits until `ready` holds of the value, then runs `body` on it under the same lock (and
    /// wakes the other waiters, as ``withLock(_:)`` does).
    package func wait<R>(until ready: (Value) -> Bool, then body: (inout Value) -> R) -> R {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        while !ready(stored) { condition.wait() }
        return body(&stored)
    }
}
