import BundleFormat
import FeedPipeline
import FeedSQLite
import Foundation
import TestSupport

/// Builds bundles from legacy sources through the real pipeline (pipeline.yaml → BuildRunner).
final class LegacyWorkspace {
    let folder = TemporaryFolder()
    var output: URL { folder.url.appendingPathComponent("out") }

    struct Source {
        var id: String
        var format: String
        var path: URL
        var extra: [String: String] = [:]
    }

    func config(bundle: String = "b", _ sources: [Source]) throws -> PipelineConfig {
        var yaml = "output: out\nbundles:\n  - name: \(bundle)\n    sources:\n"
        for source in sources {
            yaml += "      - id: \(source.id)\n        format: \(source.format)\n        path: \(source.path.path)\n"
            for (key, value) in source.extra.sorted(by: { $0.key < $1.key }) { yaml += "        \(key): \(value)\n" }
        }
        let file = folder.url.appendingPathComponent("pipeline-\(bundle).yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        return try PipelineConfigParser().parse(contentsOf: file)
    }

    /// Builds one bundle and opens its latest version.
    func build(bundle: String = "b", _ sources: [Source]) throws -> (report: BuildReport, bundle: BundleDatabase?) {
        let report = try BuildRunner(config: config(bundle: bundle, sources)).run()[0]
        let manifestURL = output.appendingPathComponent(bundle).appendingPathComponent("manifest.json")
        guard report.status == .published, let data = FileManager.default.contents(atPath: manifestURL.path) else {
            return (report, nil)
        }
        let manifest = try Manifest.decode(data)
        let file = output.appendingPathComponent(bundle).appendingPathComponent(manifest.latest.file)
        return (report, try BundleDatabase(file))
    }

    /// A folder of links to some files of ../shared/data/nextbus, under new names when given
    /// (content, not names, says what a response is).
    func nextBusFolder(_ name: String, _ files: [String: String]) throws -> URL {
        let dir = folder.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (original, linkName) in files {
            try FileManager.default.createSymbolicLink(
                at: dir.appendingPathComponent(linkName),
                withDestinationURL: SharedData.url("nextbus/\(original)"))
        }
        return dir
    }
}

/// An opened bundle, closed on release.
final class BundleDatabase {
    let database: Database
    private let cleanup: () -> Void

    init(_ url: URL) throws {
        (database, cleanup) = try BundleFile.open(url)
    }

    deinit { cleanup() }

    func strings(_ sql: String) throws -> [String] {
        try database.rows(sql).map { $0[0].string ?? $0[0].int.map(String.init) ?? $0[0].double.map { String($0) } ?? "NULL" }
    }

    func int(_ sql: String) throws -> Int? {
        try database.scalar(sql)?.int
    }
}
