/// Work given to a ``WorkerPool`` beside the caller's own (``Workers/beside(_:)``), whose result
/// the caller takes once with ``wait()``: run by an idle pool thread if one takes it first, else
/// by the caller when it waits. For one piece of work that overlaps another (a source's timetable
/// beside its enhancement, a bundle's gzip beside its digest, the second half of a batch of
/// records), where ``Workers/map(_:_:)`` would need a list.
package final class Pending<T: Sendable>: PoolWork {
    private enum Phase {
        case queued(@Sendable () -> T)
        case running
        case done(T)
        case taken
    }

    private let phase: Locked<Phase>
    /// The pool it is queued in; nil when it runs only in ``wait()``.
    private let pool: WorkerPool?

    /// `body`, queued in `pool` (or, without a pool, left for ``wait()``).
    package init(_ body: @escaping @Sendable () -> T, in pool: WorkerPool?) {
        phase = Locked(.queued(body))
        self.pool = pool
    }

    /// Runs the work here, unless a thread (the caller in ``wait()``) has claimed it.
    package func runIfUnclaimed() {
        guard let body = claim() else { return }
        let result = body()
        phase.withLock { $0 = .done(result) }
    }

    /// The result, once the work has ended; run here if nobody has started it. Call it once.
    package func wait() -> T {
        if let body = claim() {
            pool?.withdraw(self)
            phase.withLock { $0 = .taken }
            return body()
        }
        return phase.wait(until: { phase in
            if case .done = phase { return true }
            return false
        }) { phase -> T in
            guard case .done(let result) = phase else { preconditionFailure("a pending result taken twice") }
            phase = .taken
            return result
        }
    }

    /// The work's body when nobody has started it yet; it is then this thread's to run.
    private func claim() -> (@Sendable () -> T)? {
        phase.withLock { phase in
            guard case .queued(let body) = phase else { return nil }
            phase = .running
            return body
        }
    }
}
