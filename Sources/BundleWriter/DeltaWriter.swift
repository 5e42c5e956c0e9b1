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
    }

    /// One older version's outcome: its published delta, and what changed since it.
    private struct Outcome {
        var file: DeltaFile?
        var statistics: DeltaStatistics?
    }

    func write(to newVersion: BundleVersion, newSQLite: URL, olderVersions: [BundleVersion], workers: Workers = Workers(1)) throws -> Written {
        let outcomes = try workers.map(olderVersions) { old in
            try delta(from: old, to: newVersion, newSQLite: newSQLite)
        }
        return Written(files: outcomes.compactMap(\.file), fromPrevious: outcomes.first?.statistics)
    }

    private func delta(from old: BundleVersion, to newVersion: BundleVersion, newSQLite: URL) throws -> Outcome {
        // A retained bundle that is missing or damaged costs its own delta, not the publication.
        guard let oldDatabase = try? unpackedCopy(of: old) else { return Outcome() }
        let new = try Database(path: newSQLite.path, mode: .readOnly)
        let header = "from version \(old.version) \(old.digest)\nto version \(newVersion.version) \(newVersion.digest)"
        guard let (sql, statistics) = try DeltaEncoder.encode(from: oldDatabase, to: new, header: header) else { return Outcome() }
        let gzipped = try DeflateGzip.compress(Array(sql.utf8))
        guard Double(gzipped.count) <= maxShare * Double(newVersion.bytes) else { return Outcome(statistics: statistics) }
        // Published only once it is known to work: applied to the (throwaway) copy of the old
        // bundle it was computed from, it must give the new version's digest exactly.
        guard (try? DeltaApplier.apply(sql, to: oldDatabase, expectedDigest: newVersion.digest)) != nil else {
            return Outcome(statistics: statistics)
        }
        let file = "deltas/\(old.version)-\(newVersion.version)-\(sha256Hex(gzipped).prefix(12)).sql.gz"
        try writeAtomically(Data(gzipped), to: folder.appendingPathComponent(file), scratch: scratch)
        return Outcome(file: DeltaFile(from: old.version, to: newVersion.version, file: file, bytes: gzipped.count, sha256: sha256Hex(gzipped)),
                       statistics: statistics)
    }

    /// The old version's bundle, unpacked into memory (never written to disk): read to compute
    /// the delta, then changed by applying it, to check it.
    private func unpackedCopy(of old: BundleVersion) throws -> Database {
        let packed = try Data(contentsOf: folder.appendingPathComponent(old.file))
        return try Database(deserializing: Gzip.decompress([UInt8](packed)))
    }
}
