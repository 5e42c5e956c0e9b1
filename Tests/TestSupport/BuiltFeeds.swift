import BundleFormat
import FeedPipeline
import Foundation

/// Real feeds compiled once per test process and shared by the suites that only read the result
/// (RealFeedTests, CoreSQLiteQueryTests, RealFeedDatabaseTests, PortableIndexTests compiled each
/// of the 21 feeds again, four times over).
///
/// Keyed by the dump's SHA-256, the bundle settings and the compiler (the bundle schema's DDL):
/// a changed dump or setting is compiled afresh. Two tests asking for the same key at once wait
/// for one build. The output folders live in one temporary folder of this process; callers must
/// not change what they are given (copy it first).
public enum BuiltFeeds {
    /// One compiled feed: the build's report, its output folder, the published bundle (gzipped)
    /// and the same bundle unpacked.
    public struct Built: Sendable {
        public let report: BuildReport
        public let output: URL
        public let gzipped: URL
        public let sqlite: URL
    }

    /// `dump` compiled as bundle `b` with one source `feed`, with `extra` bundle settings
    /// (pipeline.yaml lines indented as under a bundle, e.g. `"    sqlite_modules: [rtree, fts5]\n"`).
    public static func bundle(of dump: URL, extra: String = "") throws -> Built {
        let key = try Key(dump: dump, extra: extra)
        let entry = cache.entry(for: key)
        entry.lock.lock()
        defer { entry.lock.unlock() }
        if let built = entry.built { return built }
        let built = try build(dump, extra: extra, into: cache.root.appendingPathComponent(key.folderName))
        entry.built = built
        return built
    }

    private static func build(_ dump: URL, extra: String, into folder: URL) throws -> Built {
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let yaml = folder.appendingPathComponent("pipeline.yaml")
        try "output: out\nbundles:\n  - name: b\n\(extra)    sources:\n      - id: feed\n        format: gtfs\n        path: \(dump.path)\n"
            .write(to: yaml, atomically: true, encoding: .utf8)
        let report = try BuildRunner(config: PipelineConfigParser().parse(contentsOf: yaml)).run()[0]
        let output = folder.appendingPathComponent("out")
        let manifest = try Manifest.decode(Data(contentsOf: output.appendingPathComponent("b/manifest.json")))
        let gzipped = output.appendingPathComponent("b").appendingPathComponent(manifest.latest.file)
        let sqlite = folder.appendingPathComponent("b.sqlite")
        try Data(Gzip.decompress([UInt8](Data(contentsOf: gzipped)))).write(to: sqlite)
        return Built(report: report, output: output, gzipped: gzipped, sqlite: sqlite)
    }

    private struct Key: Hashable {
        var dump: String
        var settings: String

        init(dump url: URL, extra: String) throws {
            dump = sha256Hex(try Data(contentsOf: url, options: .alwaysMapped))
            settings = sha256Hex(Data((extra + BundleSchema.ddl(modules: .all).joined(separator: ";")).utf8))
        }

        var folderName: String { "\(dump.prefix(16))-\(settings.prefix(8))" }
    }

    private final class Entry: @unchecked Sendable {
        /// Held while the entry is built; `built` is read and written only under it.
        let lock = NSLock()
        var built: Built?
    }

    /// `@unchecked Sendable`: `entries` is read and written only under `lock`; each entry guards
    /// itself.
    private final class Cache: @unchecked Sendable {
        let root: URL = FileManager.default.temporaryDirectory.appendingPathComponent("feedc-built-feeds-\(getpid())")
        private let lock = NSLock()
        private var entries: [Key: Entry] = [:]

        func entry(for key: Key) -> Entry {
            lock.lock()
            defer { lock.unlock() }
            if let entry = entries[key] { return entry }
            let entry = Entry()
            entries[key] = entry
            return entry
        }

        init() {
            // Folders of earlier test processes that are no longer running.
            let temporary = FileManager.default.temporaryDirectory
            for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
            where name.hasPrefix("feedc-built-feeds-") {
                guard let pid = Int32(name.dropFirst("feedc-built-feeds-".count)), kill(pid, 0) != 0 else { continue }
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
            atexit { try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory.appendingPathComponent("feedc-built-feeds-\(getpid())")) }
        }
    }

    private static let cache = Cache()
}
