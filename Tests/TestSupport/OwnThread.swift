import Foundation

/// Blocking work of a test (a subprocess waited for, a server's deadline waited out, a build of a
/// package) on a thread of its own, awaited, so that the test holds no thread of Swift's
/// cooperative pool while it waits.
///
/// Swift Testing runs every test, synchronous or not, on that pool, which has one thread per core
/// (two on this project's machine): a test that blocks one of them for minutes leaves the whole
/// run one core, and tests that are ready queue behind it ("passed after 640 s" for work of
/// seconds). A test that mostly waits is `async` and runs its body here instead; one that
/// computes may stay synchronous.
public enum OwnThread {
    /// Runs `body` on a new thread and returns (or throws) what it did; the awaiting task is
    /// suspended meanwhile, holding no thread of the pool. `body` records no issue (`#expect`,
    /// `#require`): Swift Testing ties an issue to its test through task-local values, which a
    /// thread of its own does not carry. Check what it returns in the test instead.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let thread = Thread {
                continuation.resume(with: Result { try body() })
            }
            thread.name = "feedc-test-wait"
            // As much stack as a main thread: the bodies are test code written for one.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// `run` for a body that returns nothing.
    public static func run(_ body: @escaping @Sendable () throws -> Void) async throws {
        let _: Bool = try await run {
            try body()
            return true
        }
    }

    /// `body` for each item, each on a thread of its own, at most `atOnce` at a time (work that
    /// mostly waits, such as the hostile-server cases, side by side); the results in the items'
    /// order.
    public static func map<Item: Sendable, Value: Sendable>(
        _ items: [Item], atOnce: Int, _ body: @escaping @Sendable (Item) throws -> Value
    ) async throws -> [Value] {
        try await withThrowingTaskGroup(of: (Int, Value).self) { group in
            var results = [Value?](repeating: nil, count: items.count)
            var next = 0
            func start() {
                let index = next, item = items[index]
                group.addTask { (index, try await run { try body(item) }) }
                next += 1
            }
            while next < min(atOnce, items.count) { start() }
            while let (index, value) = try await group.next() {
                results[index] = value
                if next < items.count { start() }
            }
            return results.map { $0! }
        }
    }
}
