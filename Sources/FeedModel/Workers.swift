import Dispatch
import Foundation

/// How many pieces of independent work run at once (`feedc build --jobs`), and the one way they
/// are run: ``map(_:_:)`` gives its results in the items' order whatever the count, so output
/// never depends on it.
public struct Workers: Sendable, Equatable {
    /// At least 1.
    public let count: Int

    public init(_ count: Int) {
        self.count = max(1, count)
    }

    /// One per active processor, or `FEEDC_WORKERS` when the environment sets it to a number.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Workers {
        if let text = environment["FEEDC_WORKERS"], let count = Int(text), count > 0 { return Workers(count) }
        return Workers(ProcessInfo.processInfo.activeProcessorCount)
    }

    /// `body` applied to every item, at most ``count`` at a time, the results in the items' order.
    /// When several items throw, the error of the first of them (in order) is thrown, after all
    /// started work has ended.
    public func map<T, R, E: Error>(_ items: [T], _ body: (T) throws(E) -> R) throws(E) -> [R] {
        if count == 1 || items.count < 2 { return try items.map(body) }
        let workers = min(count, items.count)
        let results = withoutActuallyEscaping(body) { body in
            let job = Job(items: items, body: body)
            DispatchQueue.concurrentPerform(iterations: workers) { _ in job.work() }
            return job.results()
        }
        return try results.map { result throws(E) -> R in try result.get() }
    }

    /// ``map(_:_:)`` with the items started in order of decreasing `cost`, so that no large item
    /// starts last while the other workers have nothing left to take (the 21-feed region lists
    /// its five largest feeds last); the results are still in the items' order, and when several
    /// items throw, the error of the first of them in the items' order is thrown.
    public func map<T, R, E: Error>(_ items: [T], largestFirst cost: (T) -> Int, _ body: (T) throws(E) -> R) throws(E) -> [R] {
        if count == 1 || items.count < 2 { return try items.map(body) }
        let costs = items.map(cost)
        let order = items.indices.sorted { costs[$0] != costs[$1] ? costs[$0] > costs[$1] : $0 < $1 }
        let results = map(order) { index in Result { () throws(E) -> R in try body(items[index]) } }
        var byIndex = [Result<R, E>?](repeating: nil, count: items.count)
        for (index, result) in zip(order, results) { byIndex[index] = result }
        return try byIndex.map { result throws(E) -> R in try result!.get() }
    }
}

/// One ``Workers/map(_:_:)``: the items, the next one nobody has taken, and one result slot per
/// item, each written by the one worker that took the item. `@unchecked Sendable`: the counter
/// and the slots are only touched under the lock; items and body are only read.
private final class Job<T, R, E: Error>: @unchecked Sendable {
    private let items: [T]
    private let body: (T) throws(E) -> R
    private let lock = NSLock()
    private var next = 0
    private var slots: [Result<R, E>?]

    init(items: [T], body: @escaping (T) throws(E) -> R) {
        self.items = items
        self.body = body
        slots = Array(repeating: nil, count: items.count)
    }

    /// Takes items one after another until none is left.
    func work() {
        while let index = take() {
            let result: Result<R, E>
            do {
                result = .success(try body(items[index]))
            } catch {
                result = .failure(error)
            }
            lock.lock()
            slots[index] = result
            lock.unlock()
        }
    }

    func results() -> [Result<R, E>] {
        lock.lock()
        defer { lock.unlock() }
        return slots.map { $0! }
    }

    private func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < items.count else { return nil }
        next += 1
        return next - 1
    }
}
