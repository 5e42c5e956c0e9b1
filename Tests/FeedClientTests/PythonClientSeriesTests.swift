import BundleFormat
import FeedClient
import FeedSQLite
import Foundation
import Testing
import TestSupport

/// The Python client (clients/python), on the core SQLite, against nginx: clients at every older
/// Wichita version reach the latest content through their delta; a new client downloads the full
/// bundle; an up-to-date client costs one request answered 304.
@Suite(.serialized, .enabled(if: SharedData.isAvailable && Nginx.isInstalled && CoreSQLite.isAvailable,
                             "needs ../shared/data, nginx and \(CoreSQLite.skipMessage)"))
struct PythonClientSeriesTests {
    @Test func clientsAtEveryWichitaVersionReachTheLatest() throws {
        let options = try CoreSQLite.pythonSQLite().options
        #expect(CoreSQLite.isCoreBuild(options), "python3's sqlite3 is not the core build: \(options)")
        let folder = TemporaryFolder()
        let series = try WichitaSeries(in: folder.url)
        let manifest = series.manifest
        #expect(manifest.versions.count == 26, "27 dumps, one a byte-identical republish")
        #expect(manifest.deltas.count == 25, "a delta from every older version")
        let nginx = try Nginx(serving: series.output)
        let url = nginx.url("w/manifest.json")

        var seconds: [Double] = []
        for version in manifest.versions.dropFirst() {
            let db = folder.url.appendingPathComponent("client-\(version.version).sqlite")
            try series.writeBundle(of: version, to: db)
            let pull = try PythonClient(manifest: url, database: db).pull()
            #expect(pull.status == 0, "version \(version.version): \(pull.error)")
            let delta = try #require(manifest.deltas.first { $0.from == version.version })
            #expect(pull.output == "applied delta \(version.version)→\(manifest.latest.version), \(delta.bytes) bytes")
            #expect(try ContentDigest.compute(Database(path: db.path)) == manifest.latest.digest, "version \(version.version)")
            #expect(FeedClient(manifest: url, database: db).localVersion == manifest.latest.version)
            seconds.append(pull.seconds)
        }
        let sorted = seconds.sorted()
        print("Python client, \(seconds.count) deltas to Wichita version \(manifest.latest.version): median \(String(format: "%.2f", sorted[sorted.count / 2])) s, max \(String(format: "%.2f", sorted.last ?? 0)) s")

        let fresh = folder.url.appendingPathComponent("fresh.sqlite")
        let client = PythonClient(manifest: url, database: fresh)
        let full = try client.pull()
        #expect(full.output == "downloaded full bundle (version \(manifest.latest.version)), \(manifest.latest.bytes) bytes; first download", "\(full.error)")
        #expect(try ContentDigest.compute(Database(path: fresh.path)) == manifest.latest.digest)
        // As the Swift client leaves it: WAL, so an app reads on while a later delta applies.
        #expect(try Database(path: fresh.path).scalar("PRAGMA journal_mode")?.string == "wal")
        print("Python client, full bundle (\(manifest.latest.bytes) bytes): \(String(format: "%.2f", full.seconds)) s")
        let before = nginx.requests.count
        let again = try client.pull()
        #expect(again.output == "up to date (version \(manifest.latest.version))")
        #expect(Array(nginx.requests.dropFirst(before)) == ["GET /w/manifest.json 304"])
    }
}
