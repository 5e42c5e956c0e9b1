import BundleFormat
import BundleWriter
import FeedModel
import Foundation

/// A source's dump on local disk, with a fingerprint of its bytes.
public struct FetchedSource: Sendable {
    /// The source as configured.
    public var config: SourceConfig
    /// The dump on disk: the configured path, or the cached download.
    public var local: URL
    /// SHA-256 of the dump (of each file, for a folder).
    public var fingerprint: String

    /// The dump's size in bytes (a folder's files together, in subfolders too, links followed),
    /// to start the largest first.
    var bytes: Int {
        let url = local.resolvingSymlinksInPath()
        func size(_ file: URL) -> Int {
            guard let values = try? file.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey]), values.isRegularFile == true else { return 0 }
            return values.fileSize ?? 0
        }
        guard (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true,
            let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey])
        else {
            return size(url)
        }
        var total = 0
        for case let file as URL in files { total += size(file.resolvingSymlinksInPath()) }
        return total
    }
}

/// Brings each source's dump to local disk. Files and folders are used where they are; http(s)
/// dumps are fetched with conditional GET into `<output>/.cache/<bundle>/`, remembering the ETag
/// and Last-Modified, so an unchanged dump costs one 304 and is not parsed again.
public struct SourceFetcher: Sendable {
    /// The folder downloads are cached in, with their ETag and Last-Modified.
    public let cache: URL
    /// Seconds a download may stay idle before it fails.
    public var timeout: TimeInterval = 120

    /// A fetcher caching downloads in `cache`.
    public init(cache: URL) {
        self.cache = cache
    }

    /// The source's dump on disk, downloaded first when it is remote and changed.
    public func fetch(_ source: SourceConfig) throws(FetchError) -> FetchedSource {
        switch source.location {
        case .path(let url):
            return FetchedSource(config: source, local: url, fingerprint: try Self.fingerprint(of: url))
        case .remote(let url):
            return try fetchRemote(source, url)
        }
    }

    /// The dump the last download of `source` left in the cache, nil when there is none (what
    /// `feedc diff` compiles a pipeline's `url:` source from: nothing is downloaded).
    public func cached(_ source: SourceConfig) -> URL? {
        guard case .remote(let url) = source.location else { return nil }
        let dump = cache.appendingPathComponent("\(source.id).dump")
        let meta = cache.appendingPathComponent("\(source.id).json")
        guard let entry = FileManager.default.contents(atPath: meta.path).flatMap({ try? JSONDecoder().decode(CacheEntry.self, from: $0) }),
            entry.url == url.absoluteString, FileManager.default.fileExists(atPath: dump.path)
        else { return nil }
        return dump
    }

    /// SHA-256 of a file, or of a folder's files (names and contents, in name order).
    public static func fingerprint(of given: URL) throws(FetchError) -> String {
        let url = given.resolvingSymlinksInPath()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .io(path: url.path, reason: "no such file or folder")
        }
        // Hashed 1 MiB at a time: a dump of any size in bounded memory.
        if !isDirectory.boolValue {
            guard let digest = try? sha256Hex(ofFile: url) else { throw .io(path: url.path, reason: "cannot read") }
            return digest
        }
        let names = ((try? FileManager.default.subpathsOfDirectory(atPath: url.path)) ?? []).sorted()
        var listing = ""
        for name in names {
            var isFolder: ObjCBool = false
            let file = url.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder), !isFolder.boolValue,
                let digest = try? sha256Hex(ofFile: file)
            else { continue }
            listing += "\(name)\t\(digest)\n"
        }
        return sha256Hex(Data(listing.utf8))
    }

    private struct CacheEntry: Codable {
        var url: String
        var etag: String?
        var lastModified: String?
        var sha256: String
    }

    private func fetchRemote(_ source: SourceConfig, _ url: URL) throws(FetchError) -> FetchedSource {
        let dump = cache.appendingPathComponent("\(source.id).dump")
        let metaURL = cache.appendingPathComponent("\(source.id).json")
        let cached = FileManager.default.contents(atPath: metaURL.path).flatMap { try? JSONDecoder().decode(CacheEntry.self, from: $0) }
            .flatMap { $0.url == url.absoluteString && FileManager.default.fileExists(atPath: dump.path) ? $0 : nil }
        var headers: [String: String] = [:]
        if let etag = cached?.etag { headers["If-None-Match"] = etag }
        if let modified = cached?.lastModified { headers["If-Modified-Since"] = modified }
        // Streamed into a file beside the cached dump, hashed as it arrives; renamed over the
        // dump only once whole, so a failed download leaves the previous one in place.
        do {
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        } catch {
            throw .io(path: cache.path, reason: "\(error)")
        }
        let partial = cache.appendingPathComponent("\(source.id).dump.part")
        defer { try? FileManager.default.removeItem(at: partial) }
        let limits = StreamingGet.Limits(maxBytes: source.maxDownloadBytes, idle: timeout, overall: source.downloadDeadline)
        let fetched = try StreamingGet.run(url, headers: headers, into: partial, limits: limits)
        if fetched.status == 304, let cached {
            return FetchedSource(config: source, local: dump, fingerprint: cached.sha256)
        }
        guard (200..<300).contains(fetched.status) else {
            throw .http(url: url.absoluteString, status: fetched.status)
        }
        let entry = CacheEntry(
            url: url.absoluteString, etag: fetched.headers["etag"],
            lastModified: fetched.headers["last-modified"], sha256: fetched.sha256)
        do {
            // The metadata goes first: a run that dies between the two renames finds a cache
            // entry whose SHA-256 is not the old dump's, and so does not trust an ETag for it.
            try? FileManager.default.removeItem(at: metaURL)
            guard rename(partial.path, dump.path) == 0 else { throw FetchError.io(path: dump.path, reason: String(cString: strerror(errno))) }
            try writeAtomically(try StableJSON.encoder(oneLine: true).encode(entry), to: metaURL)
        } catch {
            throw .io(path: dump.path, reason: "\(error)")
        }
        return FetchedSource(config: source, local: dump, fingerprint: entry.sha256)
    }
}
