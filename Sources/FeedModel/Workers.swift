import Foundation

/// How many pieces of independent work run at once (`feedc build --jobs`), and the one way they
/// are run: through this value's ``WorkerPool``, which lends at most `count - 1` threads beside
/// the caller's, however the work nests (a map of sources whose files are read by a map, each
/// file inflated ahead and converted in halves). ``map(_:_:)`` gives its results in the items'
/// order whatever the count, so output never depends on it.
///
/// Copies share the pool: pass the value down rather than making a new one, so that nested work
/// shares one bound. The pool's threads end once the last copy is gone.
public struct Workers: Sendable, Equatable {
    /// At least 1.
    public let count: Int
    /// The threads lent beside the caller's: `count - 1` at most.
    package let pool: WorkerPool
    /// The one thread lent to a producer (``startProducer(_:)``), beside the pool's; none with
    /// one worker.
    package let producers: WorkerPool

    /// `count` pieces of work at once (at least 1), sharing a new pool.
    public init(_ count: Int) {
        self.count = max(1, count)
        pool = WorkerPool(helpers: self.count - 1)
        producers = WorkerPool(helpers: self.count > 1 ? 1 : 0)
    }

    /// One per active processor, or `FEEDC_WORKERS` when the environment sets it to a number.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Workers {
        if let text = environment["FEEDC_WORKERS"], let count = Int(text), count > 0 { return Workers(count) }
        return Workers(ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Two values are equal when they allow as many workers.
    public static func == (left: Workers, right: Workers) -> Bool {
        left.count == right.count
    }

    /// `body` applied to every item, at most ``count`` at a time (this thread and up to
    /// `count - 1` of the pool's), the results in the items' order. This thread takes items too
    /// until none is left, so a map inside a map's item never waits for a free thread. When
    /// several items throw, the error of the first of them (in order) is thrown, after all started
    /// work has ended.
    package func map<T: Sendable, R: Sendable, E: Error>(_ items: [T], _ body: @escaping @Sendable (T) throws(E) -> R) throws(E) -> [R] {
        if count == 1 || items.count < 2 { return try items.map(body) }
        let job = MapJob(items: items, body: body)
        let helpers = (0..<min(count - 1, items.count - 1)).map { _ in beside { job.work() } }
        job.work()
        for helper in helpers { helper.wait() }
        return try job.results().map { result throws(E) -> R in try result.get() }
    }

    /// ``map(_:_:)`` with the items started in order of decreasing `cost`, so that no large item
    /// starts last while the other workers have nothing left to take (the 21-feed region lists
    /// its five largest feeds last); the results are still in the items' order, and when several
    /// items throw, the error of the first of them in the items' order is thrown.
    package func map<T: Sendable, R: Sendable, E: Error>(
        _ items: [T], largestFirst cost: (T) -> Int,
        _ body: @escaping @Sendable (T) throws(E) -> R
    ) throws(E) -> [R] {
        if count == 1 || items.count < 2 { return try items.map(body) }
        let costs = items.map(cost)
        let order = items.indices.sorted { costs[$0] != costs[$1] ? costs[$0] > costs[$1] : $0 < $1 }
        let results = map(order) { index in Result { () throws(E) -> R in try body(items[index]) } }
        var byIndex = [Result<R, E>?](repeating: nil, count: items.count)
        for (index, result) in zip(order, results) { byIndex[index] = result }
        return try byIndex.map { result throws(E) -> R in try result!.get() }
    }

    /// `body` queued for one of the pool's threads while the caller goes on; its result is taken
    /// with ``Pending/wait()``, which runs it on the waiting thread if no pool thread has started
    /// it (always so with one worker).
    package func beside<T: Sendable>(_ body: @escaping @Sendable () -> T) -> Pending<T> {
        guard count > 1 else { return Pending(body, in: nil) }
        let pending = Pending(body, in: pool)
        pool.queue(pending)
        return pending
    }

    /// `body` started on a pool thread now when one is free (true); false, with nothing started,
    /// when none is, for work that must run beside its caller or not at all (a producer the
    /// caller consumes from, which the caller then does itself).
    package func startIfFree(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard count > 1 else { return false }
        return pool.queueIfFree(Pending(body, in: pool))
    }

    /// `body` started now on the workers' producer thread when it is free (true); false, with
    /// nothing started, when it is busy or there is one worker. For work that feeds a consumer
    /// on the calling thread and spends much of its time waiting for it (a member inflating
    /// ahead of its parse): kept apart from the pool, such work never waits for a pool thread
    /// the build's other work holds, and a build runs at most `count + 1` threads. On
    /// Bydgoszcz with two workers the largest member found no pool thread free at its start
    /// (the map's helper held it), and the build took 0.74 s wall against 0.70 s with a thread
    /// of its own (medians of 6 pairs, idle machine).
    package func startProducer(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard count > 1 else { return false }
        return producers.queueIfFree(Pending(body, in: producers))
    }
}

/// One ``Workers/map(_:_:)``: the items, the next one nobody has taken, and one result slot per
/// item, each written by the one thread that took the item.
private final class MapJob<T: Sendable, R: Sendable, E: Error>: Sendable {
    private struct Progress {
        var next = 0
        var slots: [Result<R, E>?]
    }

    private let items: [T]
    private let body: @Sendable (T) throws(E) -> R
    private let progress: Locked<Progress>

    init(items: [T], body: @escaping @Sendable (T) throws(E) -> R) {
        self.items = items
        self.body = body
        progress = Locked(Progress(slots: Array(repeating: nil, count: items.count)))
    }

    /// Takes items one after another until none is left.
    func work() {
        while let index = take() {
            let result = Result { () throws(E) -> R in try body(items[index]) }
            progress.withLock { $0.slots[index] = result }
        }
    }

    /// Every item's result; once every thread that took items has ended.
    func results() -> [Result<R, E>] {
        progress.withLock { progress in progress.slots.map { $0! } }
    }

    private func take() -> Int? {
        progress.withLock { progress in
            guard progress.next < items.count else { return nil }
            progress.next += 1
            return progress.next - 1
        }
    }
}
