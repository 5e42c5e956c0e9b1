import Foundation
import Testing
import TestSupport

/// The Python client against a hostile server on 127.0.0.1 (clients/python/tests/test_hostile.py,
/// about 45 cases, 100 s): 3 GB manifests, deltas and bundles, gzip bombs of 2 and 5 GiB, `file:`
/// URLs, cross-join deltas, 1 byte/s and stalled servers, forged versions, two pulls at once. Each
/// ends with the database unchanged and a clear error within its deadline, in at most 256 MB.
/// Run by python3 on the core SQLite, as the other Python client tests are.
@Suite(.enabled(if: CoreSQLite.isAvailable, "\(CoreSQLite.skipMessage)"))
struct PythonHostileServerTests {
    @Test func everyAttackEndsCleanly() throws {
        let tests = CoreSQLite.pythonClientFolder.appendingPathComponent("tests")
        let result = try CoreSQLite.python(["-m", "unittest", "discover", "-s", tests.path, "-v"], timeout: 600)
        // unittest prints its summary on standard error: "Ran N tests" and "OK".
        let summary = result.error.split(separator: "\n").suffix(40).joined(separator: "\n")
        #expect(result.status == 0, "\(summary)")
        let ran = result.error.firstMatch(of: /Ran (\d+) tests?/).flatMap { Int($0.1) } ?? 0
        #expect(ran >= 40, "\(summary)")
        // What each attack did, its time and the client's peak memory, for the log.
        if let measured = result.error.range(of: "measured (test") { print(result.error[measured.lowerBound...]) }
    }
}
