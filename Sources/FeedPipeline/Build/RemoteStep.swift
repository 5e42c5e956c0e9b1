import BundleFormat
import FeedPublish
import Foundation

/// The object-storage side of a build: before it, the local folder is brought to the live
/// manifest (so versions continue from the bucket on a runner without `out/`); after it, the
/// folder is uploaded.
extension BuildRunner {
    func restoreFromRemote(_ bundle: BundleConfig, _ target: PublishTarget) throws -> RemotePublisher {
        let settings = try AWSSettings.fromEnvironment(environment)
        let remote = RemotePublisher(
            target: target, bundle: bundle.name, folder: config.output.appendingPathComponent(bundle.name),
            settings: settings, options: remoteOptions)
        remote.progress = progress
        progress("\(bundle.name): reading the live manifest at \(target.url(bundle: bundle.name))")
        do {
            if case .restored(let version, let files) = try remote.restore() {
                progress("\(bundle.name): continuing from the live version \(version) (\(files) files downloaded)")
            }
        } catch {
            throw RemotePublishError(kind: error.kind, message: "cannot continue from \(target.url(bundle: bundle.name)): \(error.message)")
        }
        return remote
    }

    func upload(_ bundle: BundleConfig, _ remote: RemotePublisher) -> UploadReport {
        let publicKey = bundle.signingKey.flatMap { try? String(contentsOf: $0, encoding: .utf8) }.flatMap { try? ManifestSignature.publicKey(of: $0) }
        return remote.publish(signingPublicKey: publicKey)
    }
}
