import BundleFormat
import BundleWriter
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A source's dump on local disk, with a fingerprint of its bytes.
public struct FetchedSource: Sendable {
    public var config: SourceConfig
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
              let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey]) else {
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
    public let cache: URL
    public var timeout: TimeInterval = 120

    public init(cache: URL) {
        self.cache = cache
    }

    public func fetch(_ source: SourceConfig) throws(FetchError) -> FetchedSource {
        switch source.location {
        case .path(let url):
            return FetchedSource(config: source, local: url, fingerprint: try Self.fingerprint(of: url))
        case .remote(let url):
            return try fetchRemote(source, url)
        }
    }

    /// SHA-256 of a file, or of a folder's files (names and contents, in name order).
    public static func fingerprint(of url: URL) throws(FetchError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .io(path: url.path, reason: "no such file or folder")
        }
        if !isDirectory.boolValue {
            guard let data = FileManager.default.contents(atPath: url.path) else { throw .io(path: url.path, reason: "cannot read") }
            return sha256Hex(data)
        }
        let names = ((try? FileManager.default.subpathsOfDirectory(atPath: url.path)) ?? []).sorted()
        var listing = ""
        for name in names {
            guard let data = FileManager.default.contents(atPath: url.appendingPathComponent(name).path) else { continue }
            listing += "\(name)\t\(sha256Hex(data))\n"
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
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        if let etag = cached?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let modified = cached?.lastModified { request.setValue(modified, forHTTPHeaderField: "If-Modified-Since") }
        let (data, response) = try HTTPGet.run(request)
        if response.statusCode == 304, let cached {
            return FetchedSource(config: source, local: dump, fingerprint: cached.sha256)
        }
        guard (200..<300).contains(response.statusCode), let data else {
            throw .http(url: url.absoluteString, status: response.statusCode)
        }
        let entry = CacheEntry(url: url.absoluteString, etag: response.value(forHTTPHeaderField: "ETag"),
                               lastModified: response.value(forHTTPHeaderField: "Last-Modified"), sha256: sha256Hex(data))
        do {
            try writeAtomically(data, to: dump)
            try writeAtomically(try JSONEncoder().encode(entry), to: metaURL)
        } catch {
            throw .io(path: dump.path, reason: "\(error)")
        }
        return FetchedSource(config: source, local: dump, fingerprint: entry.sha256)
    }
}

/// A blocking GET, for a batch tool that has nothing else to do meanwhile.
enum HTTPGet {
    private final class Box: @unchecked Sendable {
        var data: Data?
        var response: URLResponse?
        var error: Error?
    }

    static func run(_ request: URLRequest) throws(FetchError) -> (Data?, HTTPURLResponse) {
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let session = URLSession(configuration: .ephemeral)
        let task = session.dataTask(with: request) { data, response, error in
            box.data = data
            box.response = response
            box.error = error
            done.signal()
        }
        task.resume()
        done.wait()
        session.finishTasksAndInvalidate()
        let url = request.url?.absoluteString ?? "?"
        if let error = box.error { throw .network(url: url, reason: error.localizedDescription) }
        guard let response = box.response as? HTTPURLResponse else { throw .network(url: url, reason: "no HTTP response") }
        return (box.data, response)
    }
}
