import BundleFormat
import FeedPipeline
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// Region bundles of real feeds for the network tests, each built once per test process into
/// a temporary folder and unpacked: the Bay Area (BART, Caltrain, Amtrak) of 2023 and of 2018
/// (the years whose BART and Caltrain timetables overlap), and the Northeast (New York's subway,
/// PATH, Amtrak, WMATA).
enum NetworkRegions {
    struct Source {
        var id: String
        var path: String
        var extra = ""
    }

    static let bay2023 = [
        Source(id: "bart", path: "gtfs/versions/bart/bart_2023-02_v67_tlib.zip"),
        Source(id: "caltrain", path: "gtfs/versions/caltrain/caltrain_2023-09-22_tlib.zip"),
        Source(id: "amtrak", path: "gtfs/versions/amtrak/amtrak_commit2021-10-05.zip"),
    ]
    static let bay2018 = [
        Source(id: "bart", path: "gtfs/versions/bart/bart_2018-05_v47_tlib.zip"),
        Source(id: "caltrain", path: "gtfs/versions/caltrain/caltrain_2018-06-12_tlib.zip"),
    ]
    static let northeast = [
        Source(id: "nyct", path: "gtfs/medium/nyct_subway_2023_oba.zip", extra: "        realtime_trip_ids: nyct\n"),
        Source(id: "path", path: "gtfs/versions/path/path_commit2025-12-19.zip"),
        Source(id: "amtrak", path: "gtfs/versions/amtrak/amtrak_commit2021-10-05.zip"),
        Source(id: "wmata", path: "gtfs/medium/wmata_2026_tlib.zip"),
    ]

    struct Built: @unchecked Sendable {
        let report: BuildReport
        let sqlite: URL
        func open() throws -> Database { try Database(path: sqlite.path, mode: .readOnly) }
    }

    nonisolated(unsafe) private static let folder = TemporaryFolder()
    private static let lock = NSLock()
    nonisolated(unsafe) private static var built: [String: Built] = [:]

    /// The region `name` of `sources`, built once (`extra`: bundle settings, indented as under a
    /// bundle).
    static func bundle(_ name: String, _ sources: [Source], extra: String = "") throws -> Built {
        lock.lock()
        defer { lock.unlock() }
        if let done = built[name + extra] { return done }
        let root = folder.url.appendingPathComponent("\(name)-\(built.count)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        var yaml = "output: out\nbundles:\n  - name: \(name)\n\(extra)    sources:\n"
        for source in sources {
            yaml += "      - id: \(source.id)\n        path: \(SharedData.url(source.path).path)\n\(source.extra)"
        }
        let file = root.appendingPathComponent("pipeline.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let report = try BuildRunner(config: try PipelineConfigParser().parse(contentsOf: file)).run()[0]
        try #require(report.status == .published, "\(report.reason ?? "")")
        let manifest = try #require(try Manifest.decode(Data(contentsOf: root.appendingPathComponent("out/\(name)/manifest.json"))))
        let packed = root.appendingPathComponent("out/\(name)").appendingPathComponent(manifest.latest.file)
        let sqlite = root.appendingPathComponent("\(name).sqlite")
        try Data(Gzip.decompress([UInt8](try Data(contentsOf: packed)))).write(to: sqlite)
        let result = Built(report: report, sqlite: sqlite)
        built[name + extra] = result
        return result
    }
}
