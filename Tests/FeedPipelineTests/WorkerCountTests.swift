import BundleFormat
import FeedModel
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// Work runs side by side (sources read, validated, enhanced and compiled; tables sorted; deltas
/// computed), yet the output must not depend on how many workers there are: the same three-source
/// pipeline, built through three versions with 1 and with 4 workers, gives the same bundle and
/// delta bytes and the same manifest (reports hold wall-clock stage times, so their names differ;
/// everything else in the manifest must be equal).
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
struct WorkerCountTests {
    @Test func oneAndFourWorkersWriteTheSameBytes() throws {
        let feeds = ["versions/wichita", "versions/caltrain", "versions/bart"].map { SharedData.zips(in: $0) }
        try #require(feeds.allSatisfy { $0.count >= 3 })
        var outputs: [[String: Data]] = []
        var manifests: [Manifest] = []
        for workers in [1, 4] {
            let workspace = Workspace()
            for version in 0..<3 {
                let sources = zip(["wichita", "caltrain", "bart"], feeds).map { ($0, $1[version]) }
                var runner = BuildRunner(config: try workspace.config(sources: sources, extra: "    max_delta_share: 1.0\n"))
                runner.workers = Workers(workers)
                let report = try runner.run()[0]
                #expect(report.status == .published, "\(workers) workers, version \(version + 1): \(report.reason ?? "")")
            }
            let manifest = try requireManifestValue(workspace.manifest())
            #expect(manifest.deltas.count == 2, "version 3 has deltas from versions 1 and 2")
            var files: [String: Data] = [:]
            for path in manifest.listedFiles where !path.hasPrefix("reports/") {
                files[path] = try Data(contentsOf: workspace.output.appendingPathComponent("b").appendingPathComponent(path))
            }
            outputs.append(files)
            manifests.append(manifest)
        }
        #expect(outputs[0].count == 8, "3 bundles, each packed too, and 2 deltas")
        #expect(outputs[0] == outputs[1])
        func withoutReports(_ manifest: Manifest) -> Manifest {
            var copy = manifest
            copy.latest.report = nil
            copy.versions = copy.versions.map {
                var v = $0
                v.report = nil
                return v
            }
            return copy
        }
        #expect(withoutReports(manifests[0]) == withoutReports(manifests[1]))
    }
}
