import BundleFormat
import FeedModel
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// A single-source build with a worker to spare compiles the source's timetable beside its
/// enhancement (BundleWriter.DraftedTimetable), adding each pattern's direction afterwards: the
/// bundle must be byte for byte the one compiled in line with one worker, on the samples (the
/// rail sample has frequency-based trips and translations) and, where the real data is, on
/// Bydgoszcz.
@Suite struct DraftedTimetableTests {
    private func bundleBytes(_ dump: URL, workers: Int) throws -> (Data, String) {
        let workspace = Workspace()
        var runner = BuildRunner(config: try workspace.config(sources: [("only", dump)]))
        runner.workers = Workers(workers)
        let report = try runner.run()[0]
        #expect(report.status == .published, "\(report.reason ?? "")")
        let manifest = try requireManifestValue(workspace.manifest())
        return (
            try Data(contentsOf: workspace.output.appendingPathComponent("b").appendingPathComponent(manifest.latest.file)),
            manifest.latest.digest
        )
    }

    @Test(arguments: ["metro", "rail"])
    func samplesGiveTheSameBytes(_ sample: String) throws {
        let inLine = try bundleBytes(SharedData.sample(sample), workers: 1)
        let drafted = try bundleBytes(SharedData.sample(sample), workers: 2)
        #expect(drafted.1 == inLine.1)
        #expect(drafted.0 == inLine.0)
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
    func bydgoszczGivesTheSameBytes() throws {
        let dump = SharedData.url("gtfs/medium/bydgoszcz_2020_otp.zip")
        let inLine = try bundleBytes(dump, workers: 1)
        let drafted = try bundleBytes(dump, workers: 2)
        #expect(drafted.1 == inLine.1)
        #expect(drafted.0 == inLine.0)
        // Patterns run in both directions: the direction written afterwards is not always 0.
        let file = try Self.write(drafted.0)
        defer { try? FileManager.default.removeItem(at: file) }
        let (database, close) = try BundleFile.open(file)
        defer { close() }
        let indexes = try database.rows("SELECT DISTINCT direction_index FROM patterns ORDER BY 1").compactMap { $0[0].int }
        #expect(indexes == [0, 1])
    }

    private static func write(_ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("drafted-\(UUID().uuidString).sqlite.gz")
        try data.write(to: url)
        return url
    }
}
