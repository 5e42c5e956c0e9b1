import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Blocking HTTP GETs for the client: small bodies in memory, large ones streamed to a file so a
/// cut connection leaves what arrived, to be resumed with a Range request.
struct HTTPTransport: Sendable {
    var timeout: TimeInterval = 60

    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    func get(_ url: URL, headers: [String: String] = [:]) throws(ClientError) -> Response {
        let sink = StreamSink(file: nil)
        return try run(url, headers: headers, sink: sink)
    }

    /// Downloads into `file`, appending when it already holds the first bytes (Range request).
    /// Returns the final status. A cut leaves the bytes received so far in `file`.
    func download(_ url: URL, to file: URL) throws(ClientError) -> Int {
        var headers: [String: String] = [:]
        let existing = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        if existing > 0 { headers["Range"] = "bytes=\(existing)-" } else {
            FileManager.default.createFile(atPath: file.path, contents: nil)
        }
        guard let handle = try? FileHandle(forWritingTo: file) else { throw .local(path: file.path, reason: "cannot write") }
        defer { try? handle.close() }
        let sink = StreamSink(file: handle)
        sink.resumeFrom = existing
        let response = try run(url, headers: headers, sink: sink)
        return response.status
    }

    private func run(_ url: URL, headers: [String: String], sink: StreamSink) throws(ClientError) -> Response {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        // The bytes as stored: checksums are of the files, not of a re-encoded transfer.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let session = URLSession(configuration: .ephemeral, delegate: sink, delegateQueue: nil)
        session.dataTask(with: request).resume()
        sink.done.wait()
        session.finishTasksAndInvalidate()
        if let error = sink.error { throw .network(url: url.absoluteString, reason: error) }
        guard let response = sink.response else { throw .network(url: url.absoluteString, reason: "no HTTP response") }
        var fields: [String: String] = [:]
        for (key, value) in response.allHeaderFields { fields["\(key)".lowercased()] = "\(value)" }
        if sink.file != nil, let expected = fields["content-length"].flatMap(Int.init), sink.received < expected,
           (200..<300).contains(response.statusCode) {
            throw .network(url: url.absoluteString, reason: "connection closed after \(sink.received) of \(expected) bytes")
        }
        return Response(status: response.statusCode, headers: fields, body: sink.body)
    }
}

/// Receives a response's bytes, into memory or a file.
private final class StreamSink: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let file: FileHandle?
    var resumeFrom = 0
    let done = DispatchSemaphore(value: 0)
    var response: HTTPURLResponse?
    var body = Data()
    var received = 0
    var error: String?

    init(file: FileHandle?) {
        self.file = file
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        self.response = response as? HTTPURLResponse
        if let file {
            // 206: the server resumes; anything else: start the file over. Some S3 servers
            // (rclone's) answer a range with 200 and a Content-Range: that resumes too.
            let range = self.response?.value(forHTTPHeaderField: "Content-Range") ?? ""
            if self.response?.statusCode == 206 || (resumeFrom > 0 && range.hasPrefix("bytes \(resumeFrom)-")) {
                try? file.seekToEnd()
            } else {
                try? file.truncate(atOffset: 0)
                try? file.seek(toOffset: 0)
            }
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        received += data.count
        if let file, let status = response?.statusCode, (200..<300).contains(status) {
            try? file.write(contentsOf: data)
        } else {
            body.append(data)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        if let error { self.error = error.localizedDescription }
        done.signal()
    }
}
