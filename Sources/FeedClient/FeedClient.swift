import BundleFormat
import FeedSQLite
import Foundation

/// Keeps an app's local bundle database at the latest published version.
///
/// `update()` fetches the manifest with the ETag of the last one (an unchanged manifest costs one
/// 304), then takes the delta from the local version when the manifest lists one, else the full
/// bundle. Every download is checked against the manifest's SHA-256. A delta is applied in one
/// transaction and committed only when the result has the latest version's content digest; on
/// any failure the client falls back to the full bundle. A full bundle is unpacked beside the
/// database, its digest checked, and renamed over it. A cut download is resumed with a Range
/// request on the next update. Whatever fails, the local database stays as it was and usable.
public struct FeedClient: Sendable {
    public let manifestURL: URL
    public let database: URL
    /// Ed25519 public key (base64): when set, a manifest without a valid `manifest.json.sig` is refused.
    public let publicKey: String?
    var transport = HTTPTransport()

    public init(manifest: URL, database: URL, publicKey: String? = nil, timeout: TimeInterval = 60) {
        self.manifestURL = manifest
        self.database = database
        self.publicKey = publicKey
        transport.timeout = timeout
    }

    private var etagFile: URL { database.appendingPathExtension("etag") }

    /// The version the local database holds, nil when there is none or it cannot be read.
    public var localVersion: Int? {
        guard FileManager.default.fileExists(atPath: database.path),
              let db = try? Database(path: database.path, mode: .readOnly),
              let value = try? db.scalar("SELECT value FROM meta WHERE key = 'version'")?.string else { return nil }
        return Int(value)
    }

    /// The bundle name the local database holds.
    private var localBundleName: String? {
        guard FileManager.default.fileExists(atPath: database.path),
              let db = try? Database(path: database.path, mode: .readOnly) else { return nil }
        return try? db.scalar("SELECT value FROM meta WHERE key = 'bundle'")?.string
    }

    public func update() throws(ClientError) -> UpdateResult {
        let local = localVersion
        var headers: [String: String] = [:]
        if local != nil, let etag = try? String(contentsOf: etagFile, encoding: .utf8) { headers["If-None-Match"] = etag }
        let response = try transport.get(manifestURL, headers: headers)
        if response.status == 304, let local { return .upToDate(version: local) }
        guard response.status == 200 else { throw .http(url: manifestURL.absoluteString, status: response.status) }
        if let publicKey {
            let signatureURL = manifestURL.appendingPathExtension("sig")
            let signature = try transport.get(signatureURL)
            guard signature.status == 200 else { throw .badManifest("unsigned: \(signatureURL.lastPathComponent) answered HTTP \(signature.status)") }
            guard ManifestSignature.verify(response.body, signature: String(decoding: signature.body, as: UTF8.self), publicKey: publicKey) else {
                throw .badManifest("the signature does not verify with the configured public key")
            }
        }
        let manifest: Manifest
        do {
            manifest = try Manifest.decode(response.body)
        } catch {
            throw .badManifest("\(error)")
        }
        guard manifest.format == BundleSchema.formatVersion else {
            throw .badManifest("format \(manifest.format); this client reads format \(BundleSchema.formatVersion)")
        }
        let latest = manifest.latest
        // Never step back, never take another bundle's manifest: a stale CDN copy or a replayed
        // old (even validly signed) manifest must not replace newer content.
        if let local, latest.version < local {
            throw .badManifest("the manifest's latest version \(latest.version) is older than the local version \(local)")
        }
        if let localBundle = localBundleName, localBundle != manifest.bundle {
            throw .badManifest("the manifest is for bundle `\(manifest.bundle)`, the database holds `\(localBundle)`")
        }
        let result: UpdateResult
        if let local, local == latest.version {
            result = .upToDate(version: local)
        } else if let local, let delta = manifest.deltas.first(where: { $0.from == local && $0.to == latest.version }),
                  (try? applyDelta(delta, latest)) != nil {
            result = .appliedDelta(from: local, to: latest.version, bytes: delta.bytes)
        } else {
            try replaceWithFull(latest)
            result = .downloadedFull(version: latest.version, bytes: latest.bytes)
        }
        if let etag = response.headers["etag"] { try? etag.write(to: etagFile, atomically: true, encoding: .utf8) }
        return result
    }

    private func url(_ file: String) -> URL {
        URL(string: file, relativeTo: manifestURL)?.absoluteURL ?? manifestURL.deletingLastPathComponent().appendingPathComponent(file)
    }

    private func applyDelta(_ delta: DeltaFile, _ latest: BundleVersion) throws {
        let response = try transport.get(url(delta.file))
        guard response.status == 200 else { throw ClientError.http(url: delta.file, status: response.status) }
        let found = sha256Hex(response.body)
        guard found == delta.sha256 else { throw ClientError.checksumMismatch(file: delta.file, expected: delta.sha256, found: found) }
        let sql = try Gzip.decompress([UInt8](response.body), limit: 1 << 30)
        let db = try Database(path: database.path, mode: .readWrite)
        // An app reading the database at the same time must not make the update fail at once.
        db.busyTimeout(milliseconds: 5000)
        try DeltaApplier.apply(String(decoding: sql, as: UTF8.self), to: db, expectedDigest: latest.digest)
    }

    private func replaceWithFull(_ latest: BundleVersion) throws(ClientError) {
        let folder = database.deletingLastPathComponent()
        let partial = folder.appendingPathComponent(".\(database.lastPathComponent).download-\(latest.sha256.prefix(16))")
        let unpacked = folder.appendingPathComponent(".\(database.lastPathComponent).new-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: unpacked) }
        // Leftovers of earlier attempts at other versions (or of a killed process) go.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        where (name.hasPrefix(".\(database.lastPathComponent).download-") && name != partial.lastPathComponent)
            || name.hasPrefix(".\(database.lastPathComponent).new-") {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
        // A download kept from an earlier attempt may already be complete (the unpacking failed,
        // say for want of disk space): then there is nothing left to fetch.
        let kept = (try? FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int) ?? 0
        if kept != latest.bytes {
            var status = try transport.download(url(latest.file), to: partial)
            if status == 416 {
                // The server cannot serve the range asked for: start the download over.
                try? FileManager.default.removeItem(at: partial)
                status = try transport.download(url(latest.file), to: partial)
            }
            guard status == 200 || status == 206 else {
                try? FileManager.default.removeItem(at: partial)
                throw .http(url: latest.file, status: status)
            }
        }
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
        do {
            // Written and flushed to disk before it is renamed over the database.
            guard FileManager.default.createFile(atPath: unpacked.path, contents: nil) else {
                throw ClientError.local(path: unpacked.path, reason: "cannot create the file (disk full?)")
            }
            let handle = try FileHandle(forWritingTo: unpacked)
            defer { try? handle.close() }
            try handle.write(contentsOf: Data(sqlite))
            try handle.synchronize()
            let digest = try ContentDigest.compute(Database(path: unpacked.path, mode: .readOnly))
            guard digest == latest.digest else {
                try? FileManager.default.removeItem(at: partial)
                throw ClientError.corruptDownload(file: latest.file, reason: "content digest \(digest), the manifest says \(latest.digest)")
            }
        } catch let error as ClientError {
            throw error
        } catch {
            throw .local(path: unpacked.path, reason: "\(error)")
        }
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
}
