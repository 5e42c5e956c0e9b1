import BundleFormat
import FeedClient
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// Another language's client (Python, JVM) against nginx serving every Wichita version:
/// clients at every older version reach the latest content through their delta, a new client
/// downloads the full bundle (its packed encoding) and installs it, and an up-to-date client
/// costs one request answered 304.
enum WichitaClientSeries {
    /// What one pull printed.
    struct Pull {
        var status: Int32
        var output: String
        var error: String
        var seconds: Double
    }

    nonisolated(unsafe) private static let seriesFolder = TemporaryFolder()
    private static let lock = NSLock()
    nonisolated(unsafe) private static var built: WichitaSeries?

    /// The series, built once per test process (27 builds and 25 deltas) and shared by the
    /// clients' suites, which only read it.
    static func series() throws -> WichitaSeries {
        lock.lock()
        defer { lock.unlock() }
        if let built { return built }
        let series = try WichitaSeries(in: seriesFolder.url)
        built = series
        return series
    }

    /// `pull(manifest, database)` runs the client once.
    static func check(_ name: String, pull: (URL, URL) throws -> Pull) throws {
        let folder = TemporaryFolder()
        let series = try series()
        let manifest = series.manifest
        #expect(manifest.versions.count == 26, "27 dumps, one a byte-identical republish")
        #expect(manifest.deltas.count == 25, "a delta from every older version")
        let nginx = try Nginx(serving: series.output)
        let url = nginx.url("w/manifest.json")

        var seconds: [Double] = []
        for version in manifest.versions.dropFirst() {
            let db = folder.url.appendingPathComponent("client-\(version.version).sqlite")
            try series.writeBundle(of: version, to: db)
            let done = try pull(url, db)
            #expect(done.status == 0, "version \(version.version): \(done.error)")
            let delta = try #require(manifest.deltas.first { $0.from == version.version })
            #expect(done.output == "applied delta \(version.version)→\(manifest.latest.version), \(delta.bytes) bytes", "\(done.error)")
            #expect(try ContentDigest.compute(Database(path: db.path)) == manifest.latest.digest, "version \(version.version)")
            #expect(FeedClient(manifest: url, database: db).localVersion == manifest.latest.version)
            seconds.append(done.seconds)
        }
        let sorted = seconds.sorted()
        print(
            "\(name), \(seconds.count) deltas to Wichita version \(manifest.latest.version): median \(String(format: "%.2f", sorted[sorted.count / 2])) s, max \(String(format: "%.2f", sorted.last ?? 0)) s"
        )

        let fresh = folder.url.appendingPathComponent("fresh.sqlite")
        let full = try pull(url, fresh)
        // The packed bundle (docs/packed-bundle.md), installed by the client.
        let download = manifest.latest.fullDownload
        #expect(download.isPacked)
        #expect(full.output == "downloaded full bundle (version \(manifest.latest.version)), \(download.bytes) bytes; first download", "\(full.error)")
        #expect(try ContentDigest.compute(Database(path: fresh.path)) == manifest.latest.digest)
        // As the Swift client leaves it: WAL, so an app reads on while a later delta applies.
        #expect(try Database(path: fresh.path).scalar("PRAGMA journal_mode")?.string == "wal")
        print("\(name), full bundle (packed, \(download.bytes) bytes): \(String(format: "%.2f", full.seconds)) s")
        let before = nginx.requests.count
        let again = try pull(url, fresh)
        #expect(again.output == "up to date (version \(manifest.latest.version))", "\(again.error)")
        #expect(Array(nginx.requests.dropFirst(before)) == ["GET /w/manifest.json 304"])
    }
}
