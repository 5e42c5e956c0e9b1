import BundleFormat
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// docs/update-protocol.md's content-digest test vector: the database its SQL writes has the
/// digest it states, computed by the Swift client and by the Python client on the core SQLite.
@Suite struct ProtocolDocTests {
    /// The vector's SQL and digest, read from the document.
    static func vector() throws -> (sql: String, digest: String) {
        let text = try String(contentsOf: SharedData.projectRoot.appendingPathComponent("docs/update-protocol.md"), encoding: .utf8)
        guard let start = text.range(of: "**Test vector.**"),
            let open = text.range(of: "```sql\n", range: start.upperBound..<text.endIndex),
            let close = text.range(of: "\n```", range: open.upperBound..<text.endIndex),
            let marker = text.range(of: "<!-- digest-vector -->\n`", range: close.upperBound..<text.endIndex),
            let end = text[marker.upperBound...].firstIndex(of: "`")
        else {
            throw VectorMissing()
        }
        return (String(text[open.upperBound..<close.lowerBound]), String(text[marker.upperBound..<end]))
    }

    struct VectorMissing: Error {}

    @Test func theSwiftClientsDigest() throws {
        let (sql, digest) = try Self.vector()
        let folder = TemporaryFolder()
        let db = try Database(path: folder.url.appendingPathComponent("vector.sqlite").path, mode: .create)
        try db.execute(sql)
        #expect(try ContentDigest.compute(db) == digest)
    }

    @Test(.enabled(if: CoreSQLite.isAvailable, "\(CoreSQLite.skipMessage)"))
    func thePythonClientsDigest() throws {
        let (sql, digest) = try Self.vector()
        let script = """
            import sqlite3, sys
            sys.path.insert(0, sys.argv[1])
            from feedc_bundle import content_digest
            conn = sqlite3.connect(":memory:")
            conn.executescript(sys.argv[2])
            print(content_digest(conn))
            """
        let result = try CoreSQLite.python(["-c", script, CoreSQLite.pythonClientFolder.path, sql])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == digest)
    }
}
