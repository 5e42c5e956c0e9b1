import BundleFormat
import FeedPipeline
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// Nightly rebuilds of the metro sample where one stop is renamed each night: each version's
/// report keeps its table digests, and each delta from an older version reads, writes and checks
/// only the tables whose digests differ, with the same bytes as a delta computed from the whole
/// files; versions published without table digests (an older feedc) still get their deltas.
@Suite struct TableDigestDeltaTests {
    /// A copy of the metro sample whose stop `s10n` is renamed `name` (s101..s104 are real ids).
    private func night(_ n: Int, in folder: TemporaryFolder) throws -> URL {
        let dump = folder.url.appendingPathComponent("metro-\(n)")
        try FileManager.default.copyItem(at: SharedData.sample("metro"), to: dump)
        let stops = dump.appendingPathComponent("stops.txt")
        let text = try String(contentsOf: stops, encoding: .utf8)
        let renamed = text.replacingOccurrences(of: "s10\(n % 4 + 1),1010\(n % 4 + 1),", with: "s10\(n % 4 + 1),1010\(n % 4 + 1),Night \(n) ")
        #expect(renamed != text)
        try renamed.write(to: stops, atomically: true, encoding: .utf8)
        return dump
    }

    private func build(_ workspace: Workspace, _ dump: URL) throws -> Manifest {
        let report = try workspace.build(workspace.config(sources: [("metro", dump)], extra: "    max_delta_share: 1.0\n"))
        #expect(report.status == .published, "\(report.reason ?? "")")
        return try requireManifestValue(workspace.manifest())
    }

    /// The table digests kept in a version's report.
    private func storedTables(_ workspace: Workspace, _ version: BundleVersion) throws -> [String: String]? {
        let report = try #require(version.report)
        let data = try Data(contentsOf: workspace.output.appendingPathComponent("b").appendingPathComponent(report))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return object["table_digests"] as? [String: String]
    }

    /// Rewrites a version's report without its table digests, as an older feedc wrote it, under
    /// the name its bytes give it, listed in the manifest.
    private func forgetTables(_ workspace: Workspace, _ version: BundleVersion) throws {
        let url = workspace.output.appendingPathComponent("b").appendingPathComponent(try #require(version.report))
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        object["table_digests"] = nil
        try replaceReport(workspace, version.version, with: JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    /// Lists `data` as version `number`'s report, named as the publisher names it.
    private func replaceReport(_ workspace: Workspace, _ number: Int, with data: Data) throws {
        let path = "reports/\(number)-\(sha256Hex(data).prefix(12)).json"
        try data.write(to: workspace.output.appendingPathComponent("b").appendingPathComponent(path))
        var manifest = try requireManifestValue(workspace.manifest())
        let index = try #require(manifest.versions.firstIndex { $0.version == number })
        manifest.versions[index].report = path
        try manifest.encoded().write(to: workspace.output.appendingPathComponent("b/manifest.json"))
    }

    private func bundle(_ workspace: Workspace, _ version: BundleVersion) throws -> (Database, () -> Void) {
        try BundleFile.open(workspace.output.appendingPathComponent("b").appendingPathComponent(version.file))
    }

    /// Every delta of the manifest, applied to its base, gives the latest digest, and is the SQL
    /// the encoder writes from the two whole files.
    private func checkDeltas(_ workspace: Workspace, _ manifest: Manifest) throws {
        #expect(manifest.deltas.count == manifest.versions.count - 1)
        let (new, closeNew) = try bundle(workspace, manifest.latest)
        defer { closeNew() }
        for delta in manifest.deltas {
            let base = try #require(manifest.versions.first { $0.version == delta.from })
            let packed = try Data(contentsOf: workspace.output.appendingPathComponent("b").appendingPathComponent(delta.file))
            let sql = String(decoding: try Gzip.decompress([UInt8](packed)), as: UTF8.self)
            let (old, closeOld) = try bundle(workspace, base)
            defer { closeOld() }
            let header = "from version \(base.version) \(base.digest)\nto version \(manifest.latest.version) \(manifest.latest.digest)"
            #expect(sql == (try DeltaEncoder.encode(from: old, to: new, header: header))?.sql, "delta from \(delta.from)")
            let copy = try Database(
                deserializing: Gzip.decompress([UInt8](Data(contentsOf: workspace.output.appendingPathComponent("b").appendingPathComponent(base.file)))))
            try DeltaApplier.apply(sql, to: copy, expectedDigest: manifest.latest.digest)
        }
    }

    @Test func eachNightReadsOnlyWhatChanged() throws {
        let folder = TemporaryFolder(), workspace = Workspace()
        var manifest = try build(workspace, night(1, in: folder))
        for n in 2...4 {
            manifest = try build(workspace, night(n, in: folder))
            // Each listed version's report keeps the digests of its own file's tables.
            for version in manifest.versions {
                let (db, close) = try bundle(workspace, version)
                defer { close() }
                #expect(try storedTables(workspace, version) == ContentDigest.tableDigests(db), "version \(version.version)")
            }
            try checkDeltas(workspace, manifest)
        }
        // A renamed stop changes its row and the search words, and meta's version: not the
        // timetable, whose tables the deltas never mention.
        let latest = try #require(try storedTables(workspace, manifest.latest))
        let oldest = try #require(manifest.versions.last)
        let first = try #require(try storedTables(workspace, oldest))
        let changed = Set(latest.keys.filter { latest[$0] != first[$0] })
        #expect(changed.contains("stops") && changed.contains("meta"))
        #expect(!changed.contains("trips") && !changed.contains("timing_stops"))
        for delta in manifest.deltas {
            let packed = try Data(contentsOf: workspace.output.appendingPathComponent("b").appendingPathComponent(delta.file))
            let sql = String(decoding: try Gzip.decompress([UInt8](packed)), as: UTF8.self)
            #expect(!sql.contains("trips") && !sql.contains("timing_stops"))
        }
    }

    /// Versions whose reports have no table digests: their tables are read from their files.
    /// A retained bundle whose file is not the one listed (its SHA-256) gets no delta, and the
    /// publication goes on.
    @Test func olderVersionsWithoutDigestsAndADamagedOne() throws {
        let folder = TemporaryFolder(), workspace = Workspace()
        for n in 1...3 { _ = try build(workspace, night(n, in: folder)) }
        for version in try requireManifestValue(workspace.manifest()).versions { try forgetTables(workspace, version) }
        var manifest = try build(workspace, night(4, in: folder))
        #expect(try manifest.versions.dropFirst().allSatisfy { try storedTables(workspace, $0) == nil })
        try checkDeltas(workspace, manifest)

        let damaged = try #require(manifest.versions.last)
        let folderB = workspace.output.appendingPathComponent("b")
        // A valid bundle, but another version's: a delta from it would not apply to version 1.
        try Data(contentsOf: folderB.appendingPathComponent(manifest.versions[1].file)).write(to: folderB.appendingPathComponent(damaged.file))
        manifest = try build(workspace, night(5, in: folder))
        #expect(manifest.latest.version == 5)
        #expect(!manifest.deltas.contains { $0.from == damaged.version })
        #expect(manifest.deltas.count == manifest.versions.count - 2)
    }

    /// The stored digests decide which tables are read: an older version's file changed in a
    /// table whose stored digest still equals the newer one's (with the manifest's SHA-256 made
    /// to match) gives a delta that leaves that table alone. A report that is not what its name
    /// says, another version's report, or one without digests is not relied on: the digests are
    /// computed from the file, and the delta puts the table right.
    @Test func theStoredDigestsDecideWhatIsRead() throws {
        let folder = TemporaryFolder(), workspace = Workspace()
        for n in 1...2 { _ = try build(workspace, night(n, in: folder)) }
        let folderB = workspace.output.appendingPathComponent("b")
        var manifest = try requireManifestValue(workspace.manifest())
        let first = try #require(manifest.versions.last)
        let unpacked = folder.url.appendingPathComponent("first.sqlite")
        try Data(Gzip.decompress([UInt8](Data(contentsOf: folderB.appendingPathComponent(first.file))))).write(to: unpacked)
        try Database(path: unpacked.path, mode: .readWrite).execute("UPDATE agencies SET name = name || ' (changed by hand)'")
        let packed = try Gzip.compress([UInt8](Data(contentsOf: unpacked)))
        try Data(packed).write(to: folderB.appendingPathComponent(first.file))
        manifest.versions[manifest.versions.count - 1].sha256 = sha256Hex(packed)
        manifest.versions[manifest.versions.count - 1].bytes = packed.count
        try manifest.encoded().write(to: folderB.appendingPathComponent("manifest.json"))

        func sqlOfDelta(from version: Int) throws -> String {
            let manifest = try requireManifestValue(workspace.manifest())
            let delta = try #require(manifest.deltas.first { $0.from == version })
            return String(decoding: try Gzip.decompress([UInt8](Data(contentsOf: folderB.appendingPathComponent(delta.file)))), as: UTF8.self)
        }
        func firstReport() throws -> URL {
            let manifest = try requireManifestValue(workspace.manifest())
            let version = try #require(manifest.versions.first { $0.version == first.version })
            return folderB.appendingPathComponent(try #require(version.report))
        }
        _ = try build(workspace, night(3, in: folder))
        #expect(try !sqlOfDelta(from: first.version).contains("agencies"))

        // Edited in place: its bytes no longer give its name.
        let report = try Data(contentsOf: firstReport())
        try (report + Data(" ".utf8)).write(to: firstReport())
        _ = try build(workspace, night(4, in: folder))
        #expect(try sqlOfDelta(from: first.version).contains("UPDATE agencies SET name = "))
        try report.write(to: firstReport())
        _ = try build(workspace, night(5, in: folder))
        #expect(try !sqlOfDelta(from: first.version).contains("agencies"), "the report is relied on again")

        // Another version's report, named by its bytes.
        let second = try #require(requireManifestValue(workspace.manifest()).versions.first { $0.version == first.version + 1 })
        try replaceReport(workspace, first.version, with: Data(contentsOf: folderB.appendingPathComponent(try #require(second.report))))
        _ = try build(workspace, night(6, in: folder))
        #expect(try sqlOfDelta(from: first.version).contains("UPDATE agencies SET name = "))

        // A report without digests, as an older feedc wrote it.
        try replaceReport(workspace, first.version, with: report)
        try forgetTables(workspace, try #require(requireManifestValue(workspace.manifest()).versions.first { $0.version == first.version }))
        _ = try build(workspace, night(7, in: folder))
        #expect(try sqlOfDelta(from: first.version).contains("UPDATE agencies SET name = "))
    }
}
