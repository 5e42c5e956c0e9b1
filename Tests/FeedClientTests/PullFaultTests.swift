import BundleFormat
import FeedClient
import FeedPipeline
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// Faults on the way, each leaving the local database as it was and usable, then recovering on
/// the next pull: corrupted delta, wrong SHA-256 in the manifest, HTTP 500, a cut download
/// (resumed with Range), a delta whose base the client does not really have, a bundle that is
/// not gzip, a disk too small for the new bundle (a tmpfs, where the tests may mount one).
@Suite(.serialized, .enabled(if: Nginx.isInstalled, "needs nginx (.ci/run installs it)"))
struct PullFaultTests {
    /// Two versions of the metro sample (v2 renames a stop) published into `out/m/`.
    final class Fixture {
        let folder = TemporaryFolder()
        var output: URL { folder.url.appendingPathComponent("out") }
        var bundleFolder: URL { output.appendingPathComponent("m") }
        let nginx: Nginx

        init() throws {
            let copy = folder.url.appendingPathComponent("metro")
            try FileManager.default.copyItem(at: SharedData.sample("metro"), to: copy)
            let yaml = folder.url.appendingPathComponent("pipeline.yaml")
            try "output: out\nbundles:\n  - name: m\n    sources:\n      - id: m\n        path: metro\n".write(to: yaml, atomically: true, encoding: .utf8)
            _ = try BuildRunner(config: PipelineConfigParser().parse(contentsOf: yaml)).run()
            let stops = copy.appendingPathComponent("stops.txt")
            let text = try String(contentsOf: stops, encoding: .utf8).replacingOccurrences(of: "Rockridge Station", with: "Rockridge BART")
            try text.write(to: stops, atomically: true, encoding: .utf8)
            _ = try BuildRunner(config: PipelineConfigParser().parse(contentsOf: yaml)).run()
            nginx = try Nginx(serving: folder.url.appendingPathComponent("out"))
        }

        var manifest: Manifest { get throws { try Manifest.decode(Data(contentsOf: bundleFolder.appendingPathComponent("manifest.json"))) } }

        /// A client database holding version 1.
        func clientAtVersion1(_ name: String = "client") throws -> URL {
            let db = folder.url.appendingPathComponent("\(name).sqlite")
            let v1 = try manifest.versions.first { $0.version == 1 }!
            try Data(Gzip.decompress([UInt8](Data(contentsOf: bundleFolder.appendingPathComponent(v1.file))))).write(to: db)
            return db
        }

        func client(_ db: URL, manifest path: String = "m/manifest.json") -> FeedClient {
            FeedClient(manifest: nginx.url(path), database: db, timeout: 10)
        }

        func editManifest(_ change: (inout Manifest) -> Void) throws {
            var m = try manifest
            change(&m)
            try m.encoded().write(to: bundleFolder.appendingPathComponent("manifest.json"))
        }
    }

    private func digest(_ db: URL) throws -> String { try ContentDigest.compute(Database(path: db.path)) }

    @Test func corruptedDeltaFallsBackToTheFullBundle() async throws {
        let f = try Fixture()
        let delta = try #require(try f.manifest.deltas.first)
        let path = f.bundleFolder.appendingPathComponent(delta.file)
        var bytes = try [UInt8](Data(contentsOf: path))
        for i in 20..<min(60, bytes.count) { bytes[i] ^= 0x5A }
        try Data(bytes).write(to: path)
        let db = try f.clientAtVersion1()
        let result = try await f.client(db).update()
        guard case .downloadedFull(2, try f.manifest.latest.fullDownload.bytes, .deltaFailed(from: 1, let why)) = result else {
            Issue.record("expected the full bundle after a refused delta: \(result)")
            return
        }
        #expect(why.hasPrefix("deltas/1-2-"), "why names the delta: \(why)")
        #expect(try digest(db) == f.manifest.latest.digest)
    }

    @Test func wrongChecksumInTheManifestLeavesTheDatabaseThenRecovers() async throws {
        let f = try Fixture()
        let good = try f.manifest
        try f.editManifest {
            $0.latest.sha256 = String(repeating: "0", count: 64)
            $0.latest.encodings = nil  // the plain bundle's path (PackedPullTests: the packed one's)
            $0.deltas = []
        }
        let db = try f.clientAtVersion1()
        let before = try digest(db)
        await #expect(throws: ClientError.self) { try await f.client(db).update() }
        #expect(try digest(db) == before)
        #expect(f.client(db).localVersion == 1)
        try good.encoded().write(to: f.bundleFolder.appendingPathComponent("manifest.json"))
        #expect(try await f.client(db).update() == .appliedDelta(from: 1, to: 2, bytes: good.deltas[0].bytes))
        #expect(try digest(db) == good.latest.digest)
        #expect(f.client(db).localVersion == 2)
    }

    @Test func anOlderManifestNeverReplacesNewerContent() async throws {
        let f = try Fixture()
        let db = f.folder.url.appendingPathComponent("new.sqlite")
        #expect(try await f.client(db).update() == .downloadedFull(version: 2, bytes: try f.manifest.latest.fullDownload.bytes))
        let current = try digest(db)
        // A stale copy of the manifest (a lagging CDN edge, or a replay) names version 1.
        try f.editManifest { m in
            m.latest = m.versions.first { $0.version == 1 }!
            m.deltas = []
        }
        await #expect(throws: ClientError.self) { try await f.client(db).update() }
        #expect(try digest(db) == current)
        #expect(f.client(db).localVersion == 2)
    }

    @Test func serverErrorLeavesTheDatabase() async throws {
        let f = try Fixture()
        let db = try f.clientAtVersion1()
        let before = try digest(db)
        do {
            _ = try await f.client(db, manifest: "broken/manifest.json").update()
            Issue.record("a 500 was taken for success")
        } catch let error as ClientError {
            guard case .server(_, 500) = error else {
                Issue.record("expected HTTP 500, got \(error)")
                return
            }
        }
        #expect(try digest(db) == before)
        #expect(try await f.client(db).update() == .appliedDelta(from: 1, to: 2, bytes: try f.manifest.deltas[0].bytes))
    }

    @Test func deltaForABaseTheClientDoesNotHaveFallsBackToFull() async throws {
        let f = try Fixture()
        let db = try f.clientAtVersion1()
        // Same version number, different content: the delta cannot produce the latest digest.
        try Database(path: db.path, mode: .readWrite).execute("UPDATE stops SET name = 'tampered' WHERE stop_id = 's201'")
        let result = try await f.client(db).update()
        guard case .downloadedFull(2, _, .deltaFailed(from: 1, let why)) = result else {
            Issue.record("expected the full bundle after a refused delta: \(result)")
            return
        }
        #expect(why.contains("digest"), "\(why)")
        #expect(try digest(db) == f.manifest.latest.digest)
        // A version the manifest has no delta from: the full bundle.
        let old = try f.clientAtVersion1("old")
        try Database(path: old.path, mode: .readWrite).execute("UPDATE meta SET value = '0' WHERE key = 'version'")
        #expect(
            try await f.client(old).update() == .downloadedFull(version: 2, bytes: try f.manifest.latest.fullDownload.bytes, reason: .noDeltaPublished(from: 0))
        )
    }

    @Test func bundleThatIsNotGzipIsRefused() async throws {
        let f = try Fixture()
        let garbage = Data("this is not a gzip file".utf8)
        let latest = try f.manifest.latest
        try garbage.write(to: f.bundleFolder.appendingPathComponent(latest.file))
        try f.editManifest {
            $0.latest.sha256 = sha256Hex(garbage)
            $0.latest.bytes = garbage.count
            $0.latest.unpackedBytes = nil
            $0.latest.encodings = nil
            $0.deltas = []
        }
        let db = try f.clientAtVersion1()
        let before = try digest(db)
        do {
            _ = try await f.client(db).update()
            Issue.record("garbage accepted")
        } catch let error as ClientError {
            guard case .corruptDownload = error else {
                Issue.record("expected corruptDownload, got \(error)")
                return
            }
        }
        #expect(try digest(db) == before)
        #expect(try Database(path: db.path).scalar("SELECT count(*) FROM trips")?.int == 359)
    }

    @Test func cutDownloadResumesWithRange() async throws {
        let f = try Fixture()
        // A server that cuts every bundle off halfway, serving the same folder.
        let server = try EtagServer(serving: f.output, log: f.folder.url.appendingPathComponent("cut.log"))

        let db = f.folder.url.appendingPathComponent("new.sqlite")
        let cut = FeedClient(manifest: server.url("cut/m/manifest.json"), database: db, timeout: 10)
        await #expect(throws: ClientError.self) { try await cut.update() }
        #expect(!FileManager.default.fileExists(atPath: db.path), "no half-written database")
        // The next pull, from the real server, resumes the download where it stopped.
        #expect(try await f.client(db).update() == .downloadedFull(version: 2, bytes: try f.manifest.latest.fullDownload.bytes))
        #expect(f.nginx.requests.contains { $0.hasPrefix("GET /m/bundles/") && $0.hasSuffix(" 206") })
        #expect(try digest(db) == f.manifest.latest.digest)
    }

    /// Whether this process may mount a small tmpfs (root, as on CI), for the disk-full case.
    static let canMountTmpfs: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("feedc-mount-probe-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: probe) }
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe.path]) == 0 else { return false }
        _ = run("/bin/umount", [probe.path])
        return true
    }()

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The update fails as the disk is full: `.local`, which is not transient.
    private static func expectFullDisk(_ client: FeedClient) async throws {
        do {
            let result = try await client.update()
            Issue.record("the update succeeded on a full disk: \(result)")
        } catch {
            guard case .local = error else {
                Issue.record("a full disk reported as \(error)")
                return
            }
            #expect(!error.isTransient)
        }
    }

    @Test(.enabled(if: canMountTmpfs, "needs permission to mount a tmpfs"))
    func diskFullLeavesTheDatabaseThenRecovers() async throws {
        let f = try Fixture()
        let source = try f.clientAtVersion1()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: source.path)[.size] as? Int)
        let disk = f.folder.url.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        // Room for the database and the download, not for the unpacked new bundle beside it.
        try #require(Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size + 96 * 1024)", "tmpfs", disk.path]) == 0)
        defer { Self.run("/bin/umount", [disk.path]) }
        let db = disk.appendingPathComponent("client.sqlite")
        try FileManager.default.copyItem(at: source, to: db)
        let before = try digest(db)
        try f.editManifest { $0.deltas = [] }
        try await Self.expectFullDisk(f.client(db))
        #expect(try digest(db) == before)
        #expect(try Database(path: db.path).scalar("SELECT count(*) FROM stops")?.int == 49)
        // Less room still, on a disk of its own: the download itself cannot be written. A local
        // failure, not "offline" (which an app retries for ever).
        let small = f.folder.url.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
        try #require(Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size + 8 * 1024)", "tmpfs", small.path]) == 0)
        defer { Self.run("/bin/umount", [small.path]) }
        let cramped = small.appendingPathComponent("client.sqlite")
        try FileManager.default.copyItem(at: source, to: cramped)
        try await Self.expectFullDisk(f.client(cramped))
        #expect(try digest(cramped) == before)
        // More room: the next pull completes.
        try #require(Self.run("/bin/mount", ["-o", "remount,size=16m", disk.path]) == 0)
        #expect(
            try await f.client(db).update() == .downloadedFull(version: 2, bytes: try f.manifest.latest.fullDownload.bytes, reason: .noDeltaPublished(from: 1)))
        #expect(try digest(db) == f.manifest.latest.digest)
    }
}
