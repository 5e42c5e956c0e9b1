import BundleFormat
import FeedPipeline
import FeedPublish
import Foundation
import TestSupport

/// An S3 store for one test: rclone with keys (the writers' endpoint) behind a recording proxy,
/// and the same folder served anonymously and read-only (the bucket's public URL).
final class Store: @unchecked Sendable {
    let folder = TemporaryFolder()
    let bucket = "feeds"
    /// The folder rclone serves; the bucket is its subfolder.
    let data: URL
    private(set) var writer: RcloneS3
    private(set) var proxy: S3Proxy
    let reader: RcloneS3

    init(conditional: Bool = false, throttle: Int? = nil, drop: String? = nil) throws {
        data = folder.url.appendingPathComponent("s3")
        try FileManager.default.createDirectory(at: data.appendingPathComponent(bucket), withIntermediateDirectories: true)
        writer = try RcloneS3(root: data)
        proxy = try S3Proxy(upstream: writer, conditional: conditional, throttle: throttle, drop: drop)
        reader = try RcloneS3(root: data, anonymous: true)
    }

    /// A new writer server on the same folder (after `writer.kill()`), with a new proxy.
    func restartWriter(conditional: Bool = false, throttle: Int? = nil, drop: String? = nil) throws {
        writer.kill()
        writer = try RcloneS3(root: data)
        proxy = try S3Proxy(upstream: writer, conditional: conditional, throttle: throttle, drop: drop)
    }

    /// What a CI job sets: keys, region, the endpoint (the proxy unless said otherwise).
    func environment(endpoint: URL? = nil, secret: String = RcloneS3.secretKey) -> [String: String] {
        [
            "AWS_ACCESS_KEY_ID": RcloneS3.accessKey, "AWS_SECRET_ACCESS_KEY": secret, "AWS_REGION": "us-east-1",
            "AWS_ENDPOINT_URL": (endpoint ?? proxy.endpoint).absoluteString,
        ]
    }

    var settings: AWSSettings { try! AWSSettings.fromEnvironment(environment(endpoint: writer.endpoint)) }

    /// A signed client straight to rclone, for the tests' own checks (not in the proxy's log).
    func client() -> S3Client { S3Client(settings: settings, bucket: bucket) }

    /// The object's file in the served folder.
    func file(_ key: String) -> URL { data.appendingPathComponent(bucket).appendingPathComponent(key) }

    /// The object's public (anonymous) URL.
    func publicURL(_ key: String) -> URL { URL(string: "http://127.0.0.1:\(reader.port)/\(bucket)/\(key)")! }

    /// The live manifest, read from the served folder.
    func manifest(_ key: String) throws -> Manifest? {
        guard let data = FileManager.default.contents(atPath: file(key).path) else { return nil }
        return try Manifest.decode(data)
    }

    /// Waits until the writer has no upload in hand: no `.rclone_temp_put_*` file in the bucket.
    /// rclone 1.75.2 replaces an object by deleting it and then renaming the upload's temporary
    /// file over it, so between the two the object is missing (an S3 store's `PUT` is atomic). A
    /// publisher killed after sending a request leaves rclone to finish it: read the folder
    /// after this. The bound only stops a hang (a temporary rclone never removed).
    func settle() {
        let base = data.appendingPathComponent(bucket).path
        let deadline = Date().addingTimeInterval(60)
        var quiet = 0
        while quiet < 2 && Date() < deadline {
            let all = (try? FileManager.default.subpathsOfDirectory(atPath: base)) ?? []
            quiet = all.contains { ($0 as NSString).lastPathComponent.hasPrefix(".rclone_temp_put_") } ? 0 : quiet + 1
            usleep(20_000)
        }
    }

    /// Every object key under `prefix`, from the folder (hidden rclone temporaries left out).
    func keys(under prefix: String) -> [String] {
        let base = data.appendingPathComponent(bucket)
        let all = (try? FileManager.default.subpathsOfDirectory(atPath: base.appendingPathComponent(prefix).path)) ?? []
        return all.filter { path in
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: base.appendingPathComponent(prefix).appendingPathComponent(path).path, isDirectory: &isFolder)
            return !isFolder.boolValue && !(path as NSString).lastPathComponent.hasPrefix(".rclone_temp_")
        }.map { prefix + "/" + $0 }.sorted()
    }
}

/// A pipeline.yaml with one bundle from one dump, publishing to the store.
final class PublishingPipeline {
    let folder = TemporaryFolder()
    let bundle: String
    var file: URL { folder.url.appendingPathComponent("pipeline.yaml") }
    var output: URL { folder.url.appendingPathComponent("out") }
    var bundleFolder: URL { output.appendingPathComponent(bundle) }
    let dump: URL

    init(bundle: String = "w") {
        self.bundle = bundle
        dump = folder.url.appendingPathComponent("dump.zip")
    }

    /// Writes the pipeline for `source` (copied where the pipeline always reads it, as a
    /// nightly download would be). `publish` is the YAML of the `publish:` value.
    func write(source: URL, publish: String?, keep: Int = 10, extra: String = "") throws -> PipelineConfig {
        try? FileManager.default.removeItem(at: dump)
        try FileManager.default.copyItem(at: source, to: dump)
        var yaml = "output: out\nkeep: \(keep)\n"
        if let publish { yaml += "publish:\n\(publish)\n" }
        yaml += "bundles:\n  - name: \(bundle)\n    max_delta_share: 1.0\n\(extra)    sources:\n      - id: \(bundle)\n        path: dump.zip\n"
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        return try PipelineConfigParser().parse(contentsOf: file)
    }

    func localManifest() throws -> Data { try Data(contentsOf: bundleFolder.appendingPathComponent("manifest.json")) }
}

extension RemoteOptions {
    /// Quick retries and a short settle, for tests.
    static var fast: RemoteOptions {
        var options = RemoteOptions()
        options.retry = RetryPolicy(attempts: 4, baseDelay: 0.05, maxDelay: 0.5)
        options.settle = 0.2
        options.timeout = 30
        return options
    }
}

func build(_ config: PipelineConfig, store: Store, options: RemoteOptions = .fast, environment: [String: String]? = nil) throws -> BuildReport {
    var runner = BuildRunner(config: config)
    runner.environment = environment ?? store.environment()
    runner.remoteOptions = options
    return try runner.run()[0]
}
