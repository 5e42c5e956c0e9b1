import BundleFormat
import FeedClient
import FeedPipeline
import FeedPublish
import FeedSQLite
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What rclone's S3 server does with the requests publication depends on (so that
/// docs/operations.md stays true), multipart uploads, and the signature beside the manifest.
@Suite(.serialized, .enabled(if: RcloneS3.isAvailable, "needs rclone (.ci/run installs it)"))
struct StoreBehaviourTests {
    /// rclone 1.75 ignores If-Match and If-None-Match on PUT (AWS S3 honours both); the test
    /// proxy enforces them as AWS does. GET honours If-None-Match (304).
    @Test func conditionalRequests() throws {
        let store = try Store()
        let rclone = store.client()
        guard case .written(let first) = try rclone.put("c/m.json", Data("one".utf8), contentType: "application/json", cacheControl: "max-age=60") else {
            Issue.record("first write refused")
            return
        }
        let wrong = String(repeating: "0", count: 32)
        #expect(
            try rclone.put("c/m.json", Data("two".utf8), contentType: "application/json", cacheControl: "max-age=60", ifMatch: wrong) != .preconditionFailed,
            "rclone now honours If-Match: update docs/operations.md")
        #expect(
            try rclone.put("c/m.json", Data("three".utf8), contentType: "application/json", cacheControl: "max-age=60", ifNoneMatch: "*")
                != .preconditionFailed,
            "rclone now honours If-None-Match: update docs/operations.md")
        #expect(try rclone.get("c/m.json")?.0 == Data("three".utf8))

        let proxied = S3Client(settings: try AWSSettings.fromEnvironment(store.environment()), bucket: store.bucket)
        let conditional = try S3Proxy(upstream: store.writer, conditional: true)
        let strict = S3Client(settings: try AWSSettings.fromEnvironment(store.environment(endpoint: conditional.endpoint)), bucket: store.bucket)
        _ = proxied
        #expect(
            try strict.put("c/m.json", Data("four".utf8), contentType: "application/json", cacheControl: "max-age=60", ifMatch: first) == .preconditionFailed)
        let current = try #require(try strict.head("c/m.json")).etag
        #expect(
            try strict.put("c/m.json", Data("five".utf8), contentType: "application/json", cacheControl: "max-age=60", ifMatch: current) != .preconditionFailed)
        #expect(
            try strict.put("c/m.json", Data("six".utf8), contentType: "application/json", cacheControl: "max-age=60", ifNoneMatch: "*") == .preconditionFailed)
        // A store that refuses conditional writes outright (501): the publisher writes again without.
        let refusing = try S3Proxy(upstream: store.writer, refuseConditional: true)
        let plainOnly = S3Client(settings: try AWSSettings.fromEnvironment(store.environment(endpoint: refusing.endpoint)), bucket: store.bucket)
        #expect(
            try plainOnly.put("c/m.json", Data("seven".utf8), contentType: "application/json", cacheControl: "max-age=60", ifMatch: current)
                == .conditionsNotImplemented)
        #expect(try rclone.get("c/m.json")?.0 == Data("five".utf8), "nothing written by the refused request")

        // The public URL: anonymous reads with ETag and 304; no anonymous writes; the keyed
        // server reads nothing anonymously.
        let url = store.publicURL("c/m.json")
        let plain = try fetch(url)
        #expect(plain.status == 200 && plain.body == Data("five".utf8))
        let etag = try #require(plain.headers["etag"])
        #expect(try fetch(url, headers: ["If-None-Match": etag]).status == 304)
        let range = try fetch(url, headers: ["Range": "bytes=2-"])
        // rclone answers a range with 200 (not 206) and a Content-Range; FeedClient accepts both.
        #expect(range.body == Data("ve".utf8) && range.headers["content-range"] == "bytes 2-3/4", "\(range.status)")
        #expect(try fetch(url, method: "PUT").status >= 400)
        #expect(try fetch(URL(string: "http://127.0.0.1:\(store.writer.port)/\(store.bucket)/c/m.json")!).status >= 400)
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data")) func largeFilesGoInParts() throws {
        // The plain bundle's first part (the packed file beside it is below the threshold).
        let store = try Store(drop: "PUT .*/bundles/[0-9]+-[0-9a-f]+\\.sqlite\\.gz:1")
        let pipeline = PublishingPipeline()
        _ = try BuildRunner(config: pipeline.write(source: SharedData.zips(in: "versions/wichita")[0], publish: nil)).run()
        var options = RemoteOptions.fast
        options.multipartThreshold = 100_000
        options.partSize = 64 << 10
        options.timeout = 5
        let target = PublishTarget(bucket: store.bucket, prefix: "mp")
        let report = RemotePublisher(
            target: target, bundle: "w", folder: pipeline.bundleFolder, settings: try AWSSettings.fromEnvironment(store.environment()),
            options: options
        ).publish()
        #expect(report.status == .uploaded, "\(report.error ?? "")")
        let manifest = try Manifest.decode(pipeline.localManifest())
        let bundle = manifest.latest
        let parts = (bundle.bytes + (64 << 10) - 1) / (64 << 10)
        let entries = store.proxy.entries.filter { $0.path.hasSuffix(bundle.file) }
        #expect(entries.contains { $0.method == "POST" && $0.query.contains("uploads") && $0.cache_control == PublishTarget.immutableCacheControl })
        #expect(
            Set(
                entries.filter { $0.method == "PUT" && $0.status == .code(200) }.map(\.query).compactMap {
                    $0.split(separator: "&").first { $0.hasPrefix("partNumber=") }
                }
            ).count == parts)
        #expect(entries.contains { $0.status == .other("dropped") }, "a part was cut and sent again")
        #expect(entries.contains { $0.method == "POST" && $0.query.contains("uploadId") && $0.status == .code(200) })
        #expect(sha256Hex(try Data(contentsOf: store.file("mp/w/\(bundle.file)"))) == bundle.sha256)
        let info = try #require(try store.client().head("mp/w/\(bundle.file)"))
        #expect(info.contentType == "application/gzip" && info.cacheControl == PublishTarget.immutableCacheControl)
        // Run again: everything is there (checked by size and ETag), nothing is written.
        let before = store.proxy.entries.count
        let again = RemotePublisher(
            target: target, bundle: "w", folder: pipeline.bundleFolder, settings: try AWSSettings.fromEnvironment(store.environment()),
            options: options
        ).publish()
        #expect(again.status == .upToDate)
        #expect(!store.proxy.entries.dropFirst(before).contains { ["PUT", "POST", "DELETE"].contains($0.method) })
    }

    /// `manifest.json.sig` is uploaded before the manifest while the bundle signs, and deleted
    /// with the first manifest published unsigned: a stale signature never stays.
    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data")) func signatureFollowsTheManifest() async throws {
        let store = try Store()
        let pipeline = PublishingPipeline()
        let keys = ManifestSignature.generateKeyPair()
        try keys.privateKey.write(to: pipeline.folder.url.appendingPathComponent("key"), atomically: true, encoding: .utf8)
        let publish = "  to: s3://feeds/signed"
        let dumps = SharedData.zips(in: "versions/wichita")
        let signed = try build(pipeline.write(source: dumps[0], publish: publish, extra: "    signing_key: key\n"), store: store)
        // The signature goes up before the manifest it signs (beside the live one's, when there
        // is one: `SignedPublishKillTests`), so the live manifest always has its signature.
        #expect(signed.upload?.uploaded.suffix(2) == ["manifest.json.sig", "manifest.json"])
        #expect(ManifestSignature.lines(of: String(decoding: try Data(contentsOf: store.file("signed/w/manifest.json.sig")), as: UTF8.self)).count == 1)
        let info = try #require(try store.client().head("signed/w/manifest.json.sig"))
        #expect(info.cacheControl == "max-age=60" && info.contentType == "text/plain; charset=utf-8")
        let db = pipeline.folder.url.appendingPathComponent("app.sqlite")
        let manifestURL = store.publicURL("signed/w/manifest.json")
        _ = try await FeedClient(manifest: manifestURL, database: db, publicKey: keys.publicKey).update()

        let unsigned = try build(pipeline.write(source: dumps[1], publish: publish), store: store)
        #expect(unsigned.upload?.status == .uploaded)
        #expect(!FileManager.default.fileExists(atPath: store.file("signed/w/manifest.json.sig").path))
        #expect(!FileManager.default.fileExists(atPath: pipeline.bundleFolder.appendingPathComponent("manifest.json.sig").path))
        // An app that requires signatures refuses the unsigned manifest and keeps its database.
        await #expect(throws: ClientError.self) { try await FeedClient(manifest: manifestURL, database: db, publicKey: keys.publicKey).update() }
    }

    /// A bundle download cut short is resumed from the public URL with a Range request
    /// (answered 200 + Content-Range by rclone); a store refusing conditional writes (501) still
    /// gets the next version; `feedc pull` works against the public URL.
    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data")) func clientResumesFromThePublicURL() async throws {
        let store = try Store()
        let pipeline = PublishingPipeline()
        let report = try build(pipeline.write(source: SharedData.zips(in: "versions/wichita")[0], publish: "  to: s3://feeds/pub"), store: store)
        #expect(report.upload?.status == .uploaded)
        let latest = try Manifest.decode(pipeline.localManifest()).latest
        // What an app left behind when its connection was cut halfway through the bundle (the
        // packed file, what the client downloads).
        let download = latest.fullDownload
        #expect(download.isPacked)
        let db = pipeline.folder.url.appendingPathComponent("app.sqlite")
        let bytes = try Data(contentsOf: store.file("pub/w/\(download.file)"))
        try bytes.prefix(bytes.count / 2).write(to: pipeline.folder.url.appendingPathComponent(".app.sqlite.download-\(download.sha256.prefix(16))"))
        let watcher = try S3Proxy(upstream: store.reader)
        let manifestURL = URL(string: "http://127.0.0.1:\(watcher.port)/feeds/pub/w/manifest.json")!
        #expect(try await FeedClient(manifest: manifestURL, database: db).update() == .downloadedFull(version: latest.version, bytes: download.bytes))
        #expect(try ContentDigest.compute(Database(path: db.path)) == latest.digest)
        let bundleGets = watcher.entries.filter { $0.path.hasSuffix(download.file) }
        #expect(bundleGets.map(\.range) == ["bytes=\(bytes.count / 2)-"], "one request, for the second half")

        let feedc = try #require(FeedcBinary.url)
        // Through a store that answers conditional writes 501, the next version still goes up.
        let refusing = try S3Proxy(upstream: store.writer, refuseConditional: true)
        let next = try build(
            pipeline.write(source: SharedData.zips(in: "versions/wichita")[1], publish: "  to: s3://feeds/pub"), store: store,
            environment: store.environment(endpoint: refusing.endpoint))
        #expect(next.upload?.status == .uploaded, "\(next.upload?.error ?? "")")
        #expect(refusing.entries.filter { $0.method == "PUT" && $0.path.hasSuffix("/manifest.json") }.map(\.status) == [.code(501), .code(200)])

        let pulled = try Subprocess.run(
            feedc, ["pull", store.publicURL("pub/w/manifest.json").absoluteString, "--db", pipeline.folder.url.appendingPathComponent("cli.sqlite").path])
        #expect(pulled.status == 0, "\(pulled.output)\(pulled.error)")
    }

    private func fetch(_ url: URL, method: String = "GET", headers: [String: String] = [:]) throws -> (status: Int, headers: [String: String], body: Data) {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 10)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let box = FetchBox()
        let done = DispatchSemaphore(value: 0)
        let task = URLSession(configuration: .ephemeral).dataTask(with: request) { data, response, _ in
            if let http = response as? HTTPURLResponse {
                var fields: [String: String] = [:]
                for (key, value) in http.allHeaderFields { fields["\(key)".lowercased()] = "\(value)" }
                box.value = (http.statusCode, fields, data ?? Data())
            }
            done.signal()
        }
        if method == "PUT" { request.httpBody = Data("x".utf8) }
        task.resume()
        done.wait()
        guard let value = box.value else { throw ServerError(message: "no answer from \(url)") }
        return value
    }
}

private final class FetchBox: @unchecked Sendable {
    var value: (Int, [String: String], Data)?
}
