import Foundation
import TestSupport

/// `clients/python/feedc_client.py pull`, run by python3 on the core SQLite (no R-tree, FTS, JSON
/// or math functions): what an Android or web port of the client would meet.
struct PythonClient {
    let manifest: URL
    let database: URL
    var publicKey: String?

    /// One pull: exit status, the line printed, the error line.
    struct Outcome {
        var status: Int32
        var output: String
        var error: String
        var seconds: Double

        /// Exit 2 with exactly one readable line on standard error, no traceback.
        var failedReadably: Bool {
            status == 2 && error.split(separator: "\n").count == 1 && !error.contains("Traceback")
        }
    }

    func pull() throws -> Outcome {
        var arguments = [
            CoreSQLite.pythonClientFolder.appendingPathComponent("feedc_client.py").path,
            "pull", manifest.absoluteString, "--db", database.path, "--timeout", "10",
        ]
        if let publicKey { arguments += ["--public-key", publicKey] }
        let start = Date()
        let result = try CoreSQLite.python(arguments)
        return Outcome(
            status: result.status, output: result.output.trimmingCharacters(in: .whitespacesAndNewlines),
            error: result.error.trimmingCharacters(in: .whitespacesAndNewlines), seconds: Date().timeIntervalSince(start))
    }
}
