import Foundation

/// The SQLite without optional modules (no R-tree, FTS3/4/5, JSON or math functions) that
/// `scripts/build-core-sqlite.sh` builds into `.build/core-sqlite`, and python3 run with it.
///
/// Tests that need it are enabled with `.enabled(if: CoreSQLite.isAvailable)`: a clone where the
/// script has not run skips them with `CoreSQLite.skipMessage`; CI (which runs the script in
/// `.ci/run` and sets `CI=true`) runs them, failing loudly when the library is missing there.
public enum CoreSQLite {
    public static let folder = SharedData.projectRoot.appendingPathComponent(".build/core-sqlite")
    public static var libraryFolder: URL { folder.appendingPathComponent("lib") }
    public static var library: URL { libraryFolder.appendingPathComponent("libsqlite3.so.0") }

    public static let skipMessage = "needs the core SQLite (scripts/build-core-sqlite.sh; .ci/run builds it) and python3"

    public static var isPresent: Bool {
        FileManager.default.fileExists(atPath: library.path) && Subprocess.python3 != nil
    }

    /// True when the library is here, and also on CI, where a missing library must fail the tests.
    public static var isAvailable: Bool { isPresent || ProcessInfo.processInfo.environment["CI"] != nil }

    /// The Python client's folder, `clients/python`.
    public static let pythonClientFolder = SharedData.projectRoot.appendingPathComponent("clients/python")

    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs python3 with `arguments` on the core library (`LD_LIBRARY_PATH`).
    public static func python(_ arguments: [String], timeout: TimeInterval = 300) throws -> Subprocess.Result {
        guard FileManager.default.fileExists(atPath: library.path) else {
            throw Missing(description: "\(library.path) is missing: run scripts/build-core-sqlite.sh")
        }
        guard let python = Subprocess.python3 else { throw Missing(description: "python3 is not on PATH") }
        return try Subprocess.run(python, arguments, environment: ["LD_LIBRARY_PATH": libraryFolder.path], timeout: timeout)
    }

    /// What python3's sqlite3 module reports under the core library: its version and compile
    /// options, so a test can check that it really runs the core build and not the system's.
    public static func pythonSQLite() throws -> (version: String, options: [String]) {
        let script = """
            import sqlite3
            print(sqlite3.sqlite_version)
            for (o,) in sqlite3.connect(":memory:").execute("PRAGMA compile_options"): print(o)
            """
        let result = try python(["-c", script])
        guard result.status == 0 else { throw Missing(description: "python3 with the core SQLite failed: \(result.error)") }
        let lines = result.output.split(separator: "\n").map(String.init)
        return (lines.first ?? "", Array(lines.dropFirst()))
    }

    /// Whether compile options are those of the core build: OMIT_JSON, and none of the optional
    /// modules (a test asserts it of python3's sqlite3, so it never runs the system's by mistake).
    public static func isCoreBuild(_ options: [String]) -> Bool {
        options.contains("OMIT_JSON")
            && !options.contains { $0.hasPrefix("ENABLE_RTREE") || $0.hasPrefix("ENABLE_FTS") || $0.hasPrefix("ENABLE_MATH") || $0.hasPrefix("ENABLE_JSON") }
    }
}
