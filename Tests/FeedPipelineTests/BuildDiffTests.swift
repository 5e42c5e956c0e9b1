import BundleFormat
import FeedDiff
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// `feedc build` writes the diff against the previous version beside each published version's
/// report, lists it in the manifest, and prunes it with its version.
@Suite struct BuildDiffTests {
    /// The tiny feed with line 1 running `trips` times on weekdays.
    static func feed(trips: Int) -> [String: String] {
        var tripsText = "route_id,service_id,trip_id\n"
        var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for t in 1...trips {
            tripsText += "R1,WK,T\(t)\n"
            for (i, stop) in ["S1", "S2", "S3"].enumerated() {
                let time = String(format: "%02d:%02d:00", 6 + t, i * 5)
                stopTimes += "T\(t),\(time),\(time),\(stop),\(i + 1)\n"
            }
        }
        return TinyFeed.with(["trips.txt": tripsText, "stop_times.txt": stopTimes])
    }

    @Test func secondVersionCarriesItsDiff() throws {
        let workspace = Workspace()
        let folder = TemporaryFolder()
        let first = try workspace.build(workspace.config(sources: [("tiny", folder.feed("v1", Self.feed(trips: 4)))]))
        #expect(first.status == .published)
        #expect(try requireManifestValue(workspace.manifest()).latest.diff == nil, "a first version has nothing to compare with")

        let second = try workspace.build(workspace.config(sources: [("tiny", folder.feed("v2", Self.feed(trips: 3)))]))
        #expect(second.status == .published)
        let manifest = try requireManifestValue(workspace.manifest())
        #expect(manifest.latest.version == 2)
        let diffPath = try #require(manifest.latest.diff)
        // Named by version and the file's own SHA-256, so a name never holds two contents.
        let diffData = try Data(contentsOf: workspace.output.appendingPathComponent("b").appendingPathComponent(diffPath))
        #expect(diffPath == "reports/2-\(sha256Hex(diffData).prefix(12)).diff.json")
        #expect(manifest.versions.map(\.diff) == [diffPath, nil])
        let data = diffData
        let diff = try DiffJSON.decode(data)
        #expect(!diff.identical)
        #expect(diff.old.label == "b@1" && diff.new.label == "b@2")
        #expect(diff.old.version == 1 && diff.new.version == 2)
        #expect(diff.old.digest == manifest.versions[1].digest && diff.new.digest == manifest.latest.digest)
        let line = try #require(diff.lines.changed.first)
        #expect(line.tripsPerDay == Change(old: DayCounts(weekday: 4), new: DayCounts(weekday: 3)))
        // The same as `feedc diff out/b@1 out/b@2`.
        let folderPath = workspace.output.appendingPathComponent("b").path
        let direct = try DiffRunner().diff(folderPath + "@1", folderPath + "@2")
        #expect(direct.lines == diff.lines && direct.counts == diff.counts)
    }

    @Test func publishedVersionsAreNamedByFolderAndVersion() throws {
        let workspace = Workspace()
        let folder = TemporaryFolder()
        for trips in [4, 3] {
            _ = try workspace.build(workspace.config(sources: [("tiny", folder.feed("v\(trips)", Self.feed(trips: trips)))]))
        }
        let bundle = workspace.output.appendingPathComponent("b").path
        let manifest = try requireManifestValue(workspace.manifest())
        #expect(try DiffInput.resolve(bundle + "@1").kind == .published(version: 1))
        #expect(try DiffInput.resolve(bundle + "@latest").kind == .published(version: 2))
        #expect(try DiffInput.resolve(bundle).kind == .published(version: 2), "the folder alone is its latest version")
        #expect(try DiffInput.resolve(bundle + "@2").url.path == workspace.output.appendingPathComponent("b").appendingPathComponent(manifest.latest.file).path)
        #expect(try DiffInput.resolve(workspace.output.appendingPathComponent("b").appendingPathComponent(manifest.latest.file).path).kind == .bundleFile)
        #expect(throws: DiffInputError.self) { try DiffInput.resolve(bundle + "@7") }
        // A published version against the dump it was built from: the same content.
        let same = try DiffRunner().diff(bundle + "@2", folder.url.appendingPathComponent("v3").path)
        #expect(same.identical)
        #expect(same.old.version == 2 && same.new.version == nil)
    }

    @Test func prunedVersionsTakeTheirDiffWithThem() throws {
        let workspace = Workspace()
        let folder = TemporaryFolder()
        for trips in [4, 3, 2] {
            _ = try workspace.build(workspace.config(sources: [("tiny", folder.feed("v\(trips)", Self.feed(trips: trips)))], keep: 2))
        }
        let reports = try FileManager.default.contentsOfDirectory(atPath: workspace.output.appendingPathComponent("b/reports").path)
        #expect(
            reports.map { String($0.prefix(2)) + ($0.hasSuffix(".diff.json") ? "diff" : "report") }.sorted() == ["2-diff", "2-report", "3-diff", "3-report"])
    }

    @Test func unchangedRunWritesNoDiff() throws {
        let workspace = Workspace()
        let folder = TemporaryFolder()
        let config = try workspace.config(sources: [("tiny", folder.feed("v", Self.feed(trips: 2)))])
        _ = try workspace.build(config)
        var forced = BuildRunner(config: config)
        forced.force = true
        #expect(try forced.run()[0].status == .unchanged)
        let reports = try FileManager.default.contentsOfDirectory(atPath: workspace.output.appendingPathComponent("b/reports").path)
        #expect(!reports.contains { $0.hasSuffix(".diff.json") })
    }

    /// A dump side of any format is compiled as a build would: a Kalkati dump, detected from its
    /// content, against itself is the same content; against its GTFS twin, the same stops.
    @Test func kalkatiDumpAsADiffSide() throws {
        let kalkati = SharedData.projectRoot.appendingPathComponent("Samples/kalkati/metro.xml").path
        let same = try DiffRunner().diff(kalkati, kalkati)
        #expect(same.identical)
        let twin = try DiffRunner().diff(kalkati, SharedData.projectRoot.appendingPathComponent("Samples/kalkati/metro-gtfs").path)
        #expect(twin.stops.added.isEmpty && twin.stops.removed.isEmpty)
        #expect(twin.counts["trips"]?.added == 0 && twin.counts["trips"]?.removed == 0)
    }
}
