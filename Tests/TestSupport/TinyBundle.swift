import BundleFormat
import FeedPipeline
import Foundation

/// A small feed written by a test, compiled by the build's own stages and unpacked: the bundle's
/// `.sqlite` file, for tests that read a bundle in process (planner, client).
public enum TinyBundle {
    /// The build did not publish the feed.
    public struct Unpublished: Error, CustomStringConvertible {
        public var reason: String
        public var description: String { "the tiny feed was not published: \(reason)" }
    }

    /// `files` (name → text, as ``TinyFeed``) built as bundle `t` in `folder`; the unpacked
    /// file `t.sqlite` there.
    public static func compile(_ files: [String: String], in folder: TemporaryFolder) throws -> URL {
        let dump = folder.feed("feed", files)
        let yaml = folder.url.appendingPathComponent("pipeline.yaml")
        try "output: out\nbundles:\n  - name: t\n    sources:\n      - id: t\n        path: \(dump.path)\n".write(to: yaml, atomically: true, encoding: .utf8)
        return try build(pipeline: yaml, bundle: "t", in: folder)
    }

    /// Bundle `name` of the pipeline `yaml` (whose `output:` is `out` in `folder`) built and
    /// unpacked: `NAME.sqlite` in `folder`.
    public static func build(pipeline yaml: URL, bundle name: String, in folder: TemporaryFolder) throws -> URL {
        let reports = try BuildRunner(config: PipelineConfigParser().parse(contentsOf: yaml)).run()
        guard let report = reports.first(where: { $0.bundle == name }) ?? reports.first else { throw Unpublished(reason: "no bundle \(name)") }
        guard report.status == .published else { throw Unpublished(reason: report.reason ?? "\(report.status)") }
        let manifest = try Manifest.decode(Data(contentsOf: folder.url.appendingPathComponent("out/\(name)/manifest.json")))
        let db = folder.url.appendingPathComponent("\(name).sqlite")
        let gzipped = folder.url.appendingPathComponent("out/\(name)").appendingPathComponent(manifest.latest.file)
        try Data(Gzip.decompress([UInt8](Data(contentsOf: gzipped)))).write(to: db)
        return db
    }
}
