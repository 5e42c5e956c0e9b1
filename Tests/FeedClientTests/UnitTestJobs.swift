import Foundation
import TestSupport

/// clients/python/tests run as several unittest processes side by side, one per test module, or
/// per test class where a module holds many (the hostile-server cases of each client): each
/// process makes its own publication in a fresh folder (`setUpModule`), and most of their time is
/// spent waiting on a server's deadline, so together they take about as long as the longest
/// job, and the awaiting test holds no thread of Swift's cooperative pool (``OwnThread``).
struct UnitTestJobs {
    /// One unittest process: a module (`test_x.py`) and, optionally, one class of it.
    struct Job: Sendable {
        var module: String
        var className: String?

        var label: String { className.map { "\(module) \($0)" } ?? module }
    }

    /// What one job printed and how it ended.
    struct Outcome: Sendable {
        var job: Job
        var result: Subprocess.Result

        /// unittest's summary on standard error, "Ran N tests".
        var ran: Int { result.error.firstMatch(of: /Ran (\d+) tests?/).flatMap { Int($0.1) } ?? 0 }
        /// The last 40 lines of standard error, for a failure's message.
        var summary: String { result.error.split(separator: "\n").suffix(40).joined(separator: "\n") }
        /// What each attack did, its time, CPU and the client's peak memory, for the log.
        var measured: Substring? { result.error.range(of: "measured (test").map { result.error[$0.lowerBound...] } }
    }

    let tests = CoreSQLite.pythonClientFolder.appendingPathComponent("tests")

    /// The jobs that take longest, longest first (their wall time in a full run on the 2-core
    /// machine, 2026-12-07: test_live_jvm.py 269 s, test_plan_options.py 257, test_plan_live.py
    /// 130, the packed pulls 100–120, the hostile delta cases 55–60; the rest under 55): started
    /// first, so that the last job to start is a short one and the run's tail is not one long job
    /// begun late. Jobs not named follow in name order.
    static let longestFirst = [
        "test_live_jvm.py", "test_plan_options.py", "test_plan_live.py", "test_hostile_jvm.py JVMPackedPullTests", "test_packed_pull.py",
        "test_hostile_jvm.py JVMDeltaAttackTests", "test_hostile_delta.py",
    ]

    /// The test modules of the folder, each a job, except those in `byClass`, whose classes
    /// (`class Name(` at the start of a line) are a job each; those in `only`, when given.
    func jobs(byClass: Set<String> = [], only: Set<String>? = nil) throws -> [Job] {
        let modules = try FileManager.default.contentsOfDirectory(atPath: tests.path)
            .filter { $0.hasPrefix("test_") && $0.hasSuffix(".py") && (only?.contains($0) ?? true) }.sorted()
        return try modules.flatMap { module -> [Job] in
            guard byClass.contains(module) else { return [Job(module: module)] }
            let text = try String(contentsOf: tests.appendingPathComponent(module), encoding: .utf8)
            let classes = text.split(separator: "\n").compactMap { line in
                line.firstMatch(of: /^\s*class (\w+)\(/).map { String($0.1) }
            }
            return classes.map { Job(module: module, className: $0) }
        }
        .sorted { a, b in
            let x = Self.longestFirst.firstIndex(of: a.label) ?? Int.max, y = Self.longestFirst.firstIndex(of: b.label) ?? Int.max
            return x != y ? x < y : a.label < b.label
        }
    }

    /// Runs `jobs` with python3, `atOnce` at a time, each bounded by `timeout` seconds (a hang
    /// guard: a job's own deadlines are its tests').
    func run(_ jobs: [Job], environment: [String: String], atOnce: Int = 4, timeout: TimeInterval = 900) async throws -> [Outcome] {
        guard let python = Subprocess.python3 else { throw UnitTestJobsError(message: "python3 is not on PATH") }
        let folder = tests.path
        let results = try await OwnThread.map(jobs, atOnce: atOnce) { job in
            var arguments = ["-m", "unittest", "discover", "-s", folder, "-p", job.module, "-v"]
            if let name = job.className { arguments += ["-k", "*.\(name).*"] }
            return try Subprocess.run(python, arguments, environment: environment, timeout: timeout)
        }
        return zip(jobs, results).map { Outcome(job: $0, result: $1) }
    }
}

struct UnitTestJobsError: Error {
    let message: String
}
