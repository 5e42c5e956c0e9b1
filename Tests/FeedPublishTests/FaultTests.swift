import BundleFormat
import FeedClient
import FeedPipeline
import FeedPublish
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// The store failing mid-upload: the live manifest keeps pointing at complete files, and the
/// next run finishes the job. Dropped connections are retried within the run.
@Suite(.serialized, .enabled(if: SharedData.isAvailable && RcloneS3.isAvailable, "needs ../shared/data and rclone (.ci/run installs it)"))
struct FaultTests {
    static let publish = "  to: s3://feeds/f\n  prune_after: 0s"

    /// A request that hears nothing for 5 s is given up (and tried again).
    static var impatient: RemoteOptions {
        var options = RemoteOptions.fast
        options.timeout = 5
        return options
    }

    @Test func serverKilledMidUpload() async throws {
        let store = try Store()
        let dumps = SharedData.zips(in: "versions/wichita")
        let pipeline = PublishingPipeline()
        #expect(try build(pipeline.write(source: dumps[0], publish: Self.publish), store: store).upload?.status == .uploaded)
        let first = try #require(try store.manifest("f/w/manifest.json"))

        // Uploads at 100 kB/s: the new bundle takes seconds, and the server dies during it.
        try store.restartWriter(throttle: 100_000)
        let config = try pipeline.write(source: dumps[1], publish: Self.publish)
        let box = ReportBox()
        let done = DispatchSemaphore(value: 0)
        let environment = store.environment()
        Thread {
            box.result = Result { try build(config, store: store, options: Self.impatient, environment: environment) }
            done.signal()
        }.start()
        let bundles = store.file("f/w/bundles")
        let deadline = Date().addingTimeInterval(600)  // the build before the upload takes what a loaded machine gives it
        var killed = false
        while Date() < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: bundles.path)) ?? []
            if names.contains(where: { $0.hasPrefix(".rclone_temp_put_") }) {
                store.writer.kill()
                killed = true
                break
            }
            usleep(10_000)
        }
        #expect(killed, "the bundle upload never started")
        let started = Date()
        done.wait()
        print("after the kill, the upload gave up in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        let report = try #require(try box.result?.get())
        #expect(report.status == .published && report.version == 2, "built and published locally")
        #expect(report.upload?.status == .failed)
        #expect(report.upload?.error?.contains("bundles/2-") == true, "\(report.upload?.error ?? "")")
        // The live manifest is the first one, and every file it lists is whole.
        #expect(try store.manifest("f/w/manifest.json") == first)
        try checkComplete(store, first)

        // The next run, the store back: nothing to build, the upload finishes.
        try store.restartWriter()
        let next = try build(pipeline.write(source: dumps[1], publish: Self.publish), store: store)
        #expect(next.status == .unchanged && next.upload?.status == .uploaded, "\(next.upload?.error ?? "")")
        let second = try #require(try store.manifest("f/w/manifest.json"))
        #expect(second.latest.version == 2)
        try checkComplete(store, second)
        let db = pipeline.folder.url.appendingPathComponent("app.sqlite")
        _ = try await FeedClient(manifest: store.publicURL("f/w/manifest.json"), database: db).update()
        #expect(try ContentDigest.compute(Database(path: db.path)) == second.latest.digest)
    }

    @Test func droppedConnectionsAreRetried() throws {
        // The first two uploads of each bundle are cut halfway through their body.
        let store = try Store(drop: "PUT .*/bundles/:2")
        let pipeline = PublishingPipeline()
        let report = try build(
            pipeline.write(source: SharedData.zips(in: "versions/wichita")[0], publish: Self.publish), store: store,
            options: Self.impatient)
        let upload = try #require(report.upload)
        #expect(upload.status == .uploaded, "\(upload.error ?? "")")
        #expect(upload.retries == 2)
        let puts = store.proxy.entries.filter { $0.method == "PUT" && $0.path.contains("/bundles/") }
        // Two files under bundles/: the plain bundle and its packed encoding.
        #expect(puts.map(\.status) == [.other("dropped"), .other("dropped"), .code(200), .code(200)])
        try checkComplete(store, #require(try store.manifest("f/w/manifest.json")))
    }

    /// Every file the manifest lists is in the store with the listed checksum.
    private func checkComplete(_ store: Store, _ manifest: Manifest) throws {
        for version in manifest.versions {
            #expect(sha256Hex(try Data(contentsOf: store.file("f/w/\(version.file)"))) == version.sha256, "\(version.file)")
            for encoded in version.encodings ?? [] {
                #expect(sha256Hex(try Data(contentsOf: store.file("f/w/\(encoded.file)"))) == encoded.sha256, "\(encoded.file)")
            }
            for path in [version.report, version.diff].compactMap({ $0 }) {
                #expect(FileManager.default.fileExists(atPath: store.file("f/w/\(path)").path), "\(path)")
            }
        }
        for delta in manifest.deltas {
            #expect(sha256Hex(try Data(contentsOf: store.file("f/w/\(delta.file)"))) == delta.sha256, "\(delta.file)")
        }
    }
}

final class ReportBox: @unchecked Sendable {
    var result: Result<BuildReport, Error>?
}
