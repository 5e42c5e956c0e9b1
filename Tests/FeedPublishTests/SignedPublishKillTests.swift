import BundleFormat
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// `feedc publish` killed (SIGKILL) at 40 moments spread over a signed publication to
/// `rclone serve s3`: after every kill the live manifest verifies with the live signature, so no
/// signed app refuses to update. Before, the read-back wait (1 s) lay between the manifest and
/// its signature, and 18 of 40 kills left the live manifest unverifiable until the next run; now
/// the signature object holds the live manifest's signature and the new one's before the manifest
/// is replaced (`ManifestSignature.bridge`).
@Suite(
    .serialized,
    .enabled(
        if: SharedData.isAvailable && RcloneS3.isAvailable && FeedcBinary.suitesRun,
        "needs ../shared/data, rclone (.ci/run installs it) and the feedc binary"))
struct SignedPublishKillTests {
    @Test func everyKillLeavesAVerifiableManifest() throws {
        let feedc = try #require(FeedcBinary.url)
        let store = try Store()
        let pipeline = PublishingPipeline()
        let (privateKey, publicKey) = ManifestSignature.generateKeyPair()
        try privateKey.write(to: pipeline.folder.url.appendingPathComponent("key"), atomically: true, encoding: .utf8)
        let dumps = SharedData.zips(in: "versions/wichita")
        let publish = "  to: s3://feeds/k"
        let signing = "    signing_key: key\n"
        let first = try build(pipeline.write(source: dumps[0], publish: publish, extra: signing), store: store)
        try #require(first.upload?.status == .uploaded, "\(first.upload?.error ?? "")")

        func liveVerifies() -> (verifies: Bool, version: Int?, lines: Int) {
            guard let manifest = FileManager.default.contents(atPath: store.file("k/w/manifest.json").path),
                let signature = FileManager.default.contents(atPath: store.file("k/w/manifest.json.sig").path)
            else { return (false, nil, 0) }
            let text = String(decoding: signature, as: UTF8.self)
            return (
                ManifestSignature.verify(manifest, signature: text, publicKey: publicKey),
                try? Manifest.decode(manifest).latest.version, ManifestSignature.lines(of: text).count
            )
        }
        /// Builds the next version locally (the dumps alternate, so each is new content), then
        /// runs `feedc publish`, killed after `delay` seconds when one is given.
        func publishNext(_ round: Int, killAfter delay: Double?) throws -> Double {
            _ = try build(pipeline.write(source: dumps[round % 2 == 0 ? 1 : 0], publish: nil, extra: signing), store: store)
            _ = try pipeline.write(source: dumps[round % 2 == 0 ? 1 : 0], publish: publish, extra: signing)
            let process = Process()
            process.executableURL = feedc
            process.arguments = ["publish", "--config", pipeline.file.path]
            process.environment = ProcessInfo.processInfo.environment.merging(store.environment()) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let start = Date()
            try process.run()
            if let delay {
                Thread.sleep(forTimeInterval: delay)
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
            return Date().timeIntervalSince(start)
        }

        // One whole publication measures how long one takes; the kills are spread over it.
        let whole = try publishNext(0, killAfter: nil)
        #expect(liveVerifies().verifies)
        var outcomes: [(version: Int?, lines: Int)] = []
        for round in 1...40 {
            let before = liveVerifies().version
            _ = try publishNext(round, killAfter: whole * (Double(round) - 0.5) / 40)
            // What rclone still had in hand when the publisher died, finished (Store.settle).
            store.settle()
            let after = liveVerifies()
            #expect(after.verifies, "round \(round): killed at \(whole * (Double(round) - 0.5) / 40) s, the live manifest does not verify")
            outcomes.append((after.version == before ? nil : after.version, after.lines))
            // The next round starts from a finished publication.
            let finished = try Subprocess.run(feedc, ["publish", "--config", pipeline.file.path], environment: store.environment())
            #expect(finished.status == 0, "round \(round): \(finished.error)")
            #expect(liveVerifies().verifies && liveVerifies().lines == 1, "round \(round): after a whole publication")
        }
        // Kills did land in the window that used to be unsigned (the new manifest live during the
        // read-back wait, before its signature alone): there the two-line signature is live. (The
        // old manifest beside the two lines lasts only the few milliseconds between the two
        // writes, too short to be hit reliably by 40 kills.)
        #expect(outcomes.contains { $0.version != nil && $0.lines == 2 }, "\(outcomes)")
        print("signed publication: \(String(format: "%.2f", whole)) s whole; 40 kills, the live manifest verified after each")
    }
}
