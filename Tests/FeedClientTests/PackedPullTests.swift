import BundleFormat
import FeedClient
import FeedPipeline
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// The Swift client on a published packed bundle behind nginx: a first install takes the packed
/// file (not the plain one), holds the plain bundle's content, indexes and view, and takes later
/// deltas; a packed file that is damaged or hostile is refused, leaving the database as it was,
/// and the next update with a good manifest succeeds.
@Suite(.serialized, .enabled(if: Nginx.isInstalled, "needs nginx (.ci/run installs it)"))
struct PackedPullTests {
    private func digest(_ db: URL) throws -> String { try ContentDigest.compute(Database(path: db.path)) }

    @Test func aFirstInstallTakesThePackedBundleThenDeltas() async throws {
        let f = try PullFaultTests.Fixture()
        let latest = try f.manifest.latest
        let packed = try #require(latest.encodings?.first)
        #expect(packed.encoding == "packed-gzip" && packed.file.hasSuffix(".packed.sqlite.gz"))
        #expect(packed.bytes * 2 <= latest.bytes, "packed \(packed.bytes) bytes, plain \(latest.bytes)")

        let db = f.folder.url.appendingPathComponent("new.sqlite")
        #expect(try await f.client(db).update() == .downloadedFull(version: 2, bytes: packed.bytes))
        #expect(f.nginx.requests.contains { $0.hasPrefix("GET /m/\(packed.file) ") })
        #expect(!f.nginx.requests.contains { $0.hasPrefix("GET /m/\(latest.file) ") })
        #expect(try digest(db) == latest.digest)
        let plain = f.folder.url.appendingPathComponent("plain.sqlite")
        try Data(Gzip.decompress([UInt8](Data(contentsOf: f.bundleFolder.appendingPathComponent(latest.file))))).write(to: plain)
        let schema = "SELECT type, name, sql FROM sqlite_master ORDER BY type, name"
        #expect(try Database(path: db.path).rows(schema) == Database(path: plain.path).rows(schema))
        #expect(try Database(path: db.path).scalar("PRAGMA journal_mode")?.string == "wal")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: f.folder.url.path).filter { $0.hasPrefix(".new.sqlite.") }
        #expect(leftovers.isEmpty, "\(leftovers)")

        // A third version: the installed copy takes its delta like any other.
        let stops = f.folder.url.appendingPathComponent("metro/stops.txt")
        try String(contentsOf: stops, encoding: .utf8).replacingOccurrences(of: "Rockridge BART", with: "Rockridge")
            .write(to: stops, atomically: true, encoding: .utf8)
        _ = try BuildRunner(config: PipelineConfigParser().parse(contentsOf: f.folder.url.appendingPathComponent("pipeline.yaml"))).run()
        let third = try f.manifest
        let delta = try #require(third.deltas.first { $0.from == 2 })
        #expect(try await f.client(db).update() == .appliedDelta(from: 2, to: 3, bytes: delta.bytes))
        #expect(try digest(db) == third.latest.digest)
    }

    /// Edits of the good packed file, each served under the manifest's name for it.
    static let damages = [
        "INSERT INTO packed_schema VALUES (99, 'trigger', 't', 'CREATE TRIGGER t AFTER INSERT ON stops BEGIN DELETE FROM stops; END')",
        "UPDATE packed_tables SET rows = rows + 1 WHERE name = 'trips'",
        "UPDATE packed_meta SET value = '7' WHERE key = 'format'",
        // Valid, but not the manifest's content: the digest tells.
        "UPDATE packed_schema SET sql = replace(sql, 'name TEXT', 'name BLOB') WHERE name = 'stops'",
        "NOT SQLITE",
    ]

    @Test(arguments: damages)
    func aDamagedPackedBundleLeavesTheDatabase(_ damage: String) async throws {
        let f = try PullFaultTests.Fixture()
        let good = try f.manifest
        let packed = try #require(good.latest.encodings?.first)
        var bytes = try Gzip.decompress([UInt8](Data(contentsOf: f.bundleFolder.appendingPathComponent(packed.file))))
        if damage == "NOT SQLITE" {
            bytes = Array("this is not a SQLite file".utf8)
        } else {
            let copy = f.folder.url.appendingPathComponent("damaged.packed")
            try Data(bytes).write(to: copy)
            try Database(path: copy.path, mode: .readWrite).execute(damage)
            bytes = try [UInt8](Data(contentsOf: copy))
        }
        let gzipped = try Gzip.compress(bytes)
        let name = "bundles/damaged.packed.sqlite.gz"
        try Data(gzipped).write(to: f.bundleFolder.appendingPathComponent(name))
        try f.editManifest {
            $0.latest.encodings = [
                EncodedBundle(encoding: "packed-gzip", file: name, bytes: gzipped.count, sha256: sha256Hex(gzipped), unpackedBytes: bytes.count)
            ]
            $0.deltas = []
        }
        let db = try f.clientAtVersion1()
        let before = try digest(db)
        do {
            _ = try await f.client(db).update()
            Issue.record("installed a damaged packed bundle: \(damage)")
        } catch {
            if case .corruptDownload(let file, _) = error {
                #expect(file == name)
            } else {
                Issue.record("expected corruptDownload, got \(error)")
            }
        }
        #expect(try digest(db) == before)
        #expect(f.client(db).localVersion == 1)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: f.folder.url.path).filter { $0.hasPrefix(".client.sqlite.") }
        #expect(leftovers.isEmpty, "\(leftovers)")
        try good.encoded().write(to: f.bundleFolder.appendingPathComponent("manifest.json"))
        #expect(try await f.client(db).update() == .appliedDelta(from: 1, to: 2, bytes: good.deltas[0].bytes))
    }

    @Test func anUnknownEncodingOrABadEntryFallsBackToThePlainBundle() async throws {
        let f = try PullFaultTests.Fixture()
        let good = try f.manifest
        let packed = try #require(good.latest.encodings?.first)
        try f.editManifest {
            $0.latest.encodings = [
                EncodedBundle(encoding: "packed-zstd", file: packed.file, bytes: packed.bytes, sha256: packed.sha256, unpackedBytes: packed.unpackedBytes),
                EncodedBundle(encoding: "packed-gzip", file: packed.file, bytes: packed.bytes, sha256: "not hex", unpackedBytes: packed.unpackedBytes),
                EncodedBundle(encoding: "packed-gzip", file: packed.file, bytes: 10, sha256: packed.sha256, unpackedBytes: 1001),
            ]
        }
        let db = f.folder.url.appendingPathComponent("new.sqlite")
        #expect(try await f.client(db).update() == .downloadedFull(version: 2, bytes: good.latest.bytes))
        #expect(try digest(db) == good.latest.digest)
        #expect(!f.nginx.requests.contains { $0.hasPrefix("GET /m/\(packed.file) ") })
    }

    /// A packed file off the manifest's server is refused as a plain one is: nothing is fetched
    /// from there, and the update fails.
    @Test func aPackedFileOffTheServerFailsTheUpdate() async throws {
        let f = try PullFaultTests.Fixture()
        let packed = try #require(try f.manifest.latest.encodings?.first)
        try f.editManifest {
            $0.latest.encodings = [
                EncodedBundle(
                    encoding: "packed-gzip", file: "http://elsewhere.example/x.gz", bytes: packed.bytes, sha256: packed.sha256,
                    unpackedBytes: packed.unpackedBytes)
            ]
        }
        let db = try f.clientAtVersion1()
        let before = try digest(db)
        try f.editManifest { $0.deltas = [] }
        do {
            _ = try await f.client(db).update()
            Issue.record("took a packed file off the manifest's server")
        } catch {
            if case .badManifest = error {} else { Issue.record("expected badManifest, got \(error)") }
        }
        #expect(try digest(db) == before)
    }
}
