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
    /// The file downloaded: the packed bundle when the manifest lists it, else the plain one.
    private let download: FullDownload

    init(client: FeedClient, bundle: String, latest: BundleVersion, progress: @escaping @Sendable (UpdateProgress) -> Void) {
        self.client = client
        self.bundle = bundle
        self.latest = latest
        self.progress = progress
        self.download = latest.fullDownload
    }

    /// The size of the file downloaded (the packed or the plain bundle).
    var downloadedBytes: Int { download.bytes }

    private var database: URL { client.database }
    private var folder: URL { database.deletingLastPathComponent() }
    private var partial: URL { folder.appendingPathComponent(".\(database.lastPathComponent).download-\(download.sha256.prefix(16))") }

    func run() async throws(ClientError) {
        let new = folder.appendingPathComponent(".\(database.lastPathComponent).new-\(ProcessInfo.processInfo.processIdentifier)")
        let unpacked = download.isPacked ? new.appendingPathExtension("packed") : new
        defer {
            try? FileManager.default.removeItem(at: new)
            try? FileManager.default.removeItem(at: unpacked)
        }
        removeLeftovers()
        try await download()
        progress(UpdateProgress(phase: .verify))
        let found: String
        do {
            found = try sha256Hex(ofFile: partial)
        } catch {
            throw .local(path: partial.path, reason: "cannot read the download: \(error.localizedDescription)")
        }
        guard found == download.sha256 else {
            try? FileManager.default.removeItem(at: partial)
            throw .checksumMismatch(file: download.file, expected: download.sha256, found: found)
        }
        // Inflated as a stream into the new file, no more than the manifest declares.
        let limit = UpdateLimits.inflateLimit(bytes: download.bytes, unpacked: download.unpackedBytes, ceiling: UpdateLimits.bundleBytes)
        do throws(GzipError) {
            let size = try Gzip.decompress(file: partial.path, to: unpacked.path, limit: limit)
            if let declared = download.unpackedBytes, declared != size {
                throw GzipError.corrupt("\(size) bytes unpacked, the manifest says \(declared)")
            }
        } catch .io(let reason) {
            throw .local(path: unpacked.path, reason: reason)
        } catch {
            // What was downloaded is wrong whatever happens next: it is not kept to be tried again.
            try? FileManager.default.removeItem(at: partial)
            throw .corruptDownload(file: download.file, reason: error.description)
        }
        if download.isPacked { try install(unpacked, into: new) }
        try check(new)
        if Task.isCancelled { throw .cancelled }
        progress(UpdateProgress(phase: .apply))
        // A stale journal belongs to the database being replaced.
        for suffix in ["-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
        guard rename(new.path, database.path) == 0 else {
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
        if kept > download.bytes {
            try? FileManager.default.removeItem(at: partial)
            kept = 0
        }
        progress(UpdateProgress(phase: .download, received: kept, expected: download.bytes))
        guard kept != download.bytes else { return }
        let expected = download.bytes
        let report = progress
        let onBytes: @Sendable (Int) -> Void = { report(UpdateProgress(phase: .download, received: $0, expected: expected)) }
        let url = try client.url(download.file)
        var status = try await fetch(url, progress: onBytes)
        if status == 416 {
            // The server cannot serve the range asked for: start the download over.
            try? FileManager.default.removeItem(at: partial)
            status = try await fetch(url, progress: onBytes)
        }
        guard status == 200 || status == 206 else {
            try? FileManager.default.removeItem(at: partial)
            throw FeedClient.statusError(download.file, status)
        }
    }

    /// Downloads into the partial file; a server sending more than the manifest lists gets it
    /// deleted (docs/update-protocol.md, step 6.2), a cut or a timeout keeps it to be resumed.
    private func fetch(_ url: URL, progress: @escaping @Sendable (Int) -> Void) async throws(ClientError) -> Int {
        do {
            return try await client.transport.download(url, to: partial, maxBytes: download.bytes, progress: progress)
        } catch .corruptDownload(_, let reason) {
            try? FileManager.default.removeItem(at: partial)
            throw .corruptDownload(file: download.file, reason: reason)
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
                throw ClientError.corruptDownload(file: download.file, reason: "content digest \(digest), the manifest says \(latest.digest)")
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
            throw .corruptDownload(file: download.file, reason: "\(error)")
        }
    }

    /// Installs the unpacked packed bundle into `new` (docs/packed-bundle.md, "Installing"),
    /// no larger than twice the plain bundle (and a MiB). A file that does not install is deleted
    /// with its download.
    private func install(_ unpacked: URL, into new: URL) throws(ClientError) {
        try? FileManager.default.removeItem(at: new)
        do throws(PackedBundleError) {
            try PackedBundleInstaller.install(
                packedAt: unpacked.path, to: new.path, maxBytes: latest.unpackedBytes.map { 2 * $0 + (1 << 20) },
                unpackedBytes: latest.unpackedBytes)
        } catch {
            switch error {
            case .local(let path, let reason):
                throw ClientError.local(path: path, reason: reason)
            case .corrupt(let reason):
                // In the Python and JVM clients' words (docs/packed-bundle.md).
                try? FileManager.default.removeItem(at: partial)
                throw ClientError.corruptDownload(file: download.file, reason: "the packed bundle does not install: \(reason)")
            }
        }
        try? FileManager.default.removeItem(at: unpacked)
    }
}
