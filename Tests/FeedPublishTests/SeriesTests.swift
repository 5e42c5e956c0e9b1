import BundleFormat
import FeedClient
import FeedPipeline
import FeedPublish
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// Wichita's versions built one after the other and published to a real S3 server (rclone),
/// watched through a recording proxy: objects, their headers, the order of writes, prunes, and
/// an app's client pulling each version from the bucket's public (anonymous) URL.
@Suite(.serialized, .enabled(if: SharedData.isAvailable && RcloneS3.isAvailable, "needs ../shared/data and rclone (.ci/run installs it)"))
struct SeriesTests {
    @Test func wichitaSeriesThroughTheStore() async throws {
        let store = try Store()
        let pipeline = PublishingPipeline()
        let prefix = "transit/nightly"
        let publish = "  to: s3://feeds/\(prefix)\n  prune_after: 0s\n  manifest_cache_control: \"public, max-age=30\""
        let dumps = Array(SharedData.zips(in: "versions/wichita").prefix(7))  // keep 4: the 5th to 7th prune
        let tracker = pipeline.folder.url.appendingPathComponent("tracking.sqlite")
        let manifestURL = store.publicURL("\(prefix)/w/manifest.json")
        var previous: Manifest?
        var published = 0, deltasUsed = 0
        var uploadSeconds: [Double] = []
        for dump in dumps {
            let before = store.proxy.entries.count
            let report = try build(pipeline.write(source: dump, publish: publish, keep: 4), store: store)
            let upload = try #require(report.upload, "\(dump.lastPathComponent)")
            #expect(upload.status != .failed, "\(dump.lastPathComponent): \(upload.error ?? "")")
            let local = try pipeline.localManifest()
            let manifest = try Manifest.decode(local)
            // The live manifest is the local one, byte for byte.
            #expect(FileManager.default.contents(atPath: store.file("\(prefix)/w/manifest.json").path) == local)
            if report.status == .published {
                published += 1
                #expect(upload.status == .uploaded)
                uploadSeconds.append(upload.seconds)
            } else {
                #expect(upload.status == .upToDate && upload.uploaded.isEmpty)
            }
            try checkObjects(store, prefix: prefix, manifest: manifest, cacheControl: "public, max-age=30")
            checkOrder(Array(store.proxy.entries.dropFirst(before)), prefix: prefix)
            // Files the previous manifest lists are still there (a client may hold it).
            if let previous {
                for path in UploadPlan.listed(previous) {
                    #expect(FileManager.default.fileExists(atPath: store.file("\(prefix)/w/\(path)").path), "\(path) pruned too early")
                }
            }
            // Nothing but the manifest and what it and the previous one list: prunes happened.
            let allowed = UploadPlan.listed(manifest).union(previous.map(UploadPlan.listed) ?? []).map { "\(prefix)/w/\($0)" } + ["\(prefix)/w/manifest.json"]
            #expect(Set(store.keys(under: prefix)) == Set(allowed), "\(dump.lastPathComponent)")
            // An app pulling from the public URL reaches the latest content.
            let result = try await FeedClient(manifest: manifestURL, database: tracker).update()
            if case .appliedDelta = result { deltasUsed += 1 }
            #expect(try ContentDigest.compute(Database(path: tracker.path)) == manifest.latest.digest)
            previous = manifest
        }
        #expect(published >= 6)
        #expect(deltasUsed >= published - 2, "clients one version behind take the delta")
        // A new app downloads the full bundle; the next update costs one 304.
        let fresh = pipeline.folder.url.appendingPathComponent("fresh.sqlite")
        let client = FeedClient(manifest: manifestURL, database: fresh)
        #expect(try await client.update() == .downloadedFull(version: previous!.latest.version, bytes: previous!.latest.fullDownload.bytes))
        #expect(try await client.update() == .upToDate(version: previous!.latest.version))
        print("upload seconds per published version: \(uploadSeconds.map { String(format: "%.2f", $0) }.joined(separator: " "))")
    }

    /// Every listed object: the bytes the manifest names, the immutable Cache-Control, the
    /// right Content-Type; the manifest with its short Cache-Control.
    private func checkObjects(_ store: Store, prefix: String, manifest: Manifest, cacheControl: String) throws {
        let client = store.client()
        var sums: [String: String] = [:]
        for version in manifest.versions { sums[version.file] = version.sha256 }
        for delta in manifest.deltas { sums[delta.file] = delta.sha256 }
        for path in UploadPlan.listed(manifest) {
            let info = try #require(try client.head("\(prefix)/w/\(path)"), "\(path) missing")
            #expect(info.cacheControl == "public, max-age=31536000, immutable", "\(path)")
            #expect(info.contentType == (path.hasSuffix(".gz") ? "application/gzip" : "application/json"), "\(path)")
            if let sum = sums[path] {
                #expect(sha256Hex(try Data(contentsOf: store.file("\(prefix)/w/\(path)"))) == sum, "\(path)")
            }
        }
        let info = try #require(try client.head("\(prefix)/w/manifest.json"))
        #expect(info.cacheControl == cacheControl)
        #expect(info.contentType == "application/json")
    }

    /// As the server saw it: every immutable file before the manifest; deletions after it.
    private func checkOrder(_ entries: [S3Proxy.Entry], prefix: String) {
        let writes = entries.filter { ["PUT", "POST", "DELETE"].contains($0.method) }
        guard let manifestIndex = writes.firstIndex(where: { $0.method == "PUT" && $0.path.hasSuffix("/\(prefix)/w/manifest.json") }) else {
            #expect(!writes.contains { $0.method == "PUT" || $0.method == "POST" }, "files written without a manifest")
            return
        }
        #expect(writes[manifestIndex].if_match != nil || writes[manifestIndex].if_none_match == "*", "the manifest write is conditional")
        for (index, entry) in writes.enumerated() where index != manifestIndex {
            if entry.method == "DELETE" {
                #expect(index > manifestIndex, "\(entry.path) deleted before the manifest was written")
            } else if !entry.path.hasSuffix("manifest.json.sig") {
                #expect(index < manifestIndex, "\(entry.path) written after the manifest")
            }
        }
    }
}
