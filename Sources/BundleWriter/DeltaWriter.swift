import BundleFormat
import FeedModel
import FeedSQLite
import Foundation

/// Writes the deltas of a new version: from each retained older version, gzipped SQL, skipped
/// when larger than a share of the full bundle (clients then take the full bundle). The deltas
/// are computed side by side, each by its own worker with its own connections; the list comes out
/// in the versions' order whatever the worker count.
struct DeltaWriter {
    let folder: URL
    let maxShare: Double
    /// Where delta files are written aside before they are renamed into place: `<output>/.tmp/`.
    let scratch: ScratchFolder

    struct Written {
        var files: [DeltaFile]
        /// Statistics of the delta from the previous version, when there is one.
        var fromPrevious: DeltaStatistics?
        /// The older versions that got no delta, and why.
        var dropped: [DroppedDelta]
    }

    /// One older version's outcome: its published delta, and what changed since it; or why
    /// it has none.
    private struct Outcome {
        var file: DeltaFile?
        var statistics: DeltaStatistics?
        var dropped: DroppedDelta?
    }

    func write(
        to newVersion: BundleVersion, newSQLite: URL, newTables: [String: String]? = nil, olderVersions: [BundleVersion],
        workers: Workers = Workers(1)
    ) throws -> Written {
        guard !olderVersions.isEmpty else { return Written(files: [], fromPrevious: nil, dropped: []) }
        // The newer version's table digests, made when its file was written; computed here for a
        // caller that did not keep them.
        let newTables = try newTables ?? ContentDigest.tableDigests(Database(path: newSQLite.path, mode: .readOnly))
        let outcomes = try workers.map(olderVersions) { old in
            try delta(from: old, to: newVersion, newTables: newTables, newSQLite: newSQLite)
        }
        return Written(files: outcomes.compactMap(\.file), fromPrevious: outcomes.first?.statistics, dropped: outcomes.compactMap(\.dropped))
    }

    /// Only the tables whose digests differ are read, written and checked. On a nightly rebuild
    /// where one stop was renamed (`bench-build.sh wichita-nightly`), a delta from each of 9
    /// Wichita versions took about 36 ms of CPU (unpacking 3.5, both bundles read whole 19.5,
    /// applied and the whole content digest 13), and takes about 13 ms now: the 9 deltas' CPU
    /// 0.32 → 0.12 s, 0.41 → 0.21 of the build's (medians of 5, 2026-11-25).
    private func delta(from old: BundleVersion, to newVersion: BundleVersion, newTables: [String: String], newSQLite: URL) throws -> Outcome {
        // A retained bundle that is missing or damaged costs its own delta, not the publication.
        func drop(_ reason: String, bytes: Int? = nil, statistics: DeltaStatistics? = nil) -> Outcome {
            Outcome(statistics: statistics, dropped: DroppedDelta(from: old.version, reason: reason, bytes: bytes))
        }
        guard let oldDatabase = try? unpackedCopy(of: old) else { return drop("its bundle file is missing or damaged") }
        let new = try Database(path: newSQLite.path, mode: .readOnly)
        // Across a change of schema (a new feedc) there is no delta: found before anything is read.
        guard try DeltaEncoder.sameSchema(oldDatabase, new) else { return drop("its schema differs (written by another feedc)") }
        // Versions published before table digests were kept (or whose report is gone): read from
        // the file.
        guard let oldTables = try? storedTableDigests(of: old) ?? ContentDigest.tableDigests(oldDatabase) else {
            return drop("its tables cannot be read")
        }
        let changed = Set(BundleSchema.tables.map(\.name).filter { oldTables[$0] == nil || oldTables[$0] != newTables[$0] })
        let header = "from version \(old.version) \(old.digest)\nto version \(newVersion.version) \(newVersion.digest)"
        guard case (let sql, var statistics)? = try DeltaEncoder.encode(from: oldDatabase, to: new, header: header, only: changed) else {
            return drop("its tables cannot be compared with the new version's")
        }
        // A table left out is the same in both versions: all its rows stay.
        for table in BundleSchema.tables where !changed.contains(table.name) {
            let count = newVersion.rows?[table.name] ?? 0
            statistics.tables[table.name] = DeltaStatistics.Table(before: count, after: count)
        }
        let sqlBytes = Array(sql.utf8)
        let gzipped = try BundleGzip.compress(sqlBytes)
        // Over the share of the bundle, or larger than a client applies (UpdateLimits): no delta.
        guard Double(gzipped.count) <= maxShare * Double(newVersion.bytes) else {
            let share = String(format: "%.1f", Double(gzipped.count) / Double(max(newVersion.bytes, 1)) * 100)
            return drop("\(share)% of the bundle, over max_delta_share \(maxShare)", bytes: gzipped.count, statistics: statistics)
        }
        guard sqlBytes.count <= UpdateLimits.deltaBytes, sqlBytes.count <= gzipped.count * UpdateLimits.ratio else {
            return drop("larger than a client applies (docs/update-protocol.md, Limits)", bytes: gzipped.count, statistics: statistics)
        }
        // Published only once it is known to work: applied to the (throwaway) copy of the old
        // bundle it was computed from, it may change only the tables that differ, and those must
        // end with the new version's digests (which makes the content digest the new one's).
        do {
            try DeltaApplier.check(sql, on: oldDatabase, writing: changed, expected: newTables)
        } catch {
            return drop("it failed its check: \(error)", bytes: gzipped.count, statistics: statistics)
        }
        let file = "deltas/\(old.version)-\(newVersion.version)-\(sha256Hex(gzipped).prefix(12)).sql.gz"
        try writeAtomically(gzipped, to: folder.appendingPathComponent(file), scratch: scratch)
        return Outcome(
            file: DeltaFile(
                from: old.version, to: newVersion.version, file: file, bytes: gzipped.count, sha256: sha256Hex(gzipped),
                unpackedBytes: sqlBytes.count),
            statistics: statistics)
    }

    /// The table digests kept in an older version's report (`table_digests`), when its report
    /// is the one the manifest names (the file's SHA-256 begins with the 12 hex digits in its
    /// name) and is that version's (its version and content digest). The check of a delta relies
    /// on them for the tables it leaves out.
    private func storedTableDigests(of old: BundleVersion) -> [String: String]? {
        guard let path = old.report, let data = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path),
            (path as NSString).lastPathComponent.hasSuffix("-\(sha256Hex(data).prefix(12)).json")
        else { return nil }
        struct Stored: Decodable {
            var version: Int?
            var digest: String?
            var tableDigests: [String: String]?
            enum CodingKeys: String, CodingKey { case version, digest, tableDigests = "table_digests" }
        }
        guard let stored = try? JSONDecoder().decode(Stored.self, from: data),
            stored.version == old.version, stored.digest == old.digest
        else { return nil }
        return stored.tableDigests
    }

    /// The old version's bundle, unpacked into memory (never written to disk): read to compute
    /// the delta, then changed by applying it, to check it. Its gzipped file must be the one the
    /// manifest lists (its SHA-256): the table digests kept for it describe that file.
    private func unpackedCopy(of old: BundleVersion) throws -> Database {
        let packed = try Data(contentsOf: folder.appendingPathComponent(old.file))
        guard sha256Hex(packed) == old.sha256 else { throw PublishError.io(path: old.file, reason: "not the file the manifest lists") }
        return try Database(deserializing: Gzip.decompress([UInt8](packed)))
    }
}
