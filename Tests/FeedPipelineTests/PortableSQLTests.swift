import BundleFormat
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// The SQL apps and clients run stays within core SQLite 3.22 (Android 9): no virtual tables
/// in a default bundle, no JSON or math functions, no syntax newer than 3.22. Checked on the
/// documented queries, the bundle DDL and a real delta; the core-SQLite tests then run them on a
/// SQLite built without the optional modules.
@Suite struct PortableSQLTests {
    /// What Android's SQLite 3.22 lacks, as patterns over SQL with comments and strings removed.
    static let forbidden: [(String, String)] = [
        ("VIRTUAL TABLE", "virtual tables (R-tree, FTS)"), (" MATCH ", "full-text search"), ("json_", "JSON functions"),
        ("->", "JSON operators"), ("ON CONFLICT", "UPSERT (3.24)"), ("DO UPDATE", "UPSERT (3.24)"),
        (" OVER", "window functions (3.25)"), ("FILTER (", "aggregate filters (3.30)"), ("RETURNING", "RETURNING (3.35)"),
        ("STRICT", "STRICT tables (3.37)"), ("GENERATED", "generated columns (3.31)"), ("iif(", "iif (3.32)"),
        ("NULLS FIRST", "NULLS FIRST (3.30)"), ("NULLS LAST", "NULLS LAST (3.30)"), ("DROP COLUMN", "DROP COLUMN (3.35)"),
        ("unixepoch(", "unixepoch (3.38)"), ("format(", "format (3.38)"), ("sqrt(", "math functions"), ("cos(", "math functions"),
        ("sin(", "math functions"), ("pow(", "math functions"), ("floor(", "math functions"), ("ceil(", "math functions"),
        ("radians(", "math functions"), ("ln(", "math functions"), ("MATERIALIZED", "MATERIALIZED hints (3.35)"),
    ]

    /// SQL without comments and string literals, upper-cased, for pattern checks.
    static func violations(in sql: String) -> [String] {
        var code = ""
        var inString = false
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
            var text = Substring(line)
            if !inString, let comment = text.range(of: "--") { text = text[..<comment.lowerBound] }
            for character in text {
                if character == "'" {
                    inString.toggle()
                    continue
                }
                if !inString { code.append(character) }
            }
            code.append("\n")
        }
        let upper = code.uppercased()
        // `UPDATE t SET … FROM` (3.33) would show as FROM after SET in an UPDATE statement.
        let updateFrom = upper.components(separatedBy: ";").contains {
            $0.contains("UPDATE ") && $0.contains(" SET ") && $0.range(of: #"SET [^;]* FROM "#, options: .regularExpression) != nil
        }
        return forbidden.filter { upper.contains($0.0.uppercased()) }.map { "\($0.0): \($0.1)" } + (updateFrom ? ["UPDATE … FROM (3.33)"] : [])
    }

    @Test func theCheckFindsWhatItLooksFor() {
        #expect(!Self.violations(in: "SELECT json_extract(x, '$.a') FROM t").isEmpty)
        #expect(!Self.violations(in: "INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING").isEmpty)
        #expect(!Self.violations(in: "SELECT row_number() OVER (ORDER BY a) FROM t").isEmpty)
        #expect(!Self.violations(in: "UPDATE t SET a = u.a FROM u WHERE t.k = u.k").isEmpty)
        #expect(Self.violations(in: "SELECT 'json_each -> OVER' -- iif(\nFROM t").isEmpty)
    }

    @Test func documentedQueriesArePortable() throws {
        let portable = AppQueries.all.filter { !$0.key.hasSuffix("_rtree") && !$0.key.hasSuffix("_fts5") }
        #expect(portable.count == 30)
        for (name, sql) in portable {
            #expect(Self.violations(in: sql).isEmpty, "\(name): \(Self.violations(in: sql))")
        }
        // The per-line filter of opposite_stop, shown in prose, is portable too.
        let docs = try String(contentsOf: SharedData.projectRoot.appendingPathComponent("docs/bundle-format.md"), encoding: .utf8)
        #expect(!docs.contains("json_each"))
    }

    @Test func theDefaultSchemaIsPortable() {
        for ddl in BundleSchema.ddl() { #expect(Self.violations(in: ddl).isEmpty, "\(ddl)") }
        #expect(BundleSchema.ddl(modules: .all).contains { !Self.violations(in: $0).isEmpty }, "the optional modules are not portable, and the check sees it")
    }

    @Test func aRealDeltaIsPortable() throws {
        let folder = TemporaryFolder()
        let copy = folder.url.appendingPathComponent("metro")
        try FileManager.default.copyItem(at: SharedData.sample("metro"), to: copy)
        let workspace = Workspace()
        let config = try workspace.config(sources: [("metro", copy)])
        _ = try workspace.build(config)
        let stops = copy.appendingPathComponent("stops.txt")
        try String(contentsOf: stops, encoding: .utf8).replacingOccurrences(of: "Rockridge Station", with: "Rockridge BART")
            .write(to: stops, atomically: true, encoding: .utf8)
        _ = try workspace.build(config)
        let manifest = try requireManifestValue(workspace.manifest())
        let delta = try #require(manifest.deltas.first)
        let gz = try Data(contentsOf: workspace.output.appendingPathComponent("b").appendingPathComponent(delta.file))
        let sql = String(decoding: try Gzip.decompress([UInt8](gz)), as: UTF8.self)
        #expect(sql.contains("stop_tokens"), "the renamed stop's tokens travel in the delta")
        #expect(Self.violations(in: sql).isEmpty, "\(Self.violations(in: sql))")
    }
}
