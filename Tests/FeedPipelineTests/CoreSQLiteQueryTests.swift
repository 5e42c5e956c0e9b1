import BundleFormat
import FeedPipeline
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// Every portable query of docs/bundle-format.md gives the same answer through the system
/// SQLite (FeedSQLite) and through Python's sqlite3 on a SQLite without R-tree, FTS, JSON or math
/// functions (`scripts/build-core-sqlite.sh`): on the sample pipeline's bundles and on every real
/// feed of `RealFeedTests`, with rider text folded by each side (Swift `SearchText.query`,
/// Python `fold_query`). The queries on the optional R-tree and FTS5 fail there, as they must.
@Suite(.enabled(if: CoreSQLite.isAvailable, "\(CoreSQLite.skipMessage)"))
struct CoreSQLiteQueryTests {
    static let portableQueries = AppQueries.all.filter { QueryRequests.isPortable($0.value) }.keys.sorted()

    /// Builds the bundles of `yaml` and compares the answers on each.
    private func compare(bundlesOf yaml: String, in workspace: Workspace, label: String) throws {
        let file = workspace.folder.url.appendingPathComponent("pipeline.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let reports = try BuildRunner(config: PipelineConfigParser().parse(contentsOf: file)).run()
        for report in reports {
            try #require(report.status == .published, "\(label) \(report.bundle): \(report.reason ?? "")")
            let manifest = try requireManifestValue(workspace.manifest(report.bundle))
            let gzipped = try Data(contentsOf: workspace.output.appendingPathComponent(report.bundle).appendingPathComponent(manifest.latest.file))
            let bundle = workspace.folder.url.appendingPathComponent("\(report.bundle).sqlite")
            try Data(Gzip.decompress([UInt8](gzipped))).write(to: bundle)
            try compare(bundle, label: "\(label) \(report.bundle)", scratch: workspace.folder.url)
        }
    }

    /// Runs the documented queries on `answering` (the bundle itself, or the database installed
    /// from its packed form) through the core SQLite and compares them with the system SQLite's
    /// answers on `bundle`.
    private func compare(_ bundle: URL, label: String, scratch: URL, answering: URL? = nil) throws {
        let database = try Database(path: bundle.path)
        let requests = try QueryRequests(database)
        let reply = try CoreQueryRunner(bundle: answering ?? bundle).run(requests.items.map(\.request), scratch: scratch)
        #expect(CoreSQLite.isCoreBuild(reply.compileOptions), "the runner did not use the core SQLite: \(reply.compileOptions)")
        // Every documented query runs (a bundle without trips has no departures and no directions).
        let hasTrips = try database.scalar("SELECT count(*) FROM trips")?.int ?? 0 > 0
        let expectedQueries = Set(Self.portableQueries).subtracting(
            hasTrips ? [] : ["next_departures", "direction_stops", "direction_shapes", "place_departures", "realtime_trip"])
        #expect(Set(requests.items.map(\.request.name)) == expectedQueries, "\(label): a documented query has no parameters here")
        var found: [String: Int] = [:]
        for (item, answer) in zip(requests.items, reply.answers) {
            let request = item.request
            var parameters = request.parameters
            for (name, text) in request.fold {
                parameters[name] = .text(SearchText.query(text))
                #expect(answer.folded[name] == SearchText.query(text), "\(label): `\(text)` folds differently in Python")
            }
            let expected = try AppQueries.run(request.name, on: database, parameters)
            let context = "\(label): \(request.name) \(parameters)"
            #expect(answer.error == nil, "\(context): \(answer.error ?? "")")
            #expect(
                answer.rows == expected,
                "\(context): the core SQLite answers \(answer.rows?.prefix(3).description ?? "nothing"), the system \(expected.prefix(3))")
            if item.mustFind { #expect(!expected.isEmpty, "\(context): no answer") }
            if !expected.isEmpty { found[request.name, default: 0] += 1 }
        }
        print(
            "\(label): \(requests.items.count) queries, \(found.values.reduce(0, +)) with rows, compared on SQLite \(reply.sqliteVersion) without optional modules"
        )
        // The feed has trips: some departures are found (the equality above makes them the core's too).
        if hasTrips {
            #expect(found["next_departures", default: 0] > 0, "\(label): no departures found at the busiest stops")
        }
    }

    @Test func theSamplePipelinesBundles() throws {
        let workspace = Workspace()
        let root = SharedData.projectRoot.path
        let yaml = try String(contentsOf: SharedData.projectRoot.appendingPathComponent("pipeline.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "path: Samples/", with: "path: \(root)/Samples/")
        try compare(bundlesOf: yaml, in: workspace, label: "sample")
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data"), arguments: RealFeedTests.feeds)
    func aRealFeed(_ dump: URL) throws {
        // Compiled once per test process, shared with the other suites that read real bundles.
        let built = try BuiltFeeds.bundle(of: dump)
        try #require(built.report.status == .published, "\(dump.lastPathComponent): \(built.report.reason ?? "")")
        let scratch = TemporaryFolder()
        try compare(built.sqlite, label: dump.lastPathComponent, scratch: scratch.url)
    }

    /// The database a client installs from the packed bundle (docs/packed-bundle.md) holds the
    /// plain bundle's content (digest, `user_version`, rowids) and answers every documented query
    /// as the plain bundle does, on the core SQLite; its gzipped file is at most half the plain
    /// one's (issue 30; the real feeds measure 0.22–0.48).
    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data"), arguments: RealFeedTests.feeds)
    func aRealFeedInstalledFromItsPackedForm(_ dump: URL) throws {
        let built = try BuiltFeeds.bundle(of: dump)
        try #require(built.report.status == .published, "\(dump.lastPathComponent): \(built.report.reason ?? "")")
        let scratch = TemporaryFolder()
        let packed = scratch.url.appendingPathComponent("b.packed"), installed = scratch.url.appendingPathComponent("installed.sqlite")
        try #require(try PackedBundleWriter.pack(bundleAt: built.sqlite.path, to: packed.path))
        let plainSize = try Data(contentsOf: built.sqlite).count
        try PackedBundleInstaller.install(packedAt: packed.path, to: installed.path, maxBytes: 2 * plainSize + (1 << 20))
        let name = dump.lastPathComponent
        let original = try Database(path: built.sqlite.path), copy = try Database(path: installed.path)
        #expect(try ContentDigest.compute(copy) == ContentDigest.compute(original), "\(name)")
        #expect(try copy.scalar("PRAGMA user_version") == original.scalar("PRAGMA user_version"))
        let rowidTables = try original.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE '%WITHOUT ROWID%'")
        for table in rowidTables.compactMap({ $0[0].string }) {
            let rowids = "SELECT group_concat(rowid) FROM \"\(table)\""
            #expect(try copy.scalar(rowids) == original.scalar(rowids), "\(name) \(table)")
        }
        let packedGzip = try Gzip.compress([UInt8](Data(contentsOf: packed)), level: 7).count
        let plainGzip = try Data(contentsOf: built.gzipped).count
        #expect(Double(packedGzip) <= Double(plainGzip) / 2, "\(name): \(packedGzip) of \(plainGzip) bytes")
        try compare(built.sqlite, label: "\(name) installed from its packed form", scratch: scratch.url, answering: installed)
    }

    /// The same SQL on the optional virtual tables: the system SQLite runs it, the core one
    /// cannot (so the comparison above really ran on a SQLite without them).
    @Test func theOptionalModulesAreMissingThere() throws {
        let workspace = Workspace()
        _ = try workspace.build(workspace.config(sources: [("metro", SharedData.sample("metro"))], extra: "    sqlite_modules: [rtree, fts5]\n"))
        let bundle = workspace.folder.url.appendingPathComponent("modules.sqlite")
        try Data(Gzip.decompress([UInt8](Data(contentsOf: workspace.latestBundle())))).write(to: bundle)
        let requests = [
            CoreQueryRunner.Request(name: "stops_near_rtree", parameters: AppQueries.near(lat: 37.800099, lon: -122.242684, delta: 0.005)),
            CoreQueryRunner.Request(name: "stops_named_fts5", parameters: ["match": .text(SearchText.fts5Match("rockridge")), "limit": .integer(10)]),
        ]
        let reply = try CoreQueryRunner(bundle: bundle).run(requests, scratch: workspace.folder.url)
        let database = try Database(path: bundle.path)
        for (request, answer) in zip(requests, reply.answers) {
            #expect(try !AppQueries.run(request.name, on: database, request.parameters).isEmpty, "\(request.name) on the system SQLite")
            #expect(answer.error?.contains("no such module") == true, "\(request.name) on the core SQLite: \(answer)")
        }
    }
}
