import Foundation
import TestSupport
import Testing

/// Both clients against a hostile server on 127.0.0.1 (clients/python/tests/test_hostile_*.py,
/// with the other Python client tests 170, about 4 minutes; the packed bundle's cases in
/// test_packed_*.py): the Python client and `feedc pull` of this build, each facing 3 GB
/// manifests, deltas and bundles, gzip bombs of 2 and 5 GiB, `file:` URLs, cross-join deltas,
/// 1 byte/s and stalled servers, forged versions, two pulls at once (and one of each client).
/// Each ends with the database unchanged and a clear error within its deadline, in at most 256 MB
/// (and, waiting on a slow server, at most 2 s of CPU). Run by python3 on the core SQLite, as the
/// other Python client tests are; `feedc` keeps the SQLite it was linked with.
@Suite(.enabled(if: CoreSQLite.isAvailable, "\(CoreSQLite.skipMessage)"))
struct PythonHostileServerTests {
    /// Every module of clients/python/tests (test_hostile_swift.py's classes each on their own),
    /// four unittest processes at a time (``UnitTestJobs``), the longest first, started when the
    /// run is planned (``EarlyWork``): the jobs take minutes, mostly waiting on deadlines.
    static let jobs = EarlyWork { () async throws -> [UnitTestJobs.Outcome] in
        guard let feedc = FeedcBinary.url else { throw UnitTestJobsError(message: "no feedc executable beside the tests") }
        guard FileManager.default.fileExists(atPath: CoreSQLite.library.path) else {
            throw UnitTestJobsError(message: "\(CoreSQLite.library.path) is missing: run scripts/build-core-sqlite.sh")
        }
        let runner = UnitTestJobs()
        let jobs = try runner.jobs(byClass: ["test_hostile_swift.py"])
        guard jobs.count >= 16 else { throw UnitTestJobsError(message: "only \(jobs.map(\.label))") }
        return try await runner.run(jobs, environment: ["LD_LIBRARY_PATH": CoreSQLite.libraryFolder.path, "FEEDC_BINARY": feedc.path])
    }

    @Test(Self.jobs.startsWhenPlanned) func everyAttackEndsCleanly() async throws {
        let outcomes = try await Self.jobs.value
        for outcome in outcomes {
            #expect(outcome.result.status == 0, "\(outcome.job.label): \(outcome.summary)")
            #expect(outcome.ran > 0, "\(outcome.job.label) ran no test: \(outcome.summary)")
            if let measured = outcome.measured { print("\(outcome.job.label): \(measured)") }
        }
        let ran = outcomes.reduce(0) { $0 + $1.ran }
        #expect(ran >= 170, "\(ran) tests ran")
    }
}
