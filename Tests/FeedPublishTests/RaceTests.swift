import BundleFormat
import FeedClient
import FeedPipeline
import FeedPublish
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// Two builds of one bundle, on two runners, publishing to one bucket at the same moment: one
/// consistent manifest, and an error from the loser naming the winner's version. Once on a
/// store that honours `If-Match` (the proxy enforces it, as AWS S3 does), once on rclone alone,
/// which ignores it (the check before and the read-back after the write decide there).
@Suite(.serialized, .enabled(if: SharedData.isAvailable && RcloneS3.isAvailable, "needs ../shared/data and rclone (.ci/run installs it)"))
struct RaceTests {
    static let publish = "  to: s3://feeds/race\n  prune_after: 1h"

    @Test(arguments: [true, false]) func twoPublishersOneManifest(conditional: Bool) async throws {
        let store = try Store(conditional: conditional)
        let dumps = SharedData.zips(in: "versions/wichita")
        let a = PublishingPipeline(), b = PublishingPipeline()
        #expect(try build(a.write(source: dumps[0], publish: Self.publish), store: store).upload?.status == .uploaded)
        #expect(try build(b.write(source: dumps[0], publish: Self.publish), store: store).status == .unchanged)

        // Both build their version 2 and arrive at the manifest write together.
        let barrier = Barrier(parties: 2)
        var options = RemoteOptions.fast
        options.settle = 1
        options.beforeManifestWrite = { barrier.arrive() }
        let configs = [try a.write(source: dumps[1], publish: Self.publish), try b.write(source: dumps[2], publish: Self.publish)]
        let boxes = [ReportBox(), ReportBox()]
        let group = DispatchGroup()
        let environment = store.environment(), racing = options
        for (config, box) in zip(configs, boxes) {
            group.enter()
            Thread {
                box.result = Result { try build(config, store: store, options: racing, environment: environment) }
                group.leave()
            }.start()
        }
        group.wait()
        let reports = try boxes.map { try #require(try $0.result?.get()) }
        #expect(reports.allSatisfy { $0.status == .published && $0.version == 2 })
        let uploads = reports.compactMap(\.upload)
        let winners = uploads.indices.filter { uploads[$0].status == .uploaded }
        let losers = uploads.indices.filter { uploads[$0].status == .failed }
        try #require(winners.count == 1 && losers.count == 1, "\(uploads.map { "\($0.status) \($0.error ?? "")" })")
        let winner = [a, b][winners[0]], loser = losers[0]
        #expect(uploads[loser].errorKind == .lostRace)
        let live = try #require(try store.manifest("race/w/manifest.json"))
        #expect(uploads[loser].error?.contains("version 2 (\(live.latest.digest))") == true, "\(uploads[loser].error ?? "")")
        if conditional {
            #expect(store.proxy.entries.contains { $0.method == "PUT" && $0.path.hasSuffix("manifest.json") && $0.status == .code(412) })
        }
        // One consistent manifest: the winner's, every file it lists whole.
        #expect(try Data(contentsOf: store.file("race/w/manifest.json")) == winner.localManifest())
        for version in live.versions {
            #expect(sha256Hex(try Data(contentsOf: store.file("race/w/\(version.file)"))) == version.sha256)
        }
        for delta in live.deltas {
            #expect(sha256Hex(try Data(contentsOf: store.file("race/w/\(delta.file)"))) == delta.sha256)
        }
        let app = a.folder.url.appendingPathComponent("app.sqlite")
        _ = try await FeedClient(manifest: store.publicURL("race/w/manifest.json"), database: app).update()
        #expect(try ContentDigest.compute(Database(path: app.path)) == live.latest.digest)

        // The loser's next run continues from the winner's version 2: its content is version 3.
        let again = try build(configs[loser], store: store)
        #expect(again.status == .published && again.version == 3 && again.upload?.status == .uploaded, "\(again.upload?.error ?? "")")
        #expect(try store.manifest("race/w/manifest.json")?.versions.map(\.digest) == [again.digest!, live.latest.digest, live.versions[1].digest])
    }
}

/// Lets `parties` threads through together (or each after 60 s).
final class Barrier: @unchecked Sendable {
    private let condition = NSCondition()
    private let parties: Int
    private var arrived = 0

    init(parties: Int) {
        self.parties = parties
    }

    func arrive() {
        condition.lock()
        arrived += 1
        condition.broadcast()
        let deadline = Date().addingTimeInterval(600)  // a hang's bound: parties start when a loaded machine lets them
        while arrived < parties && condition.wait(until: deadline) {}
        condition.unlock()
    }
}
