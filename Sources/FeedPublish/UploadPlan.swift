import BundleFormat
import Crypto
import Foundation

/// What goes public from a bundle's output folder: exactly the files its manifest lists
/// (bundles, deltas, reports), then the manifest and its signature. Nothing is found by walking
/// the folder, so `out/.cache/`, the lock and temporary files never leave the machine.
package struct UploadPlan: Sendable, Equatable {
    /// Paths relative to the bundle folder, in upload order: bundles, then deltas, then reports.
    package var immutable: [String]

    package init(manifest: Manifest) throws(RemotePublishError) {
        let listed = Self.listed(manifest)
        if let unsafe = listed.first(where: { !Self.isPublishable($0) }) {
            throw .local("the manifest lists `\(unsafe)`, which is not a file feedc publishes (bundles/, deltas/ or reports/ and a plain name)")
        }
        let order = ["bundles/", "deltas/", "reports/"]
        immutable = listed.sorted { a, b in
            let (ia, ib) = (order.firstIndex { a.hasPrefix($0) } ?? 3, order.firstIndex { b.hasPrefix($0) } ?? 3)
            return ia == ib ? a < b : ia < ib
        }
    }

    /// Every file a manifest refers to.
    package static func listed(_ manifest: Manifest) -> Set<String> {
        manifest.listedFiles
    }

    /// `bundles/`, `deltas/` or `reports/` and one plain file name: what feedc writes, and
    /// what prune may delete.
    static func isPublishable(_ path: String) -> Bool {
        path.range(of: "^(bundles|deltas|reports)/[A-Za-z0-9_-][A-Za-z0-9._-]*$", options: .regularExpression) != nil
    }

    package static func contentType(_ path: String) -> String {
        if path.hasSuffix(".gz") { return "application/gzip" }
        if path.hasSuffix(".json") { return "application/json" }
        if path.hasSuffix(".sig") { return "text/plain; charset=utf-8" }
        return "application/octet-stream"
    }
}

/// The checksums a store may answer with: MD5 (a single PUT's ETag), the multipart ETag for a
/// part size, and SHA-256 (compared when the ETag says neither, e.g. with KMS encryption).
struct Checksums {
    let size: Int
    let md5: String
    let sha256: String
    let partSize: Int
    let multipartETag: String

    init(_ data: Data, partSize: Int) {
        size = data.count
        md5 = hexString(Insecure.MD5.hash(data: data))
        sha256 = hexString(SHA256.hash(data: data))
        self.partSize = partSize
        var partSums = Data()
        var count = 0
        for start in stride(from: 0, to: max(data.count, 1), by: partSize) {
            let end = min(data.count, start + partSize)
            partSums.append(contentsOf: Insecure.MD5.hash(data: data[data.startIndex + start..<data.startIndex + end]))
            count += 1
        }
        multipartETag = hexString(Insecure.MD5.hash(data: partSums)) + "-\(count)"
    }

    /// True when the ETag proves the content; nil when it cannot tell.
    func etagMatches(_ info: ObjectInfo) -> Bool? {
        guard info.size == size else { return false }
        return info.etag == md5 || info.etag == multipartETag ? true : nil
    }
}
