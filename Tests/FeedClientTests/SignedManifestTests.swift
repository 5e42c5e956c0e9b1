import BundleFormat
import FeedClient
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// Ed25519-signed manifests: a client configured with the public key accepts the signed
/// manifest and refuses an unsigned or wrongly signed one, leaving its database as it was.
@Suite(.serialized, .enabled(if: Nginx.isInstalled, "needs nginx (.ci/run installs it)"))
struct SignedManifestTests {
    @Test func signedUnsignedAndWrongKey() async throws {
        let folder = TemporaryFolder()
        let keys = ManifestSignature.generateKeyPair()
        try keys.privateKey.write(to: folder.url.appendingPathComponent("key"), atomically: true, encoding: .utf8)
        let yaml = folder.url.appendingPathComponent("pipeline.yaml")
        try "output: out\nbundles:\n  - name: m\n    signing_key: key\n    sources:\n      - id: m\n        path: \(SharedData.sample("metro").path)\n"
            .write(to: yaml, atomically: true, encoding: .utf8)
        #expect(try BuildRunner(config: PipelineConfigParser().parse(contentsOf: yaml)).run()[0].status == .published)
        let output = folder.url.appendingPathComponent("out")
        let manifestData = try Data(contentsOf: output.appendingPathComponent("m/manifest.json"))
        let signature = try String(contentsOf: output.appendingPathComponent("m/manifest.json.sig"), encoding: .utf8)
        #expect(ManifestSignature.verify(manifestData, signature: signature, publicKey: keys.publicKey))
        let nginx = try Nginx(serving: output)
        let url = nginx.url("m/manifest.json")

        let wrongKey = ManifestSignature.generateKeyPair().publicKey
        let refused = folder.url.appendingPathComponent("refused.sqlite")
        let wrong = await asyncResult { try await FeedClient(manifest: url, database: refused, publicKey: wrongKey).update() }
        #expect(Self.isBadManifest(wrong), "a manifest signed by another key: \(wrong)")
        #expect(!FileManager.default.fileExists(atPath: refused.path))

        let bytes = try Manifest.decode(manifestData).latest.fullDownload.bytes
        let good = folder.url.appendingPathComponent("good.sqlite")
        let accepted = try await FeedClient(manifest: url, database: good, publicKey: keys.publicKey).update()
        #expect(accepted == .downloadedFull(version: 1, bytes: bytes))

        // The signature removed: refused by a client that expects one, accepted by one that does not.
        try FileManager.default.removeItem(at: output.appendingPathComponent("m/manifest.json.sig"))
        let unsigned = await asyncResult { try await FeedClient(manifest: url, database: refused, publicKey: keys.publicKey).update() }
        #expect(Self.isBadManifest(unsigned), "an unsigned manifest: \(unsigned)")
        #expect(!FileManager.default.fileExists(atPath: refused.path))
        let plain = try await FeedClient(manifest: url, database: refused).update()
        #expect(plain == .downloadedFull(version: 1, bytes: bytes))
    }

    @Test func aKeyAddedLaterSignsTheUnchangedManifest() async throws {
        let folder = TemporaryFolder()
        let yaml = folder.url.appendingPathComponent("pipeline.yaml")
        let base = "output: out\nbundles:\n  - name: m\n    sources:\n      - id: m\n        path: \(SharedData.sample("metro").path)\n"
        try base.write(to: yaml, atomically: true, encoding: .utf8)
        #expect(try BuildRunner(config: PipelineConfigParser().parse(contentsOf: yaml)).run()[0].status == .published)
        let keys = ManifestSignature.generateKeyPair()
        try keys.privateKey.write(to: folder.url.appendingPathComponent("key"), atomically: true, encoding: .utf8)
        try base.replacingOccurrences(of: "  - name: m\n", with: "  - name: m\n    signing_key: key\n").write(to: yaml, atomically: true, encoding: .utf8)
        let report = try BuildRunner(config: PipelineConfigParser().parse(contentsOf: yaml)).run()[0]
        #expect(report.status == .unchanged)
        let bundle = folder.url.appendingPathComponent("out/m")
        let signature = try String(contentsOf: bundle.appendingPathComponent("manifest.json.sig"), encoding: .utf8)
        #expect(ManifestSignature.verify(try Data(contentsOf: bundle.appendingPathComponent("manifest.json")), signature: signature, publicKey: keys.publicKey))
    }

    static func isBadManifest(_ result: Result<UpdateResult, any Error>) -> Bool {
        guard case .failure(let error) = result, let client = error as? ClientError, case .badManifest = client else { return false }
        return true
    }
}

/// `Result { … }` for an async body.
func asyncResult<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}
