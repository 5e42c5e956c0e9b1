import BundleFormat
import FeedModel
import FeedSQLite
import Foundation

/// Keeps an app's local bundle database at the latest published version.
///
/// `update()` fetches the manifest with the ETag of the last one (an unchanged manifest costs one
/// 304), then takes the delta from the local version when the manifest lists one, else the full
/// bundle. Every download is checked against the manifest's SHA-256. A delta is applied in one
/// transaction and committed only when the result has the latest version's content digest; on
/// any failure the client falls back to the full bundle. A full bundle is unpacked beside the
/// database, its digest checked, and renamed over it. A cut or cancelled download is resumed
/// with a Range request on the next update. Whatever fails, the local database stays as it was
/// and usable.
///
/// The database is kept in WAL mode, so apps read it (``FeedDatabase``) while a delta applies.
/// Calls for one database in one process never run side by side: a second call joins the one
/// under way and gets its result.
public struct FeedClient: Sendable {
    /// Where the bundle's manifest.json is published (http, https or file).
    public let manifestURL: URL
    /// The local SQLite file the updates keep current; created by the first update.
    public let database: URL
    /// Ed25519 public key (base64): when set, a manifest without a valid `manifest.json.sig` is refused.
    public let publicKey: String?
    /// Called when the manifest lists a delta from the local version that cannot be used, with
    /// why (the update then takes the full bundle): for logs. `feedc pull` names it when the
    /// full bundle fails too.
    public var onDeltaRefused: (@Sendable (String) -> Void)?
    var transport = HTTPTransport()

    /// `timeout`: the idle timeout of every request and the base of its deadline
    /// (docs/update-protocol.md, "Limits"); also the longest wait for another process's update
    /// of the same database.
    public init(manifest: URL, database: URL, publicKey: String? = nil, timeout: TimeInterval = 30) {
        self.manifestURL = manifest
        self.database = database
        self.publicKey = publicKey
        transport.timeout = timeout
    }

    var etagFile: URL { database.appendingPathExtension("etag") }

    /// The version the local database holds, nil when there is none or it cannot be read.
    public var localVersion: Int? {
        guard FileManager.default.fileExists(atPath: database.path),
            let db = try? Database(path: database.path, mode: .readOnly),
            let value = try? db.scalar("SELECT value FROM meta WHERE key = 'version'")?.string
        else { return nil }
        return Int(value)
    }

    /// The bundle name the local database holds.
    private var localBundleName: String? {
        guard FileManager.default.fileExists(atPath: database.path),
            let db = try? Database(path: database.path, mode: .readOnly)
        else { return nil }
        return try? db.scalar("SELECT value FROM meta WHERE key = 'bundle'")?.string
    }

    /// Brings the database to the latest version. Cancelling the calling task stops the transfer
    /// (keeping what arrived for the next update) and leaves the database as it was. `progress`
    /// receives the phases and the bytes of each download, in order; a call that joins an update
    /// already under way for the same database gets its result but no progress events.
    public func update(progress: (@Sendable (UpdateProgress) -> Void)? = nil) async throws(ClientError) -> UpdateResult {
        try await UpdateGate.shared.run(database.standardizedFileURL.path) { () async throws(ClientError) -> UpdateResult in
            // One writer across processes too (another app process, `feedc pull`, the Python
            // client): each holds `<database>.lock` for the whole update.
            let lock = try await DatabaseLock.acquire(for: self.database, waiting: self.transport.timeout)
            defer { lock.release() }
            return try await self.performUpdate(progress: progress ?? { _ in })
        }
    }

    /// The same update as an `AsyncSequence` of its progress, for `for await` in a view model:
    /// `progress` yields each event and ends when the update ends; `result` is the update's
    /// outcome (cancel it to stop the update, as ``update(progress:)``'s task). The stream keeps
    /// the newest 256 events a slow reader has not taken; dropping the stream (ending the loop
    /// early) cancels the update.
    public func updates() -> (progress: AsyncStream<UpdateProgress>, result: Task<UpdateResult, any Error>) {
        let (stream, continuation) = AsyncStream.makeStream(of: UpdateProgress.self, bufferingPolicy: .bufferingNewest(256))
        let result = Task {
            defer { continuation.finish() }
            return try await update { continuation.yield($0) }
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { result.cancel() }
        }
        return (stream, result)
    }

    /// The same as ``update(progress:)``, blocking the calling thread: for command-line tools and
    /// scripts. Never call it from an app's main thread or from async code: it would hold a thread
    /// the update itself needs (on a 2-core pool, two such calls wait on each other forever).
    public func updateBlocking(progress: (@Sendable (UpdateProgress) -> Void)? = nil) throws(ClientError) -> UpdateResult {
        let box = Locked<Result<UpdateResult, ClientError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do throws(ClientError) { box.value = .success(try await update(progress: progress)) } catch { box.value = .failure(error) }
            done.signal()
        }
        done.wait()
        return try box.value!.get()
    }

    private func performUpdate(progress: @escaping @Sendable (UpdateProgress) -> Void) async throws(ClientError) -> UpdateResult {
        let local = localVersion
        progress(UpdateProgress(phase: .manifest))
        var headers: [String: String] = [:]
        if local != nil, let etag = try? String(contentsOf: etagFile, encoding: .utf8) { headers["If-None-Match"] = etag }
        guard ["http", "https"].contains(manifestURL.scheme?.lowercased() ?? "") else {
            throw .badManifest("\(manifestURL.absoluteString) is not an http(s) URL")
        }
        let response: HTTPTransport.Response
        do {
            response = try await transport.get(manifestURL, headers: headers, maxBytes: UpdateLimits.manifestBytes, declared: 0)
        } catch .corruptDownload {
            throw .badManifest("manifest.json is larger than 1 MiB")
        }
        if response.status == 304, let local { return .upToDate(version: local) }
        guard response.status == 200 else { throw Self.statusError(manifestURL.absoluteString, response.status) }
        if let publicKey {
            let signatureURL = manifestURL.appendingPathExtension("sig")
            let signature: HTTPTransport.Response
            do {
                signature = try await transport.get(signatureURL, maxBytes: UpdateLimits.signatureBytes, declared: 0)
            } catch .corruptDownload {
                throw .badManifest("\(signatureURL.lastPathComponent) is larger than 1 KiB")
            }
            guard signature.status == 200 else { throw .badManifest("unsigned: \(signatureURL.lastPathComponent) answered HTTP \(signature.status)") }
            guard ManifestSignature.verify(response.body, signature: String(decoding: signature.body, as: UTF8.self), publicKey: publicKey) else {
                throw .badManifest("the signature does not verify with the configured public key")
            }
        }
        let manifest: Manifest
        do {
            manifest = try ManifestCheck.decode(response.body, from: manifestURL)
        } catch {
            throw .badManifest(error.reason)
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
        var result: UpdateResult?
        var reason = FullDownloadReason.firstDownload
        if let local, local == latest.version {
            result = .upToDate(version: local)
        } else if let local, let delta = manifest.deltas.first(where: { $0.from == local && $0.to == latest.version }) {
            if let refusal = try await applyDelta(delta, latest, progress: progress) {
                onDeltaRefused?(refusal)
                reason = .deltaFailed(from: local, reason: Self.oneLine(refusal))
            } else {
                result = .appliedDelta(from: local, to: latest.version, bytes: delta.bytes)
            }
        } else if let local {
            reason = .noDeltaPublished(from: local)
        }
        if result == nil {
            let install = FullBundleInstall(client: self, bundle: manifest.bundle, latest: latest, progress: progress)
            try await install.run()
            result = .downloadedFull(version: latest.version, bytes: install.downloadedBytes, reason: reason)
        }
        if let etag = response.headers["etag"] { try? etag.write(to: etagFile, atomically: true, encoding: .utf8) }
        return result!
    }

    /// `text` on one line, control characters escaped (a server's words stay one line of output).
    static func oneLine(_ text: String) -> String {
        String(
            text.unicodeScalars.flatMap { scalar in
                scalar.properties.generalCategory == .control ? Array(scalar.escaped(asASCII: true).unicodeScalars) : [scalar]
            }.map(Character.init))
    }

    /// A file the manifest names, on the manifest's server (``ManifestCheck`` refused any other
    /// before anything was fetched).
    func url(_ file: String) throws(ClientError) -> URL {
        do {
            return try ManifestCheck.resolve(file, against: manifestURL)
        } catch {
            throw .badManifest(error.reason)
        }
    }

    /// 5xx is the server failing; anything else unexpected is an HTTP error.
    static func statusError(_ url: String, _ status: Int) -> ClientError {
        (500..<600).contains(status) ? .server(url: url, status: status) : .http(url: url, status: status)
    }

    /// Applies the delta (docs/update-protocol.md, step 5); returns why it cannot be used when it
    /// cannot (the caller takes the full bundle), nil once it is applied. Cancellation is the one
    /// failure that does not fall back.
    private func applyDelta(
        _ delta: DeltaFile, _ latest: BundleVersion,
        progress: @escaping @Sendable (UpdateProgress) -> Void
    ) async throws(ClientError) -> String? {
        let limit = UpdateLimits.inflateLimit(bytes: delta.bytes, unpacked: delta.unpackedBytes, ceiling: UpdateLimits.deltaBytes)
        progress(UpdateProgress(phase: .download, received: 0, expected: delta.bytes))
        let response: HTTPTransport.Response
        do {
            response = try await transport.get(url(delta.file), maxBytes: delta.bytes) { received in
                progress(UpdateProgress(phase: .download, received: received, expected: delta.bytes))
            }
        } catch .cancelled {
            throw .cancelled
        } catch {
            return error.description
        }
        progress(UpdateProgress(phase: .download, received: response.body.count, expected: delta.bytes))
        guard response.status == 200 else { return Self.statusError(delta.file, response.status).description }
        progress(UpdateProgress(phase: .verify))
        guard response.body.count == delta.bytes, sha256Hex(response.body) == delta.sha256 else {
            return "\(delta.file): not the size and SHA-256 the manifest lists"
        }
        let sql: String
        do {
            sql = try DeltaApplier.unpack([UInt8](response.body), limit: limit, exact: delta.unpackedBytes)
        } catch {
            return "\(delta.file): \(error)"
        }
        if Task.isCancelled { throw .cancelled }
        progress(UpdateProgress(phase: .apply))
        let db: Database
        do {
            db = try Database(path: database.path, mode: .readWrite)
        } catch {
            return "cannot open \(database.path): \(error)"
        }
        // Readers keep reading while the delta applies (WAL); a writer elsewhere is waited for.
        db.busyTimeout(milliseconds: 5000)
        _ = try? db.execute("PRAGMA journal_mode = WAL")
        do {
            try DeltaApplier.apply(
                sql, to: db, expectedDigest: latest.digest, expectedVersion: latest.version,
                progress: { done, total in progress(UpdateProgress(phase: .apply, received: done, expected: total)) }
            ) { () throws(DeltaError) in
                // The last moment to give up: nothing is committed yet.
                if Task.isCancelled { throw .cancelled }
            }
            return nil
        } catch .cancelled {
            throw .cancelled
        } catch {
            return "\(delta.file): \(error)"
        }
    }
}
