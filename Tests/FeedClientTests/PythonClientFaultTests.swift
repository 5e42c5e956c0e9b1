import BundleFormat
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// The Python client (clients/python, on the core SQLite) meets the faults `PullFaultTests` puts
/// in the Swift client's way: each fails with exit status 2 and one readable line, or falls back
/// to the full bundle, and leaves the database as it was and usable; the next pull recovers.
@Suite(.serialized, .enabled(if: Nginx.isInstalled && CoreSQLite.isAvailable, "needs nginx and \(CoreSQLite.skipMessage)"))
struct PythonClientFaultTests {
    typealias Fixture = PullFaultTests.Fixture

    private func digest(_ db: URL) throws -> String { try ContentDigest.compute(Database(path: db.path)) }

    private func client(_ f: Fixture, _ db: URL, _ path: String = "m/manifest.json") -> PythonClient {
        PythonClient(manifest: f.nginx.url(path), database: db)
    }

    /// The full bundle's line, with why no delta was used: the bytes of what the client
    /// downloads, the packed bundle (docs/packed-bundle.md).
    private func fullLine(_ f: Fixture, _ reason: String = "first download") throws -> String {
        "downloaded full bundle (version 2), \(try f.manifest.latest.fullDownload.bytes) bytes; \(reason)"
    }

    /// The full bundle's line after the delta from version 1 was refused.
    private func afterRefusedDelta(_ output: String, _ f: Fixture) throws -> Bool {
        output.hasPrefix(try fullLine(f, "the delta from version 1 was not used: "))
    }

    @Test func runsOnTheCoreSQLite() throws {
        let options = try CoreSQLite.pythonSQLite().options
        #expect(CoreSQLite.isCoreBuild(options), "python3's sqlite3 is not the core build: \(options)")
    }

    /// Replaces the delta from version 1 with `bytes`, listed with their true size and SHA-256.
    private func replaceDelta(_ f: Fixture, with bytes: Data) throws {
        let delta = try #require(try f.manifest.deltas.first)
        try bytes.write(to: f.bundleFolder.appendingPathComponent(delta.file))
        try f.editManifest {
            $0.deltas[0].sha256 = sha256Hex(bytes)
            $0.deltas[0].bytes = bytes.count
        }
    }

    /// A delta corrupted before it was listed (its checksum matches): the gzip data does not
    /// unpack, and the client takes the full bundle.
    @Test func corruptedDeltaFallsBackToTheFullBundle() throws {
        let f = try Fixture()
        var bytes = try [UInt8](Data(contentsOf: f.bundleFolder.appendingPathComponent(try f.manifest.deltas[0].file)))
        bytes.replaceSubrange(12..<min(40, bytes.count), with: [UInt8](repeating: 0xFF, count: min(40, bytes.count) - 12))
        try replaceDelta(f, with: Data(bytes))
        let db = try f.clientAtVersion1()
        let pull = try client(f, db).pull()
        #expect(try afterRefusedDelta(pull.output, f), "\(pull.output)")
        #expect(try digest(db) == f.manifest.latest.digest)
    }

    /// The packed bundle's checksum wrong (`bundleThatIsNotGzipIsRefused`: the plain bundle's path).
    @Test func wrongChecksumLeavesTheDatabaseThenRecovers() throws {
        let f = try Fixture()
        let good = try f.manifest
        try #require(good.latest.encodings?.count == 1)
        try f.editManifest {
            $0.latest.encodings?[0].sha256 = String(repeating: "0", count: 64)
            $0.deltas = []
        }
        let db = try f.clientAtVersion1()
        let before = try digest(db)
        let failed = try client(f, db).pull()
        #expect(failed.failedReadably && failed.error.contains("SHA-256"), "\(failed)")
        #expect(try digest(db) == before)
        try good.encoded().write(to: f.bundleFolder.appendingPathComponent("manifest.json"))
        #expect(try client(f, db).pull().output == "applied delta 1→2, \(good.deltas[0].bytes) bytes")
        #expect(try digest(db) == good.latest.digest)
    }

    @Test func serverErrorLeavesTheDatabase() throws {
        let f = try Fixture()
        let db = try f.clientAtVersion1()
        let before = try digest(db)
        let failed = try client(f, db, "broken/manifest.json").pull()
        #expect(failed.failedReadably && failed.error.contains("HTTP 500"), "\(failed)")
        #expect(try digest(db) == before)
        #expect(try client(f, db).pull().status == 0)
        #expect(try digest(db) == f.manifest.latest.digest)
    }

    @Test func cutDownloadResumesWithRange() throws {
        let f = try Fixture()
        let server = try EtagServer(serving: f.output, log: f.folder.url.appendingPathComponent("cut.log"))
        let db = f.folder.url.appendingPathComponent("new.sqlite")
        let cut = try PythonClient(manifest: server.url("cut/m/manifest.json"), database: db).pull()
        #expect(cut.failedReadably && cut.error.contains("connection closed"), "\(cut)")
        #expect(!FileManager.default.fileExists(atPath: db.path), "no half-written database")
        #expect(try client(f, db).pull().output == fullLine(f))
        #expect(f.nginx.requests.contains { $0.hasPrefix("GET /m/bundles/") && $0.hasSuffix(" 206") })
        #expect(try digest(db) == f.manifest.latest.digest)
    }

    @Test func olderOrForeignManifestNeverReplacesNewerContent() throws {
        let f = try Fixture()
        let db = f.folder.url.appendingPathComponent("new.sqlite")
        #expect(try client(f, db).pull().output == fullLine(f))
        let current = try digest(db)
        let good = try f.manifest
        try f.editManifest { m in
            m.latest = m.versions.first { $0.version == 1 }!
            m.deltas = []
        }
        let older = try client(f, db).pull()
        #expect(older.failedReadably && older.error.contains("older than the local version"), "\(older)")
        try good.encoded().write(to: f.bundleFolder.appendingPathComponent("manifest.json"))
        try f.editManifest { m in m.bundle = "other" }
        let foreign = try client(f, db).pull()
        #expect(foreign.failedReadably && foreign.error.contains("bundle `other`"), "\(foreign)")
        #expect(try digest(db) == current)
    }

    @Test func deltaForABaseTheClientDoesNotHaveFallsBackToFull() throws {
        let f = try Fixture()
        let db = try f.clientAtVersion1()
        try Database(path: db.path, mode: .readWrite).execute("UPDATE stops SET name = 'tampered' WHERE stop_id = 's201'")
        let pull = try client(f, db).pull()
        #expect(try afterRefusedDelta(pull.output, f), "\(pull.output)")
        #expect(try digest(db) == f.manifest.latest.digest)
    }

    @Test func bundleThatIsNotGzipIsRefused() throws {
        let f = try Fixture()
        let garbage = Data("this is not a gzip file".utf8)
        try garbage.write(to: f.bundleFolder.appendingPathComponent(try f.manifest.latest.file))
        try f.editManifest {
            $0.latest.sha256 = sha256Hex(garbage)
            $0.latest.bytes = garbage.count
            $0.latest.unpackedBytes = nil
            $0.latest.encodings = nil  // the plain bundle's path
            $0.deltas = []
        }
        let db = try f.clientAtVersion1()
        let before = try digest(db)
        let failed = try client(f, db).pull()
        #expect(failed.failedReadably && failed.error.contains("not gzip"), "\(failed)")
        #expect(try digest(db) == before)
        #expect(try Database(path: db.path).scalar("SELECT count(*) FROM trips")?.int == 359)
    }

    /// A delta may only change rows of content tables: a COMMIT, a schema change, an ATTACH or a
    /// PRAGMA in it is refused before it runs, and nothing it did before that stays. (The full
    /// bundle, plain and packed, is made unusable, so the database must stay at version 1.)
    @Test(arguments: ["COMMIT;", "DROP TABLE trips;", "ATTACH '%ATTACHED%' AS x;", "PRAGMA user_version = 7;", "CREATE TABLE evil (x);"])
    func hostileDeltaIsRefused(_ statement: String) throws {
        let f = try Fixture()
        let attached = f.folder.url.appendingPathComponent("attached.db")
        let sql =
            "-- feedc delta format 1\nUPDATE stops SET name = 'hacked' WHERE stop_id = 's201';\n"
            + statement.replacingOccurrences(of: "%ATTACHED%", with: attached.path) + "\n"
        try replaceDelta(f, with: Data(try Gzip.compress([UInt8](sql.utf8))))
        try f.editManifest {
            $0.latest.sha256 = String(repeating: "0", count: 64)
            $0.latest.encodings?[0].sha256 = String(repeating: "0", count: 64)
        }
        let db = try f.clientAtVersion1()
        let before = try digest(db)
        let failed = try client(f, db).pull()
        #expect(failed.failedReadably, "\(failed)")
        #expect(try digest(db) == before)
        #expect(try Database(path: db.path).scalar("SELECT count(*) FROM stops WHERE name = 'hacked'")?.int == 0)
        #expect(try Database(path: db.path).scalar("PRAGMA user_version")?.int != 7)
        #expect(!FileManager.default.fileExists(atPath: attached.path))
    }

    /// Manifests signed with Ed25519 (verified in pure Python: the standard library has no
    /// Ed25519): the right key accepts, another key, a changed manifest or a missing signature
    /// is refused and nothing is written.
    @Test func signedManifests() throws {
        let f = try Fixture()
        let keys = ManifestSignature.generateKeyPair()
        let manifestFile = f.bundleFolder.appendingPathComponent("manifest.json")
        let signatureFile = f.bundleFolder.appendingPathComponent("manifest.json.sig")
        try ManifestSignature.sign(Data(contentsOf: manifestFile), privateKey: keys.privateKey).write(to: signatureFile, atomically: true, encoding: .utf8)
        let url = f.nginx.url("m/manifest.json")

        let refused = f.folder.url.appendingPathComponent("refused.sqlite")
        func pull(_ key: String) throws -> PythonClient.Outcome { try PythonClient(manifest: url, database: refused, publicKey: key).pull() }
        let wrong = try pull(ManifestSignature.generateKeyPair().publicKey)
        #expect(wrong.failedReadably && wrong.error.contains("does not verify"), "\(wrong)")
        let badKey = try pull("not a key")
        #expect(badKey.failedReadably && badKey.error.contains("public key"), "\(badKey)")
        var bytes = try Data(contentsOf: manifestFile)
        bytes.append(0x0A)
        try bytes.write(to: manifestFile)
        let changed = try pull(keys.publicKey)
        #expect(changed.failedReadably && changed.error.contains("does not verify"), "\(changed)")
        try FileManager.default.removeItem(at: signatureFile)
        let unsigned = try pull(keys.publicKey)
        #expect(unsigned.failedReadably && unsigned.error.contains("unsigned"), "\(unsigned)")
        #expect(!FileManager.default.fileExists(atPath: refused.path))

        bytes.removeLast()
        try bytes.write(to: manifestFile)
        try ManifestSignature.sign(bytes, privateKey: keys.privateKey).write(to: signatureFile, atomically: true, encoding: .utf8)
        let db = try f.clientAtVersion1()
        let accepted = try PythonClient(manifest: url, database: db, publicKey: keys.publicKey).pull()
        #expect(accepted.output == "applied delta 1→2, \(try f.manifest.deltas[0].bytes) bytes", "\(accepted)")
    }
}
