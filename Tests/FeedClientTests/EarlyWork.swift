import Foundation
import Testing

/// Long work that mostly waits (unittest processes facing hostile servers and their deadlines),
/// started when Swift Testing plans the run, before any test runs, rather than when its test's
/// turn comes; the test awaits it and checks what it returns.
///
/// Swift Testing starts the tests of a run in an order of its own (it differs from one run to the
/// next), on a pool of one thread per core that computing tests hold until they end: a test whose
/// work takes minutes could start after everything else had finished and be the whole run's tail
/// (the Python client's jobs began 454 s into an 821 s run). A trait's `prepare(for:)` runs while
/// the run is planned, so the test that carries ``startsWhenPlanned`` has its work under way from
/// the first second, side by side with the computing tests.
///
///     static let jobs = EarlyWork { try await runner.run(...) }
///     @Test(Self.jobs.startsWhenPlanned) func attacks() async throws { let outcomes = try await Self.jobs.value }
///
/// The work starts once, whichever comes first: the plan or the test itself (a run that filters
/// the test out never starts it). `body` records no issue: it runs outside any test.
final class EarlyWork<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<Value, any Error>?
    private let body: @Sendable () async throws -> Value

    init(_ body: @escaping @Sendable () async throws -> Value) {
        self.body = body
    }

    /// Starts the work, once.
    func start() {
        _ = started()
    }

    private func started() -> Task<Value, any Error> {
        lock.withLock {
            if let task { return task }
            let body = self.body
            let task = Task.detached(priority: .high) { try await body() }
            self.task = task
            return task
        }
    }

    /// What the work returned (or threw), started now if it was not.
    var value: Value {
        get async throws {
            try await started().value
        }
    }

    /// The trait that starts the work when the run is planned.
    var startsWhenPlanned: StartsWhenPlanned { StartsWhenPlanned(start: start) }
}

/// A test trait whose `prepare(for:)`, called while Swift Testing plans the run, starts an
/// ``EarlyWork``.
struct StartsWhenPlanned: TestTrait {
    let start: @Sendable () -> Void

    public func prepare(for test: Test) async throws {
        start()
    }
}
