import ArgumentParser
import BundleFormat
import BundleWriter
import FeedPipeline
import FeedPublish
import Foundation

struct Publish: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Upload the output folder to each bundle's `publish:` target (object storage, S3 API).",
        discussion: """
            The upload step of `feedc build` alone: to retry a failed upload, or to fill a new bucket \
            from out/. Files the manifest lists go first (immutable Cache-Control), each checked; \
            then manifest.json, only if the live one is still the one read; then files no manifest \
            lists any more are pruned after the grace period. Credentials, region and endpoint come \
            from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION and \
            AWS_ENDPOINT_URL; docs/operations.md has the details.

            Exit status: 0 every bundle uploaded or up to date; 2 an upload failed (a lost race with \
            another publisher, a store error, out/ behind the live manifest) or a configuration error.
            """)

    @Option(name: .shortAndLong, help: "The pipeline file; paths inside it are relative to it.")
    var config = "pipeline.yaml"

    @Flag(help: "Print the upload reports as JSON on standard output.")
    var json = false

    func run() throws {
        // The sources are never read here: a publishing machine need not hold them.
        let parsed = Terminal.pipeline(config, checksSourceFiles: false)
        let bundles = parsed.bundles.filter { $0.publish != nil }
        guard !bundles.isEmpty else { Terminal.fail("\(config) has no `publish:` target") }
        let settings: AWSSettings, lock: OutputLock
        do {
            settings = try AWSSettings.fromEnvironment(ProcessInfo.processInfo.environment)
            lock = try OutputLock(folder: parsed.output)
        } catch {
            Terminal.fail(error)
        }
        var reports: [UploadReport] = []
        for bundle in bundles {
            let remote = RemotePublisher(
                target: bundle.publish!, bundle: bundle.name,
                folder: parsed.output.appendingPathComponent(bundle.name), settings: settings)
            if Terminal.isInteractive { remote.progress = { Terminal.status($0) } }
            let publicKey = bundle.signingKey.flatMap { try? String(contentsOf: $0, encoding: .utf8) }.flatMap { try? ManifestSignature.publicKey(of: $0) }
            reports.append(remote.publish(signingPublicKey: publicKey))
        }
        withExtendedLifetime(lock) {}
        if json {
            Terminal.printJSON(reports)
        } else {
            for (bundle, report) in zip(bundles, reports) { print("\(bundle.name): " + ReportText.render(report), terminator: "") }
        }
        if reports.contains(where: { $0.status == .failed }) { throw ExitCode(2) }
    }
}
