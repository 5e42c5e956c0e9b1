import BundleFormat
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// On every real feed, the packed bundle installs into a database with the plain bundle's content
/// digest and the same rowids, and its gzipped file is at most half the plain one's
/// (issue 30; the real feeds measure 0.24–0.48).
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
struct PackedRealFeedTests {
    static let feeds = SharedData.zips(in: "small") + SharedData.zips(in: "medium")

    @Test(arguments: feeds)
    func installsTheSameContent(_ dump: URL) throws {
        let built = try BuiltFeeds.bundle(of: dump)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("packed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let packed = folder.appendingPathComponent("b.packed").path
        let installed = folder.appendingPathComponent("b.sqlite").path
        #expect(try PackedBundleWriter.pack(bundleAt: built.sqlite.path, to: packed))
        let plainSize = try Data(contentsOf: built.sqlite).count
        try PackedBundleInstaller.install(packedAt: packed, to: installed, maxBytes: 2 * plainSize + (1 << 20))

        let original = try Database(path: built.sqlite.path)
        let copy = try Database(path: installed)
        #expect(try ContentDigest.compute(copy) == ContentDigest.compute(original), "\(dump.lastPathComponent)")
        #expect(try copy.scalar("PRAGMA user_version") == original.scalar("PRAGMA user_version"))
        for table in try original.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE '%WITHOUT ROWID%'").compactMap({ $0[0].string }) {
            let rowids = "SELECT group_concat(rowid) FROM \"\(table)\""
            #expect(try copy.scalar(rowids) == original.scalar(rowids), "\(dump.lastPathComponent) \(table)")
        }
        let packedGzip = try Gzip.compress([UInt8](Data(contentsOf: URL(fileURLWithPath: packed))), level: 7).count
        let plainGzip = try Data(contentsOf: built.gzipped).count
        #expect(Double(packedGzip) <= Double(plainGzip) / 2, "\(dump.lastPathComponent): \(packedGzip) of \(plainGzip) bytes")
        print("packed", dump.lastPathComponent, packedGzip, plainGzip, String(format: "%.3f", Double(packedGzip) / Double(plainGzip)))
    }
}
