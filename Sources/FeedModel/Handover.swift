/// Holds one value until the worker it is meant for takes it, so that the list of work keeps no
/// copy of it: a source's tables are freed as soon as the worker that took them is done.
/// `@unchecked Sendable`: each handover is taken by exactly one worker, and what it holds is
/// `Sendable`.
public final class Handover<T: Sendable>: @unchecked Sendable {
    private var value: T?
    /// What the work costs, for starting the largest first (``Workers/map(_:largestFirst:_:)``).
    public let cost: Int

    public init(_ value: consuming T, cost: Int) {
        self.value = value
        self.cost = cost
    }

    /// The value; call it once.
    public func take() -> T {
        defer { value = nil }
        return value!
    }
}
