import BundleFormat
import FeedClient
import FeedPipeline
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// Wichita's versions built into an output folder served by nginx; clients at every older
/// version pull and end with the latest content; a client at the latest makes one request (304).
@Suite(.serialized, .enabled(if: SharedData.isAvailable && Nginx.isInstalled, "needs ../shared/data and nginx (.ci/run installs it)"))
struct PullEndToEndTests {
    @Test func clientsAtEveryVersionReachTheLatest() async throws {
        let folder = TemporaryFolder()
        let output = folder.url.appendingPathComponent("out")
        let current = folder.url.appendingPathComponent("wichita.zip")
        let yaml = folder.url.appendingPathComponent("pipeline.yaml")
        try "output: out\nkeep: 10\nbundles:\n  - name: w\n    sources:\n      - id: w\n        path: wichita.zip\n".write(
            to: yaml, atomically: true, encoding: .utf8)
        let dumps = Array(SharedData.zips(in: "versions/wichita").prefix(6))
        for dump in dumps {
            try? FileManager.default.removeItem(at: current)
            try FileManager.default.copyItem(at: dump, to: current)
            _ = try BuildRunner(config: PipelineConfigParser().parse(contentsOf: yaml)).run()
        }
        let manifest = try Manifest.decode(Data(contentsOf: output.appendingPathComponent("w/manifest.json")))
        #expect(manifest.versions.count == dumps.count)
        #expect(manifest.deltas.count >= 3, "deltas from the retained versions are published")
        let nginx = try Nginx(serving: output)
        let manifestURL = nginx.url("w/manifest.json")

        var deltasUsed = 0
        for version in manifest.versions.dropFirst() {
            let db = folder.url.appendingPathComponent("client-\(version.version).sqlite")
            let bundle = try Data(contentsOf: output.appendingPathComponent("w").appendingPathComponent(version.file))
            try Data(Gzip.decompress([UInt8](bundle))).write(to: db)
            let result = try await FeedClient(manifest: manifestURL, database: db).update()
            if case .appliedDelta(let from, let to, _) = result {
                #expect(from == version.version && to == manifest.latest.version)
                deltasUsed += 1
            } else {
                #expect(result == .downloadedFull(version: manifest.latest.version, bytes: manifest.latest.fullDownload.bytes))
                #expect(!manifest.deltas.contains { $0.from == version.version }, "a listed delta was not used")
            }
            #expect(try ContentDigest.compute(Database(path: db.path)) == manifest.latest.digest)
            #expect(FeedClient(manifest: manifestURL, database: db).localVersion == manifest.latest.version)
        }
        #expect(deltasUsed == manifest.deltas.count)

        // A new client downloads the full bundle; then it is up to date, and the next pull costs
        // one request answered 304.
        let fresh = folder.url.appendingPathComponent("fresh.sqlite")
        let client = FeedClient(manifest: manifestURL, database: fresh)
        #expect(try await client.update() == .downloadedFull(version: manifest.latest.version, bytes: manifest.latest.fullDownload.bytes))
        #expect(try await client.update() == .upToDate(version: manifest.latest.version))
        let before = nginx.requests.count
        #expect(try await client.update() == .upToDate(version: manifest.latest.version))
        #expect(Array(nginx.requests.dropFirst(before)) == ["GET /w/manifest.json 304"])
    }
}
