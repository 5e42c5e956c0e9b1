import BundleFormat
import FeedClient
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// The JVM client (clients/jvm, run through `JVMClient`, which builds it with
/// `clients/jvm/build.sh`), as `PythonClientSeriesTests` and `PythonHostileServerTests` run the
/// Python one. Skipped only without java, javac or the SQLite JDBC driver (and what each test
/// names besides). Serialized: the hostile-server cases measure time, and the series is heavy.
@Suite(.serialized)
struct JVMClientTests {
    /// Against nginx: clients at every older Wichita version reach the latest content through
    /// their delta; a new client downloads the full bundle; an up-to-date client costs one
    /// request answered 304.
    @Test(
        .enabled(
            if: SharedData.isAvailable && Nginx.isInstalled && JVMClient.isAvailable,
            "needs ../shared/data, nginx and \(JVMClient.skipMessage)"))
    func clientsAtEveryWichitaVersionReachTheLatest() throws {
        try JVMClient.build()
        try WichitaClientSeries.check("JVM client") { manifest, database in
            let pull = try JVMClient(manifest: manifest, database: database).pull()
            return WichitaClientSeries.Pull(status: pull.status, output: pull.output, error: pull.error, seconds: pull.seconds)
        }
    }

    /// docs/update-protocol.md's content-digest test vector, computed by the JVM client
    /// (`org.feedc.client.Main digest`), as `ProtocolDocTests` checks it with the other two.
    @Test(.enabled(if: JVMClient.isAvailable, "\(JVMClient.skipMessage)"))
    func theDocumentsDigestVector() throws {
        let (sql, digest) = try ProtocolDocTests.vector()
        let folder = TemporaryFolder()
        let file = folder.url.appendingPathComponent("vector.sqlite")
        do {
            let db = try Database(path: file.path, mode: .create)
            try db.execute(sql)
        }
        let result = try JVMClient.digest(of: file)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == digest)
    }

    /// Against the hostile server of clients/python/tests (test_hostile_jvm.py: every case of
    /// test_hostile_*.py with `client = "jvm"`): 3 GB manifests, deltas and bundles, gzip bombs,
    /// `file:` URLs, cross-join and function-call deltas, 1 byte/s and stalled servers, forged
    /// versions, bytes after the gzip member, two pulls at once (and one with `feedc pull`). Each
    /// ends with the database unchanged and a clear error within its deadline, in at most 256 MB
    /// (and, waiting on a slow server, at most 2 s of CPU). The harness runs on the system's
    /// SQLite, as the client does (its JDBC driver cannot load the core build).
    /// Started when the run is planned (``EarlyWork``): the cases mostly wait on deadlines.
    static let hostileJobs = EarlyWork { () async throws -> [UnitTestJobs.Outcome] in
        try await OwnThread.run { try JVMClient.build() }
        guard let feedc = FeedcBinary.url else { throw UnitTestJobsError(message: "no feedc executable beside the tests") }
        // Each class of test_hostile_jvm.py in a unittest process of its own, side by side.
        let runner = UnitTestJobs()
        let jobs = try runner.jobs(byClass: ["test_hostile_jvm.py"], only: ["test_hostile_jvm.py"])
        guard jobs.count >= 6 else { throw UnitTestJobsError(message: "only \(jobs.map(\.label))") }
        return try await runner.run(
            jobs,
            environment: [
                "FEEDC_BINARY": feedc.path, "FEEDC_JVM_JAR": JVMClient.jar.path,
                "SQLITE_JDBC_JAR": JVMClient.driver.path,
            ])
    }

    @Test(
        .enabled(if: JVMClient.isAvailable && Subprocess.python3 != nil, "\(JVMClient.skipMessage), and python3"),
        Self.hostileJobs.startsWhenPlanned)
    func everyHostileServerAttackEndsCleanly() async throws {
        let outcomes = try await Self.hostileJobs.value
        for outcome in outcomes {
            #expect(outcome.result.status == 0, "\(outcome.job.label): \(outcome.summary)")
            #expect(outcome.ran > 0 && !outcome.result.error.contains("skipped"), "\(outcome.job.label): \(outcome.summary)")
            if let measured = outcome.measured { print("\(outcome.job.label): \(measured)") }
        }
        let ran = outcomes.reduce(0) { $0 + $1.ran }
        #expect(ran >= 39, "\(ran) tests ran")
    }
}
