import BundleFormat
import FeedSQLite
import Foundation

/// Writes the deltas of a new version: from each retained older version, gzipped SQL, skipped
/// when larger than a share of the full bundle (clients then take the full bundle).
struct DeltaWriter {
    let folder: URL
    let maxShare: Double

    struct Written {
        var files: [DeltaFile]
        /// Statistics of the delta from the previous version, when there is one.
        var fromPrevious: DeltaStatistics?
    }

    func write(to newVersion: BundleVersion, newSQLite: URL, olderVersions: [BundleVersion]) throws -> Written {
        let new = try Database(path: newSQLite.path, mode: .readOnly)
        var files: [DeltaFile] = []
        var fromPrevious: DeltaStatistics?
        for old in olderVersions {
            // A retained bundle that is missing or damaged costs its own delta, not the publication.
            guard let copy = try? unpackedCopy(of: old) else { continue }
            defer { try? FileManager.default.removeItem(at: copy) }
            let header = "from version \(old.version) \(old.digest)\nto version \(newVersion.version) \(newVersion.digest)"
            guard let oldDatabase = try? Database(path: copy.path, mode: .readWrite),
                  let (sql, statistics) = try DeltaEncoder.encode(from: oldDatabase, to: new, header: header) else { continue }
            if old.version == olderVersions.first?.version { fromPrevious = statistics }
            let gzipped = try Gzip.compress(Array(sql.utf8))
            guard Double(gzipped.count) <= maxShare * Double(newVersion.bytes) else { continue }
            // Published only once it is known to work: applied to the (throwaway) copy of the old
            // bundle it was computed from, it must give the new version's digest exactly.
            guard (try? DeltaApplier.apply(sql, to: oldDatabase, expectedDigest: newVersion.digest)) != nil else { continue }
            let file = "deltas/\(old.version)-\(newVersion.version)-\(sha256Hex(gzipped).prefix(12)).sql.gz"
            try writeAtomically(Data(gzipped), to: folder.appendingPathComponent(file))
            files.append(DeltaFile(from: old.version, to: newVersion.version, file: file, bytes: gzipped.count, sha256: sha256Hex(gzipped)))
        }
        return Written(files: files, fromPrevious: fromPrevious)
    }

    /// The old version's bundle, unpacked to a temporary file: read to compute the delta, then
    /// changed by applying it, to check it.
    private func unpackedCopy(of old: BundleVersion) throws -> URL {
        let packed = try Data(contentsOf: folder.appendingPathComponent(old.file))
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("feedc-delta-base-\(UUID().uuidString).sqlite")
        try Data(Gzip.decompress([UInt8](packed))).write(to: copy)
        return copy
    }
}
