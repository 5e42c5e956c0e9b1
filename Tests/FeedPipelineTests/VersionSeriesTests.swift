import BundleFormat
import FeedModel
import FeedPipeline
import FeedSQLite
import FeedSources
import Foundation
import TestSupport
import Testing

/// Wichita's 27 dumps built in date order into one output folder: one new version per real
/// change, none for the byte-identical 2019-06-04 republish; the 2019-05-14 dump with an empty
/// stop_times.txt is refused and the previous version stays published. Two versions are kept,
/// so each build writes the one delta it is checked by (keeping all 26 wrote 325 deltas, a third
/// of the suite's CPU; every retained version's delta is the client series' business,
/// WichitaClientSeries).
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
struct VersionSeriesTests {
    @Test func wichitaInDateOrder() throws {
        let dumps = SharedData.zips(in: "versions/wichita")
        try #require(dumps.count == 27)
        let broken = SharedData.url("gtfs/broken/wichita_2019-05-14_empty_stop_times.zip")
        // The broken dump arrives in its place in time, between 2019-03-05 and 2019-06-04.
        var sequence = dumps
        let index = try #require(sequence.firstIndex { $0.lastPathComponent.contains("2019-06-04") })
        sequence.insert(broken, at: index)

        let workspace = Workspace()
        let folder = TemporaryFolder()
        let current = folder.url.appendingPathComponent("wichita.zip")
        var previousContent: [String: [UInt8]]?
        var published = 0
        for dump in sequence {
            // The pipeline always points at the same path, as a nightly job's download would.
            try? FileManager.default.removeItem(at: current)
            try FileManager.default.copyItem(at: dump, to: current)
            let before = workspace.snapshot("wichita")
            let report = try workspace.build(
                workspace.config(
                    bundle: "wichita", sources: [("wichita", current)],
                    extra: "    max_delta_share: 1.0\n", keep: 2))
            let name = dump.lastPathComponent
            if dump == broken {
                #expect(report.status == .refused, "\(name)")
                #expect(report.reason?.contains("stop_times.txt") == true, "\(name): \(report.reason ?? "")")
                #expect(workspace.snapshot("wichita") == before, "\(name): published files changed")
                continue
            }
            let content = try compiledFiles(dump)
            if let previousContent, previousContent == content {
                #expect(report.status == .unchanged, "\(name): same compiled files as the previous dump")
                #expect(workspace.snapshot("wichita") == before, "\(name): files touched")
            } else {
                #expect(report.status == .published, "\(name): \(report.reason ?? "")")
                published += 1
                #expect(report.version == published, "\(name)")
                try checkDeltaFromPrevious(workspace, name)
                // The new bundle's file matches its listed checksum.
                let latest = try requireManifestValue(workspace.manifest("wichita")).latest
                let data = try Data(contentsOf: workspace.output.appendingPathComponent("wichita").appendingPathComponent(latest.file))
                #expect(sha256Hex(data) == latest.sha256, "\(name)")
            }
            previousContent = content
        }
        let manifest = try requireManifestValue(workspace.manifest("wichita"))
        #expect(manifest.latest.version == published)
        #expect(published == 26, "27 dumps, one of them a byte-identical republish")
        #expect(manifest.versions.map(\.version) == [published, published - 1], "two versions kept")
        let files = try FileManager.default.contentsOfDirectory(atPath: workspace.output.appendingPathComponent("wichita/bundles").path)
        #expect(files.count == 4, "older bundles (plain and packed) are removed: \(files.sorted())")
    }

    /// The delta from the previous version, applied to that version's bundle, gives exactly the
    /// new version's content digest.
    private func checkDeltaFromPrevious(_ workspace: Workspace, _ name: String) throws {
        let manifest = try requireManifestValue(workspace.manifest("wichita"))
        guard manifest.versions.count > 1 else { return }
        let previous = manifest.versions[1]
        guard let delta = manifest.deltas.first(where: { $0.from == previous.version }) else {
            Issue.record("\(name): no delta from version \(previous.version)")
            return
        }
        let folder = workspace.output.appendingPathComponent("wichita")
        let base = workspace.folder.url.appendingPathComponent("base-\(previous.version).sqlite")
        try Data(Gzip.decompress([UInt8](Data(contentsOf: folder.appendingPathComponent(previous.file))))).write(to: base)
        let sql = try Gzip.decompress([UInt8](Data(contentsOf: folder.appendingPathComponent(delta.file))))
        try DeltaApplier.apply(
            String(decoding: sql, as: UTF8.self), to: Database(path: base.path, mode: .readWrite),
            expectedDigest: manifest.latest.digest)
        try? FileManager.default.removeItem(at: base)
    }

    /// The bytes of the files feedc compiles, by name: equal maps mean equal input content.
    private func compiledFiles(_ dump: URL) throws -> [String: [UInt8]] {
        let archive = try DumpArchive(url: dump, sink: NoticeSink())
        var out: [String: [UInt8]] = [:]
        for schema in GTFSSchema.tables {
            if let bytes = try archive.read(schema.fileName) { out[schema.fileName] = bytes }
        }
        return out
    }
}
