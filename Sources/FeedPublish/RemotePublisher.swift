import BundleFormat
import FeedModel
import Foundation

/// Publishes one bundle's output folder to `s3://bucket/prefix/<bundle>/`:
///
/// 1. reads the live manifest (and its ETag);
/// 2. uploads each file the local manifest lists that the store lacks (immutable `Cache-Control`,
///    `Content-MD5`, in parts when large), reading each back (size and checksum); a name that
///    holds other content is never overwritten;
/// 3. writes `manifest.json` only if the live one is still the one read (`If-Match`, or
///    `If-None-Match: *` for a first one; checked again just before and read back after, for
///    stores that ignore those headers), with a signature object holding the live manifest's
///    line and the new one's before it and the new one's alone after it (or deletes a stale one);
/// 4. deletes files neither the new nor the previous manifest lists once they have been
///    unlisted, and in the store, for `pruneAfter` seconds.
///
/// Before a build, `restore()` brings the local folder up to the live manifest when that is newer,
/// so a runner without `out/` continues the version numbers instead of starting at 1.
package final class RemotePublisher {
    package let target: PublishTarget
    package let bundle: String
    /// The local `<output>/<bundle>` folder.
    package let folder: URL
    package let options: RemoteOptions
    package var progress: (String) -> Void = { _ in }
    let client: S3Client
    /// The live manifest as `restore()` found it: a different one at upload time is a lost race.
    var liveAtStart: LiveManifest??

    package init(target: PublishTarget, bundle: String, folder: URL, settings: AWSSettings, options: RemoteOptions = RemoteOptions()) {
        self.target = target
        self.bundle = bundle
        self.folder = folder
        self.options = options
        self.client = S3Client(settings: settings, bucket: target.bucket, retry: options.retry, timeout: options.timeout)
    }

    struct LiveManifest: Equatable {
        var data: Data
        var manifest: Manifest
        var etag: String
        var lastModified: Date?
    }

    func key(_ path: String) -> String { target.key(bundle: bundle, path) }
    private var manifestKey: String { key("manifest.json") }
    var signatureKey: String { key("manifest.json.sig") }
    var where_: String { "s3://\(target.bucket)/\(manifestKey)" }

    func fetchLive() throws(RemotePublishError) -> LiveManifest? {
        guard let (data, info) = try client.get(manifestKey) else { return nil }
        guard let manifest = try? Manifest.decode(data) else {
            throw .conflict("\(where_) is not a feedc manifest; refusing to replace it")
        }
        guard manifest.bundle == bundle else {
            throw .conflict("\(where_) is the manifest of bundle `\(manifest.bundle)`, not `\(bundle)`; refusing to replace it")
        }
        return LiveManifest(data: data, manifest: manifest, etag: info.etag, lastModified: info.lastModified)
    }

    func localManifest() throws(RemotePublishError) -> (Data, Manifest)? {
        let url = folder.appendingPathComponent("manifest.json")
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        guard let manifest = try? Manifest.decode(data) else { throw .local("\(url.path): unreadable manifest") }
        return (data, manifest)
    }

    /// Whether `local` descends from `live`: newer, and listing live's latest (or having
    /// retained nothing that old).
    static func isAhead(_ local: Manifest, of live: Manifest) -> Bool {
        guard local.latest.version > live.latest.version else { return false }
        if local.versions.contains(where: { $0.version == live.latest.version }) {
            return local.versions.contains { $0.version == live.latest.version && $0.digest == live.latest.digest }
        }
        return live.latest.version < (local.versions.map(\.version).min() ?? 0)
    }

    static func describe(_ version: BundleVersion) -> String { "version \(version.version) (\(version.digest))" }

    // MARK: Publish

    /// Publishes the local folder; every failure is in the report (status `failed`).
    package func publish(signingPublicKey: String? = nil) -> UploadReport {
        let start = Date()
        var report = UploadReport(target: target.url(bundle: bundle), status: .failed)
        do {
            try publish(signingPublicKey: signingPublicKey, into: &report)
        } catch {
            report.status = .failed
            report.error = error.redacted(client.redactor).message
            report.errorKind = error.kind
        }
        report.retries = client.retries
        report.seconds = (Date().timeIntervalSince(start) * 1000).rounded() / 1000
        return report
    }

    private func publish(signingPublicKey: String?, into report: inout UploadReport) throws(RemotePublishError) {
        guard let (localData, local) = try localManifest() else {
            throw .local("\(folder.path) holds no manifest.json: nothing was built to publish")
        }
        report.version = local.latest.version
        let live = try fetchLive()
        report.liveVersion = live?.manifest.latest.version
        if let live, live.data == localData {
            report.status = .upToDate
            try syncSignature(localData, publicKey: signingPublicKey, into: &report)
        } else if let live, !Self.isAhead(local, of: live.manifest) {
            guard live.manifest.latest.version > local.latest.version,
                live.manifest.versions.contains(where: { $0.version == local.latest.version && $0.digest == local.latest.digest })
            else {
                if case .some(let seen) = liveAtStart, seen?.etag != live.etag {
                    throw .lostRace(
                        "another publisher replaced \(where_) during this run: it holds \(Self.describe(live.manifest.latest)) now; this run's \(Self.describe(local.latest)) is not live and nothing was uploaded. `feedc build` continues from the live manifest"
                    )
                }
                throw .behind(
                    "\(where_) holds \(Self.describe(live.manifest.latest)); \(folder.path) holds \(Self.describe(local.latest)), which does not continue it. Nothing was uploaded; `feedc build` continues from the live manifest"
                )
            }
            // The store is ahead and holds everything this folder has: nothing to do here.
            report.status = .upToDate
            report.note = "the live manifest holds \(Self.describe(live.manifest.latest)), newer than the local folder's"
        } else {
            let plan = try UploadPlan(manifest: local)
            for path in plan.immutable { try ensure(path, into: &report) }
            try bridgeSignature(localData, publicKey: signingPublicKey, into: &report)
            try writeManifest(localData, local: local, replacing: live)
            report.uploaded.append("manifest.json")
            report.bytes += localData.count
            report.status = .uploaded
            try syncSignature(localData, publicKey: signingPublicKey, into: &report)
        }
        // Files listed by neither manifest have been unlisted since the live one went up.
        try prune(
            keeping: UploadPlan.listed(local).union(live.map { UploadPlan.listed($0.manifest) } ?? []),
            unlistedSince: live.map { $0.lastModified } ?? .distantPast, into: &report)
    }

    /// Uploads one immutable file unless the store holds it already; reads it back.
    private func ensure(_ path: String, into report: inout UploadReport) throws(RemotePublishError) {
        let url = folder.appendingPathComponent(path)
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw .local("\(url.path): the manifest lists it but it cannot be read (\(error.localizedDescription))")
        }
        let sums = Checksums(data, partSize: options.partSize)
        let objectKey = key(path)
        if let existing = try client.head(objectKey) {
            guard try holds(existing, sums) else {
                throw .conflict(
                    "s3://\(target.bucket)/\(objectKey) already holds other content (\(existing.size) bytes, ETag \(existing.etag)); a published name is never overwritten"
                )
            }
            report.alreadyThere += 1
            return
        }
        progress("\(bundle): uploading \(path) (\(data.count) bytes)")
        let contentType = UploadPlan.contentType(path)
        if data.count >= options.multipartThreshold {
            try uploadInParts(objectKey, data, contentType: contentType)
        } else {
            _ = try client.put(objectKey, data, contentType: contentType, cacheControl: PublishTarget.immutableCacheControl)
        }
        guard let written = try client.head(objectKey), try holds(written, sums) else {
            throw .verification("s3://\(target.bucket)/\(objectKey) does not read back with the \(data.count) bytes and checksum sent")
        }
        report.uploaded.append(path)
        report.bytes += data.count
    }

    /// A multipart upload: each part retried on its own; an upload the store gave up on (a
    /// part it refused after taking it in, an expired upload) is aborted and started again,
    /// up to three times.
    private func uploadInParts(_ key: String, _ data: Data, contentType: String) throws(RemotePublishError) {
        var attempt = 0
        while true {
            attempt += 1
            let id = try client.createMultipartUpload(key, contentType: contentType, cacheControl: PublishTarget.immutableCacheControl)
            do {
                var etags: [String] = []
                for (index, start) in stride(from: 0, to: data.count, by: options.partSize).enumerated() {
                    let part = Data(data[data.startIndex + start..<data.startIndex + min(data.count, start + options.partSize)])
                    etags.append(try client.uploadPart(key, uploadID: id, number: index + 1, part))
                }
                try client.completeMultipartUpload(key, uploadID: id, parts: etags)
                return
            } catch {
                client.abortMultipartUpload(key, uploadID: id)
                guard attempt < 3 else { throw error }
                progress("\(bundle): starting the upload of \(key) again (\(error.message))")
            }
        }
    }

    /// Whether the object holds exactly these bytes: by size and ETag, or else by downloading it.
    private func holds(_ info: ObjectInfo, _ sums: Checksums) throws(RemotePublishError) -> Bool {
        if let known = sums.etagMatches(info) { return known }
        guard let (data, _) = try client.get(info.key) else { return false }
        return sha256Hex(data) == sums.sha256
    }

    /// The conditional manifest write: checked just before, `If-Match` the ETag read (or
    /// `If-None-Match: *`), read back after `settle`. Any sign of another writer is a lost race.
    private func writeManifest(_ data: Data, local: Manifest, replacing live: LiveManifest?) throws(RemotePublishError) {
        func lost() throws(RemotePublishError) -> RemotePublishError {
            let now = try fetchLive()
            return .lostRace(
                "another publisher replaced \(where_) while this run was uploading: it holds \(now.map { Self.describe($0.manifest.latest) } ?? "nothing") now; this run's \(Self.describe(local.latest)) is not live (its files stay unlisted and are pruned later). `feedc build` continues from the live manifest"
            )
        }
        if try client.head(manifestKey)?.etag != live?.etag { throw try lost() }
        options.beforeManifestWrite?()
        progress("\(bundle): writing manifest.json (\(Self.describe(local.latest)))")
        let type = UploadPlan.contentType("manifest.json")
        var outcome = try client.put(
            manifestKey, data, contentType: type, cacheControl: target.manifestCacheControl,
            ifMatch: live?.etag, ifNoneMatch: live == nil ? "*" : nil)
        if outcome == .conditionsNotImplemented {
            // A store that refuses conditional writes outright: the checks around the write remain.
            outcome = try client.put(manifestKey, data, contentType: type, cacheControl: target.manifestCacheControl)
        }
        // A 412 may answer a retry of our own write whose first answer was lost.
        if outcome == .preconditionFailed, try client.get(manifestKey)?.0 != data { throw try lost() }
        if options.settle > 0 { Thread.sleep(forTimeInterval: options.settle) }
        guard try client.get(manifestKey)?.0 == data else { throw try lost() }
    }

    /// Before a signed manifest replaces the live one: the signature object holds the live
    /// manifest's signature lines and the new one's, so a run that dies between the manifest and
    /// its signature (the read-back wait lies between them) leaves no live manifest unverifiable.
    /// ``syncSignature(_:publicKey:into:)`` then leaves the new one's alone.
    private func bridgeSignature(_ manifest: Data, publicKey: String?, into report: inout UploadReport) throws(RemotePublishError) {
        guard let publicKey, let local = FileManager.default.contents(atPath: folder.appendingPathComponent("manifest.json.sig").path),
            let newest = ManifestSignature.lines(of: String(decoding: local, as: UTF8.self))
                .first(where: { ManifestSignature.verify(manifest, signature: $0, publicKey: publicKey) })
        else { return }
        let current = try client.get(signatureKey)
        let live = current.map { String(decoding: $0.0, as: UTF8.self) }
        let bridge = Data(ManifestSignature.bridge(live: live, new: newest).utf8)
        // Only over the signature read: another publisher's bridge or final line written since
        // then is not dropped (where the store honours the condition; rclone does not).
        let outcome = try client.put(
            signatureKey, bridge, contentType: UploadPlan.contentType("manifest.json.sig"),
            cacheControl: target.manifestCacheControl,
            ifMatch: current?.1.etag, ifNoneMatch: current == nil ? "*" : nil)
        if outcome == .preconditionFailed {
            throw .lostRace(
                "another publisher changed \(where_)'s signature during this run; nothing of this run's is live. `feedc build` continues from the live manifest"
            )
        }
        report.uploaded.append("manifest.json.sig")
        report.bytes += bridge.count
    }

    /// `manifest.json.sig` follows the manifest: uploaded when the bundle signs and the local
    /// signature verifies with its key, deleted otherwise, so a stale one never stays.
    private func syncSignature(_ manifest: Data, publicKey: String?, into report: inout UploadReport) throws(RemotePublishError) {
        let local = FileManager.default.contents(atPath: folder.appendingPathComponent("manifest.json.sig").path)
        let existing = try client.head(signatureKey)
        if let publicKey, let local, ManifestSignature.verify(manifest, signature: String(decoding: local, as: UTF8.self), publicKey: publicKey) {
            guard existing.flatMap({ Checksums(local, partSize: options.partSize).etagMatches($0) }) != true else { return }
            _ = try client.put(signatureKey, local, contentType: UploadPlan.contentType("manifest.json.sig"), cacheControl: target.manifestCacheControl)
            report.uploaded.append("manifest.json.sig")
            report.bytes += local.count
        } else if existing != nil {
            progress("\(bundle): deleting manifest.json.sig (the manifest is not signed)")
            try client.delete(signatureKey)
        }
    }

    /// Deletes files under bundles/, deltas/ and reports/ that neither the live nor the previous
    /// manifest lists, once the previous manifest has been replaced (`unlistedSince`) for the
    /// grace period and the file itself is older than it (a concurrent run's fresh uploads stay).
    private func prune(keeping listed: Set<String>, unlistedSince: Date?, into report: inout UploadReport) throws(RemotePublishError) {
        let base = key("")
        let objects = try client.list(prefix: base)
        let now = client.serverDate ?? Date()
        for object in objects {
            let path = String(object.key.dropFirst(base.count))
            guard object.key.hasPrefix(base), UploadPlan.isPublishable(path), !listed.contains(path) else { continue }
            guard let since = unlistedSince, now.timeIntervalSince(since) >= target.pruneAfter,
                let modified = object.lastModified, now.timeIntervalSince(modified) >= target.pruneAfter
            else {
                report.pruneDeferred += 1
                continue
            }
            try client.delete(object.key)
            report.deleted.append(path)
        }
    }
}
