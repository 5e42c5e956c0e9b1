import BundleFormat
import FeedModel
import Foundation

/// Before a build: the local output folder brought up to the live manifest.
extension RemotePublisher {
    /// What ``restore()`` found and did.
    package enum RestoreOutcome: Sendable, Equatable {
        /// No manifest is live yet.
        case nothingLive
        /// The local folder already holds the live manifest, or descends from it.
        case localCurrent(version: Int)
        /// The local folder now mirrors the live manifest (files downloaded and checked).
        case restored(version: Int, files: Int)
    }

    /// Brings the local folder to the live manifest unless it already holds it or a newer
    /// version descending from it. Listed files are downloaded and checked against the
    /// manifest's SHA-256, the manifest written last; local files it does not list are removed.
    package func restore() throws(RemotePublishError) -> RestoreOutcome {
        let redactor = client.redactor
        do {
            let live = try fetchLive()
            liveAtStart = .some(live)
            guard let live else { return .nothingLive }
            let local = try localManifest()
            if let local, local.0 == live.data || Self.isAhead(local.1, of: live.manifest) {
                return .localCurrent(version: local.1.latest.version)
            }
            progress("\(bundle): the live manifest holds \(Self.describe(live.manifest.latest)); bringing the local folder to it")
            let plan = try UploadPlan(manifest: live.manifest)
            var checksums: [String: String] = [:]
            for version in live.manifest.versions + [live.manifest.latest] {
                checksums[version.file] = version.sha256
                for encoded in version.encodings ?? [] { checksums[encoded.file] = encoded.sha256 }
            }
            for delta in live.manifest.deltas { checksums[delta.file] = delta.sha256 }
            var downloaded = 0
            for path in plan.immutable {
                let url = folder.appendingPathComponent(path)
                let existing = FileManager.default.contents(atPath: url.path)
                if let existing, let sum = checksums[path], sha256Hex(existing) == sum { continue }
                guard let (data, _) = try client.get(key(path)) else {
                    throw RemotePublishError.conflict("\(where_) lists \(path), which is not in the store")
                }
                if let sum = checksums[path], sha256Hex(data) != sum {
                    throw RemotePublishError.verification("s3://\(target.bucket)/\(key(path)): SHA-256 differs from the live manifest's")
                }
                if existing != data {
                    try AtomicFile.write(data, to: url)
                    downloaded += 1
                }
            }
            let signatureURL = folder.appendingPathComponent("manifest.json.sig")
            if let (signature, _) = try client.get(signatureKey) {
                try AtomicFile.write(signature, to: signatureURL)
            } else {
                try? FileManager.default.removeItem(at: signatureURL)
            }
            try AtomicFile.write(live.data, to: folder.appendingPathComponent("manifest.json"))
            let listed = Set(plan.immutable)
            for sub in ["bundles", "deltas", "reports"] {
                for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(sub).path)) ?? []
                where !listed.contains("\(sub)/\(name)") {
                    try? FileManager.default.removeItem(at: folder.appendingPathComponent(sub).appendingPathComponent(name))
                }
            }
            return .restored(version: live.manifest.latest.version, files: downloaded)
        } catch let error as RemotePublishError {
            throw error.redacted(redactor)
        } catch {
            throw RemotePublishError.local("\(folder.path): \(error)").redacted(redactor)
        }
    }
}
