import BundleFormat
import FeedSQLite
import Foundation

/// Replaces the local database with the full bundle: downloaded beside it (resumed with Range
/// from an earlier attempt's partial file), SHA-256 checked, unpacked, its content digest
/// checked, switched to WAL, flushed, and renamed over the database. Until the rename nothing
/// the app reads is touched; a cancellation keeps the partial download for the next update.
struct FullBundleInstall {
    let client: FeedClient
    let latest: BundleVersion
    let progress: @Sendable (UpdateProgress) -> Void

    private var database: URL { client.database }
    private var folder: URL { database.deletingLastPathComponent() }
    private var partial: URL { folder.appendingPathComponent(".\(database.lastPathComponent).download-\(latest.sha256.prefix(16))") }

    func run() async throws(ClientError) {
        let unpacked = folder.appendingPathComponent(".\(database.lastPathComponent).new-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: unpacked) }
        removeLeftovers()
        try await download()
        progress(UpdateProgress(phase: .verify))
        guard let gzipped = FileManager.default.contents(atPath: partial.path) else { throw .local(path: partial.path, reason: "cannot read the download") }
        let found = sha256Hex(gzipped)
        guard found == latest.sha256 else {
            try? FileManager.default.removeItem(at: partial)
            throw .checksumMismatch(file: latest.file, expected: latest.sha256, found: found)
        }
        let sqlite: [UInt8]
        do {
            sqlite = try Gzip.decompress([UInt8](gzipped), limit: 4 << 30)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw .corruptDownload(file: latest.file, reason: error.description)
        }
        try write(sqlite, to: unpacked)
        if Task.isCancelled { throw .cancelled }
        progress(UpdateProgress(phase: .apply))
        // A stale journal belongs to the database being replaced.
        for suffix in ["-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
        guard rename(unpacked.path, database.path) == 0 else {
            throw .local(path: database.path, reason: String(cString: strerror(errno)))
        }
        let directory = open(folder.path, O_RDONLY | O_DIRECTORY)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
        try? FileManager.default.removeItem(at: partial)
    }

    /// Leftovers of earlier attempts at other versions (or of a killed process).
    private func removeLeftovers() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        where (name.hasPrefix(".\(database.lastPathComponent).download-") && name != partial.lastPathComponent)
            || name.hasPrefix(".\(database.lastPathComponent).new-") {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    private func download() async throws(ClientError) {
        // A download kept from an earlier attempt may already be complete (the unpacking failed,
        // say for want of disk space): then there is nothing left to fetch.
        let kept = (try? FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int) ?? 0
        progress(UpdateProgress(phase: .download, received: kept, expected: latest.bytes))
        guard kept != latest.bytes else { return }
        let expected = latest.bytes
        let report = progress
        let onBytes: @Sendable (Int) -> Void = { report(UpdateProgress(phase: .download, received: $0, expected: expected)) }
        var status = try await client.transport.download(client.url(latest.file), to: partial, progress: onBytes)
        if status == 416 {
            // The server cannot serve the range asked for: start the download over.
            try? FileManager.default.removeItem(at: partial)
            status = try await client.transport.download(client.url(latest.file), to: partial, progress: onBytes)
        }
        guard status == 200 || status == 206 else {
            try? FileManager.default.removeItem(at: partial)
            throw FeedClient.statusError(latest.file, status)
        }
    }

    /// Writes the unpacked bundle, flushed to disk, and checks its digest.
    private func write(_ sqlite: [UInt8], to unpacked: URL) throws(ClientError) {
        do {
            guard FileManager.default.createFile(atPath: unpacked.path, contents: nil) else {
                throw ClientError.local(path: unpacked.path, reason: "cannot create the file (disk full?)")
            }
            let handle = try FileHandle(forWritingTo: unpacked)
            defer { try? handle.close() }
            try handle.write(contentsOf: Data(sqlite))
            try handle.synchronize()
            let db = try Database(path: unpacked.path, mode: .readWrite)
            let digest = try ContentDigest.compute(db)
            guard digest == latest.digest else {
                try? FileManager.default.removeItem(at: partial)
                throw ClientError.corruptDownload(file: latest.file, reason: "content digest \(digest), the manifest says \(latest.digest)")
            }
            // WAL: apps keep reading while later deltas apply. The mode is kept in the file.
            try db.execute("PRAGMA journal_mode = WAL")
        } catch let error as ClientError {
            throw error
        } catch {
            throw .local(path: unpacked.path, reason: "\(error)")
        }
    }
}
