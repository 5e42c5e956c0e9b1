import BundleFormat
import FeedSQLite
import Foundation

/// Replaces the local database with the full bundle: downloaded beside it (resumed with Range
/// from an earlier attempt's partial file), SHA-256 checked, unpacked, its content digest
/// checked, switched to WAL, flushed, and renamed over the database. Until the rename nothing
/// the app reads is touched; a cancellation keeps the partial download for the next update.
struct FullBundleInstall {
    let client: FeedClient
    /// The manifest's bundle name, which the new file's `meta.bundle` must hold.
    let bundle: String
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
        let found: String
        do {
            found = try sha256Hex(ofFile: partial)
        } catch {
            throw .local(path: partial.path, reason: "cannot read the download: \(error.localizedDescription)")
        }
        guard found == latest.sha256 else {
            try? FileManager.default.removeItem(at: partial)
            throw .checksumMismatch(file: latest.file, expected: latest.sha256, found: found)
        }
        // Inflated as a stream into the new file, no more than the manifest declares.
        let limit = UpdateLimits.inflateLimit(bytes: latest.bytes, unpacked: latest.unpackedBytes, ceiling: UpdateLimits.bundleBytes)
        do throws(GzipError) {
            let size = try Gzip.decompress(file: partial.path, to: unpacked.path, limit: limit)
            if let declared = latest.unpackedBytes, declared != size {
                throw GzipError.corrupt("\(size) bytes unpacked, the manifest says \(declared)")
            }
        } catch .io(let reason) {
            throw .local(path: unpacked.path, reason: reason)
        } catch {
            // What was downloaded is wrong whatever happens next: it is not kept to be tried again.
            try? FileManager.default.removeItem(at: partial)
            throw .corruptDownload(file: latest.file, reason: error.description)
        }
        try check(unpacked)
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
            || name.hasPrefix(".\(database.lastPathComponent).new-")
        {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    private func download() async throws(ClientError) {
        // A download kept from an earlier attempt may already be complete (the unpacking failed,
        // say for want of disk space): then there is nothing left to fetch.
        var kept = (try? FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int) ?? 0
        if kept > latest.bytes {
            try? FileManager.default.removeItem(at: partial)
            kept = 0
        }
        progress(UpdateProgress(phase: .download, received: kept, expected: latest.bytes))
        guard kept != latest.bytes else { return }
        let expected = latest.bytes
        let report = progress
        let onBytes: @Sendable (Int) -> Void = { report(UpdateProgress(phase: .download, received: $0, expected: expected)) }
        let url = try client.url(latest.file)
        var status = try await fetch(url, progress: onBytes)
        if status == 416 {
            // The server cannot serve the range asked for: start the download over.
            try? FileManager.default.removeItem(at: partial)
            status = try await fetch(url, progress: onBytes)
        }
        guard status == 200 || status == 206 else {
            try? FileManager.default.removeItem(at: partial)
            throw FeedClient.statusError(latest.file, status)
        }
    }

    /// Downloads into the partial file; a server sending more than the manifest lists gets it
    /// deleted (docs/update-protocol.md, step 6.2), a cut or a timeout keeps it to be resumed.
    private func fetch(_ url: URL, progress: @escaping @Sendable (Int) -> Void) async throws(ClientError) -> Int {
        do {
            return try await client.transport.download(url, to: partial, maxBytes: latest.bytes, progress: progress)
        } catch .corruptDownload(_, let reason) {
            try? FileManager.default.removeItem(at: partial)
            throw .corruptDownload(file: latest.file, reason: reason)
        }
    }

    /// Checks the unpacked bundle: a SQLite file whose content digest is the manifest's, whose
    /// schema and `meta` are what the manifest names (``InstalledBundleCheck``); then switches it
    /// to WAL. A bundle that fails is deleted with its download: it is not tried again.
    private func check(_ unpacked: URL) throws(ClientError) {
        do {
            let db = try Database(path: unpacked.path, mode: .readWrite)
            try InstalledBundleCheck.check(db, bundle: bundle, version: latest.version)
            let digest = try ContentDigest.compute(db)
            guard digest == latest.digest else {
                throw ClientError.corruptDownload(file: latest.file, reason: "content digest \(digest), the manifest says \(latest.digest)")
            }
            // WAL: apps keep reading while later deltas apply. The mode is kept in the file.
            try db.execute("PRAGMA journal_mode = WAL")
        } catch let error as SQLiteError where error.isStorageFailure {
            throw .local(path: unpacked.path, reason: error.message)
        } catch let error as ClientError {
            try? FileManager.default.removeItem(at: partial)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw .corruptDownload(file: latest.file, reason: "\(error)")
        }
    }
}
