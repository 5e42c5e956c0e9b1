import BundleFormat
import BundleWriter
import FeedPipeline
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// The main job on the project's own samples: publish, determinism, unchanged runs.
@Suite struct SampleBuildTests {
    @Test func samplePipelinePublishesAndReportsRowCounts() throws {
        let workspace = Workspace()
        let report = try workspace.build(workspace.config(sources: [("metro", SharedData.sample("metro"))]))
        #expect(report.status == .published)
        #expect(report.version == 1)
        let manifest = try requireManifestValue(workspace.manifest())
        #expect(manifest.format == 3, "format 3: portable bundles with GTFS stop_sequence")
        #expect(manifest.bundle == "b")
        #expect(manifest.latest.file.hasPrefix("bundles/1-"))
        #expect(manifest.latest.serviceStart == "2026-01-01")
        #expect(manifest.latest.serviceEnd == "2026-12-31")
        let file = try workspace.latestBundle()
        let bytes = try Data(contentsOf: file)
        #expect(manifest.latest.bytes == bytes.count)
        #expect(manifest.latest.sha256 == sha256Hex(bytes))
        let inspection = try BundleInspection(file: file)
        #expect(inspection.digest == manifest.latest.digest)
        #expect(inspection.version == 1)
        #expect(inspection.rows["stops"] == 49)
        #expect(inspection.rows["trips"] == 359)
        #expect(inspection.rows["stop_times"] == 3771)
        #expect(inspection.rows["calendar_dates"] == 2)
        // The timetable is stored by pattern: far fewer rows than stop_times.
        #expect(inspection.rows["pattern_stops"]! + inspection.rows["timing_stops"]! < 3771 / 5)
        // The report is published beside the bundle.
        let reportPath = try #require(try requireManifestValue(workspace.manifest()).latest.report)
        #expect(reportPath.hasPrefix("reports/1-") && reportPath.hasSuffix(".json"))
        #expect(FileManager.default.fileExists(atPath: workspace.output.appendingPathComponent("b").appendingPathComponent(reportPath).path))
    }

    @Test func sameInputsGiveByteIdenticalBundles() throws {
        let first = Workspace(), second = Workspace()
        _ = try first.build(first.config(sources: [("metro", SharedData.sample("metro"))]))
        _ = try second.build(second.config(sources: [("metro", SharedData.sample("metro"))]))
        let a = try Data(contentsOf: first.latestBundle())
        let b = try Data(contentsOf: second.latestBundle())
        #expect(a == b)
        #expect(a.prefix(2) == Data([0x1F, 0x8B]))
    }

    /// Swift seeds its hashing per process: two separate `feedc build` processes must also write
    /// the same bytes, so no dictionary order can leak into a bundle.
    @Test func separateProcessesWriteByteIdenticalBundles() throws {
        let feedc = try #require(FeedcBinary.url, "the feedc binary is built beside the tests")
        var bundles: [Data] = []
        for _ in 0..<2 {
            let workspace = Workspace()
            let config = try workspace.config(sources: [("metro", SharedData.sample("metro")), ("rail", SharedData.sample("rail"))])
            let process = Process()
            process.executableURL = feedc
            process.arguments = ["build", "--config", config.file.path]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            bundles.append(try Data(contentsOf: workspace.latestBundle()))
        }
        #expect(bundles[0] == bundles[1])
    }

    @Test func unchangedRunTouchesNothing() throws {
        let workspace = Workspace()
        let config = try workspace.config(sources: [("metro", SharedData.sample("metro"))])
        _ = try workspace.build(config)
        let before = workspace.snapshot()
        Thread.sleep(forTimeInterval: 0.02)
        let again = try workspace.build(config)
        #expect(again.status == .unchanged)
        #expect(workspace.snapshot() == before)
        // Forced: parsed and written again, same digest, still nothing published.
        var forced = BuildRunner(config: config)
        forced.force = true
        let report = try forced.run()[0]
        #expect(report.status == .unchanged)
        #expect(report.reason?.contains("same content") == true)
        #expect(workspace.snapshot() == before)
    }

    @Test func multiSourceBundleNamespacesIds() throws {
        let workspace = Workspace()
        let report = try workspace.build(workspace.config(sources: [("metro", SharedData.sample("metro")), ("rail", SharedData.sample("rail"))]))
        #expect(report.status == .published)
        let (database, cleanup) = try BundleFile.open(try workspace.latestBundle())
        defer { cleanup() }
        let prefixes = try database.rows("SELECT DISTINCT substr(stop_id, 1, instr(stop_id, ':')) FROM stops").compactMap { $0[0].string }
        #expect(Set(prefixes) == ["metro:", "rail:"])
        let orphans = try database.scalar("SELECT count(*) FROM trips WHERE route_id NOT IN (SELECT route_id FROM routes)")?.int
        #expect(orphans == 0)
        #expect(try database.scalar("SELECT count(*) FROM feeds")?.int == 2)
        #expect(try database.scalar("SELECT count(*) FROM stop_times")?.int == 3771 + 1030)
    }

    @Test func retentionPrunesOldVersions() throws {
        let workspace = Workspace()
        let folder = TemporaryFolder()
        var versions: [Int] = []
        for hour in 6...9 {
            let dump = folder.feed(
                "v\(hour)",
                TinyFeed.with([
                    "stop_times.txt":
                        "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,0\(hour):00:00,0\(hour):00:00,S1,1\nT1,0\(hour):05:00,0\(hour):05:00,S2,2\nT2,10:00:00,10:00:00,S1,1\nT2,10:05:00,10:05:00,S2,2\n"
                ]))
            let report = try workspace.build(workspace.config(sources: [("tiny", dump)], keep: 2))
            versions.append(report.version ?? -1)
        }
        #expect(versions == [1, 2, 3, 4])
        let manifest = try requireManifestValue(workspace.manifest())
        #expect(manifest.versions.map(\.version) == [4, 3])
        let files = try FileManager.default.contentsOfDirectory(atPath: workspace.output.appendingPathComponent("b/bundles").path)
        #expect(files.sorted().map { $0.split(separator: "-")[0] } == ["3", "3", "4", "4"], "each kept version plain and packed")
        let reports = try FileManager.default.contentsOfDirectory(atPath: workspace.output.appendingPathComponent("b/reports").path)
        // Each retained version keeps its report and its diff against the version before it.
        #expect(
            reports.map { String($0.prefix(2)) + ($0.hasSuffix(".diff.json") ? "diff" : "report") }.sorted() == ["3-diff", "3-report", "4-diff", "4-report"])
    }

    @Test func aFailingBundleDoesNotStopTheOthers() throws {
        let workspace = Workspace()
        let yaml = """
            output: out
            bundles:
              - name: broken
                sources:
                  - id: remote
                    url: http://127.0.0.1:9/feed.zip
              - name: b
                sources:
                  - id: metro
                    path: \(SharedData.sample("metro").path)

            """
        let file = workspace.folder.url.appendingPathComponent("pipeline.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let reports = try BuildRunner(config: PipelineConfigParser().parse(contentsOf: file)).run()
        #expect(reports.map(\.status) == [.failed, .published])
    }

    @Test func lockStopsASecondBuild() throws {
        let workspace = Workspace()
        let config = try workspace.config(sources: [("metro", SharedData.sample("metro"))])
        let held = try BundleWriterLock.hold(config.output)
        defer { withExtendedLifetime(held) {} }
        do {
            _ = try BuildRunner(config: config).run()
            Issue.record("a second build ran while the lock was held")
        } catch let error as PublishError {
            guard case .locked = error else {
                Issue.record("expected .locked, got \(error)")
                return
            }
        }
    }
}

enum BundleWriterLock {
    static func hold(_ folder: URL) throws -> OutputLock { try OutputLock(folder: folder) }
}
