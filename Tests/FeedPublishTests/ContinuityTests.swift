import BundleFormat
import FeedPipeline
import FeedPublish
import Foundation
import TestSupport
import Testing

/// Versions continue from the live manifest: a runner without `out/` does not start again at
/// version 1, the same content gets no new number, and an out-of-date folder is never uploaded.
@Suite(.serialized, .enabled(if: SharedData.isAvailable && RcloneS3.isAvailable, "needs ../shared/data and rclone (.ci/run installs it)"))
struct ContinuityTests {
    static let publish = "  to: s3://feeds/ci\n  prune_after: 1h"

    @Test func freshRunnerContinuesFromTheLiveManifest() throws {
        let store = try Store()
        let dumps = SharedData.zips(in: "versions/wichita")
        let first = PublishingPipeline()
        for dump in dumps.prefix(3) {
            #expect(try build(first.write(source: dump, publish: Self.publish), store: store).upload?.status == .uploaded)
        }
        let live = try #require(try store.manifest("ci/w/manifest.json"))
        #expect(live.latest.version == 3)

        // A new runner, no out/, tonight's dump unchanged: nothing parsed, nothing uploaded.
        let fresh = PublishingPipeline()
        var before = store.proxy.entries.count
        let unchanged = try build(fresh.write(source: dumps[2], publish: Self.publish), store: store)
        #expect(unchanged.status == .unchanged && unchanged.version == 3, "\(unchanged.reason ?? "")")
        #expect(unchanged.upload?.status == .upToDate)
        #expect(!store.proxy.entries.dropFirst(before).contains { ["PUT", "POST", "DELETE"].contains($0.method) })
        #expect(try fresh.localManifest() == Data(contentsOf: store.file("ci/w/manifest.json")), "out/ now mirrors the live manifest")

        // The same runner, a new dump: version 4, with deltas from the restored versions.
        before = store.proxy.entries.count
        let next = try build(fresh.write(source: dumps[3], publish: Self.publish), store: store)
        #expect(next.status == .published && next.version == 4)
        #expect(next.upload?.status == .uploaded)
        let manifest = try #require(try store.manifest("ci/w/manifest.json"))
        #expect(manifest.latest.version == 4 && manifest.versions.map(\.version) == [4, 3, 2, 1])
        #expect(Set(manifest.deltas.map(\.from)) == [1, 2, 3])
        // Only the new version's files were written; the restored ones were already there.
        let written = store.proxy.entries.dropFirst(before).filter { $0.method == "PUT" }.map { ($0.path as NSString).lastPathComponent }
        #expect(
            written.allSatisfy { $0.hasPrefix("4-") || $0.hasPrefix("1-4-") || $0.hasPrefix("2-4-") || $0.hasPrefix("3-4-") || $0 == "manifest.json" },
            "\(written)")

        // The first runner's out/ is behind now: `feedc publish` from it uploads nothing and says so.
        let stale = RemotePublisher(
            target: PublishTarget(bucket: "feeds", prefix: "ci"), bundle: "w", folder: first.bundleFolder,
            settings: try AWSSettings.fromEnvironment(store.environment()), options: .fast)
        let report = stale.publish()
        #expect(report.status == .upToDate && report.uploaded.isEmpty && report.liveVersion == 4 && report.version == 3)
        #expect(report.note?.contains("version 4") == true)
        // Its next build continues from version 4 too: same content as 4, no new number.
        let again = try build(first.write(source: dumps[3], publish: Self.publish), store: store)
        #expect(again.status == .unchanged && again.version == 4, "\(again.reason ?? "")")
    }

    /// A folder whose version 4 is not the live version 4 (another run published first) is
    /// never uploaded over it: the error names the live version.
    @Test func divergedFolderIsRefused() throws {
        let store = try Store()
        let dumps = SharedData.zips(in: "versions/wichita")
        let a = PublishingPipeline(), b = PublishingPipeline()
        _ = try build(a.write(source: dumps[0], publish: Self.publish), store: store)
        // b builds version 2 from another dump without publishing, a publishes its version 2.
        _ = try build(b.write(source: dumps[0], publish: Self.publish), store: store)
        _ = try BuildRunner(config: b.write(source: dumps[2], publish: nil)).run()
        #expect(try build(a.write(source: dumps[1], publish: Self.publish), store: store).upload?.status == .uploaded)
        let live = try #require(try store.manifest("ci/w/manifest.json"))
        let before = store.proxy.entries.count
        let report = RemotePublisher(
            target: PublishTarget(bucket: "feeds", prefix: "ci"), bundle: "w", folder: b.bundleFolder,
            settings: try AWSSettings.fromEnvironment(store.environment()), options: .fast
        ).publish()
        #expect(report.status == .failed && report.errorKind == .behind)
        #expect(report.error?.contains("version 2 (\(live.latest.digest))") == true, "\(report.error ?? "")")
        #expect(!store.proxy.entries.dropFirst(before).contains { ["PUT", "POST", "DELETE"].contains($0.method) })
        #expect(try store.manifest("ci/w/manifest.json") == live)
        // b's next build adopts the live version 2 and publishes its content as version 3.
        let next = try build(b.write(source: dumps[2], publish: Self.publish), store: store)
        #expect(next.status == .published && next.version == 3 && next.upload?.status == .uploaded)
    }
}
