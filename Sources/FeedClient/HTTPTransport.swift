import FeedHTTP
import Foundation

/// HTTP GETs for the client, async and cancellable, over the shared ``HTTPTransfer``: small
/// bodies in memory, large ones streamed to a file so a cut connection (or a cancelled task)
/// leaves what arrived, to be resumed with a Range request.
///
/// Every transfer is bounded (docs/update-protocol.md, "Limits"): at most `maxBytes` of body
/// (more ends it at once), no more than `timeout` seconds without a byte, and done within
/// `timeout` plus one second per 64 KiB of its declared size in all. Redirects are followed only
/// on the request's own server (the manifest's), at most 5.
struct HTTPTransport: Sendable {
    var timeout: TimeInterval = 30

    /// The overall deadline of a request declaring `bytes`: the idle timeout and one second per
    /// 64 KiB.
    func deadline(forBytes bytes: Int) -> TimeInterval { timeout + Double(max(bytes, 0)) / 65_536 }

    typealias Response = HTTPResponse

    /// A body of at most `maxBytes`, in memory. `declared`: the size the manifest declares, which
    /// sets the deadline (nil: `maxBytes`; the manifest and its signature declare none, 0).
    /// `progress` hears the bytes received as they arrive.
    func get(
        _ url: URL, headers: [String: String] = [:], maxBytes: Int, declared: Int? = nil,
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws(ClientError) -> Response {
        try await run(url, headers: headers, sink: TransferSink(file: nil, maxBytes: maxBytes, progress: progress), declared: declared ?? maxBytes)
    }

    /// Downloads into `file`, appending when it already holds the first bytes (Range request),
    /// reporting the bytes the file holds as they arrive. Returns the final status. A cut or a
    /// cancellation leaves the bytes received so far in `file`.
    /// The file may hold at most `maxBytes` in the end: a longer body ends the transfer. The
    /// deadline counts the bytes still missing.
    func download(_ url: URL, to file: URL, maxBytes: Int, progress: (@Sendable (Int) -> Void)? = nil) async throws(ClientError) -> Int {
        var headers: [String: String] = [:]
        let existing = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        if existing > 0 {
            headers["Range"] = "bytes=\(existing)-"
        } else if !FileManager.default.createFile(atPath: file.path, contents: nil) {
            throw .local(path: file.path, reason: "cannot create the file (disk full?)")
        }
        guard let handle = try? FileHandle(forWritingTo: file) else { throw .local(path: file.path, reason: "cannot write") }
        defer { try? handle.close() }
        let sink = TransferSink(file: handle, maxBytes: maxBytes, progress: progress)
        sink.resumeFrom = existing
        sink.path = file.path
        return try await run(url, headers: headers, sink: sink, declared: maxBytes - existing).status
    }

    private func run(_ url: URL, headers: [String: String], sink: TransferSink, declared: Int) async throws(ClientError) -> Response {
        let transfer = HTTPTransfer(idle: timeout, overall: deadline(forBytes: declared), redirects: .sameServer, userAgent: "feedc-swift-client")
        do {
            return try await transfer.run(url, headers: headers, into: sink)
        } catch {
            throw Self.clientError(error, url)
        }
    }

    /// A transfer's failure in the client's terms.
    static func clientError(_ failure: HTTPFailure, _ url: URL) -> ClientError {
        switch failure {
        case .cancelled: .cancelled
        case .local(let path, let reason): .local(path: path, reason: reason)
        case .overLimit(let maxBytes, _): .corruptDownload(file: url.absoluteString, reason: "more than the \(maxBytes) bytes the manifest lists")
        case .refused(let reason): .badManifest(reason)
        case .timedOut(let seconds, let idle): .offline(url: url.absoluteString, reason: HTTPFailure.timeoutWords(seconds: seconds, idle: idle))
        case .network(let reason): .offline(url: url.absoluteString, reason: reason)
        }
    }
}
