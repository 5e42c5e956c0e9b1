import Foundation

/// Work started on a thread of its own, beside the caller's, whose result the caller takes once
/// with ``wait()``. For one piece of work that overlaps another (a source's timetable beside its
/// enhancement, a bundle's gzip beside its digest), where ``Workers/map(_:_:)`` would need a list. `@unchecked Sendable`: `result` is written by the
/// thread before it signals and read only after the wait.
public final class BesideTask<T: Sendable>: @unchecked Sendable {
    private var result: T?
    private let done = DispatchSemaphore(value: 0)

    public init(_ body: @escaping @Sendable () -> T) {
        let thread = Thread { [self] in
            result = body()
            done.signal()
        }
        thread.start()
    }

    /// The result, once the work has ended; call it once.
    public func wait() -> T {
        done.wait()
        defer { result = nil }
        return result!
    }
}
