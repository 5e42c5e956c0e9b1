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
    @Test func everyAttackEndsCleanly() throws {
        let tests = CoreSQLite.pythonClientFolder.appendingPathComponent("tests")
        let feedc = try #require(FeedcBinary.url, "no feedc executable beside the tests")
        let python = try #require(Subprocess.which("python3"), "python3 is not on PATH")
        try #require(FileManager.default.fileExists(atPath: CoreSQLite.library.path), "\(CoreSQLite.library.path) is missing: run scripts/build-core-sqlite.sh")
        let result = try Subprocess.run(
            python, ["-m", "unittest", "discover", "-s", tests.path, "-v"],
            environment: ["LD_LIBRARY_PATH": CoreSQLite.libraryFolder.path, "FEEDC_BINARY": feedc.path],
            timeout: 900)
        // unittest prints its summary on standard error: "Ran N tests" and "OK".
        let summary = result.error.split(separator: "\n").suffix(40).joined(separator: "\n")
        #expect(result.status == 0, "\(summary)")
        let ran = result.error.firstMatch(of: /Ran (\d+) tests?/).flatMap { Int($0.1) } ?? 0
        #expect(ran >= 170, "\(summary)")
        // What each attack did, its time, CPU and the client's peak memory, for the log.
        if let measured = result.error.range(of: "measured (test") { print(result.error[measured.lowerBound...]) }
    }
}
