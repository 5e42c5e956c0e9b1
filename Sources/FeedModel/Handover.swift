/// Holds one value until the worker it is meant for takes it, so that the list of work keeps no
/// copy of it: a source's tables are freed as soon as the worker that took them is done.
package final class Handover<T: Sendable>: Sendable {
    private let value: Locked<T?>
    /// What the work costs, for starting the largest first (``Workers/map(_:largestFirst:_:)``).
    package let cost: Int

    package init(_ value: consuming T, cost: Int) {
        self.value = Locked(Optional(value))
        self.cost = cost
    }

    /// The value; call it once.
    package func take() -> T {
        value.withLock { held in
            defer { held = nil }
            return held!
        }
    }
}
