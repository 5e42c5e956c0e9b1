import BundleFormat
import Crypto
import FeedHTTP
import Foundation

/// A blocking GET for the build (a batch tool with nothing else to do meanwhile), over the
/// shared ``HTTPTransfer``: streamed into a file and hashed as it arrives, so memory stays at a
/// few buffers whatever the dump's size. Bounded in size (`maxBytes`: a longer body, or a longer
/// declared `Content-Length`, ends it), in idle time (no byte for `idle` seconds) and in total
/// time (`overall` seconds). Redirects to any server (a dump behind a CDN), at most 5.
enum StreamingGet {
    struct Limits: Sendable {
        var maxBytes: Int
        var idle: TimeInterval
        var overall: TimeInterval
    }

    struct Fetched {
        var status: Int
        /// Head fields by lower-case name.
        var headers: [String: String]
        /// SHA-256 of the body written (of a 2xx response; empty otherwise).
        var sha256: String
        var bytes: Int
    }

    static func run(_ url: URL, headers: [String: String], into file: URL, limits: Limits) throws(FetchError) -> Fetched {
        guard FileManager.default.createFile(atPath: file.path, contents: nil), let handle = try? FileHandle(forWritingTo: file) else {
            throw .io(path: file.path, reason: "cannot create the download file")
        }
        defer { try? handle.close() }
        let hasher = Hasher()
        let sink = TransferSink(file: handle, maxBytes: limits.maxBytes, observer: { hasher.state.update(bufferPointer: $0) })
        sink.path = file.path
        let transfer = HTTPTransfer(idle: limits.idle, overall: limits.overall, redirects: .anyServer, userAgent: "feedc")
        let response: HTTPResponse
        do {
            response = try transfer.runBlocking(url, headers: headers, into: sink)
        } catch {
            throw Self.fetchError(error, url: url.absoluteString, maxBytes: limits.maxBytes)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        let success = (200..<300).contains(response.status)
        return Fetched(status: response.status, headers: response.headers, sha256: success ? hexString(hasher.state.finalize()) : "", bytes: size)
    }

    /// The running hash, touched by the transfer's one thread, then read by the caller after it.
    /// `@unchecked Sendable` rather than a `Locked` box: swift-crypto's `SHA256` is not
    /// `Sendable`, and the transfer has ended (its thread joined) before the caller reads it.
    private final class Hasher: @unchecked Sendable {
        var state = SHA256()
    }

    /// A transfer's failure in the build's terms.
    static func fetchError(_ failure: HTTPFailure, url: String, maxBytes: Int) -> FetchError {
        switch failure {
        case .cancelled: .network(url: url, reason: "cancelled")
        case .local(let path, let reason): .io(path: path, reason: reason)
        case .overLimit(_, let declared?): .network(url: url, reason: "the server declares \(declared) bytes, more than `max_download_mb` allows (\(maxBytes))")
        case .overLimit: .network(url: url, reason: "more than `max_download_mb` allows (\(maxBytes) bytes)")
        case .refused(let reason): .network(url: url, reason: reason)
        case .timedOut(let seconds, true): .network(url: url, reason: "timed out: no data for \(Int(seconds)) s")
        case .timedOut(let seconds, false): .network(url: url, reason: "timed out: not done within \(Int(seconds)) s (`download_timeout`)")
        case .network(let reason): .network(url: url, reason: reason)
        }
    }
}
