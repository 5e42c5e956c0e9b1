import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP GETs for the client, async and cancellable: small bodies in memory, large ones streamed
/// to a file so a cut connection (or a cancelled task) leaves what arrived, to be resumed with a
/// Range request.
struct HTTPTransport: Sendable {
    var timeout: TimeInterval = 60

    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    func get(_ url: URL, headers: [String: String] = [:]) async throws(ClientError) -> Response {
        try await run(url, headers: headers, sink: StreamSink(file: nil, progress: nil))
    }

    /// Downloads into `file`, appending when it already holds the first bytes (Range request),
    /// reporting the bytes the file holds as they arrive. Returns the final status. A cut or a
    /// cancellation leaves the bytes received so far in `file`.
    func download(_ url: URL, to file: URL, progress: (@Sendable (Int) -> Void)? = nil) async throws(ClientError) -> Int {
        var headers: [String: String] = [:]
        let existing = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        if existing > 0 {
            headers["Range"] = "bytes=\(existing)-"
        } else if !FileManager.default.createFile(atPath: file.path, contents: nil) {
            throw .local(path: file.path, reason: "cannot create the file (disk full?)")
        }
        guard let handle = try? FileHandle(forWritingTo: file) else { throw .local(path: file.path, reason: "cannot write") }
        defer { try? handle.close() }
        let sink = StreamSink(file: handle, progress: progress)
        sink.resumeFrom = existing
        return try await run(url, headers: headers, sink: sink).status
    }

    private func run(_ url: URL, headers: [String: String], sink: StreamSink) async throws(ClientError) -> Response {
        if Task.isCancelled { throw .cancelled }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        // The bytes as stored: checksums are of the files, not of a re-encoded transfer.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let configuration = URLSessionConfiguration.ephemeral
        // No cache (nothing here is read twice anyway). On Linux, FoundationNetworking looks a
        // data task up in the cache on another queue before the task has a protocol, and a
        // cancel() landing then reports its failure after the task has left the session, which
        // is a fatalError ("Trying to access a behaviour for a task that in not in the
        // registry"). See `StreamSink.cancel` for the other half.
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration, delegate: sink, delegateQueue: queue)
        // A task never started (the caller was cancelled first) would keep a session that only
        // finishes its tasks alive for ever: that one is cancelled with the session.
        defer { if sink.started { session.finishTasksAndInvalidate() } else { session.invalidateAndCancel() } }
        let task = session.dataTask(with: request)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                sink.start(task, continuation)
            }
        } onCancel: {
            sink.cancel(task)
        }
        if Task.isCancelled || sink.cancelled { throw .cancelled }
        if let error = sink.error { throw .offline(url: url.absoluteString, reason: error) }
        guard let response = sink.response else { throw .offline(url: url.absoluteString, reason: "no HTTP response") }
        var fields: [String: String] = [:]
        for (key, value) in response.allHeaderFields { fields["\(key)".lowercased()] = "\(value)" }
        if sink.file != nil, let expected = fields["content-length"].flatMap(Int.init), sink.received < expected,
           (200..<300).contains(response.statusCode) {
            throw .offline(url: url.absoluteString, reason: "connection closed after \(sink.received) of \(expected) bytes")
        }
        return Response(status: response.statusCode, headers: fields, body: sink.body)
    }
}

/// Receives a response's bytes, into memory or a file.
///
/// `@unchecked Sendable`: URLSession calls the delegate methods one at a time on its delegate
/// queue (an OperationQueue of width 1, see `run`), and the awaiting task reads the fields only
/// after `didCompleteWithError` has resumed it. What a cancellation touches from another thread
/// (`start`, `cancel`, the end of `didCompleteWithError`) is under `lock`.
private final class StreamSink: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let file: FileHandle?
    let progress: (@Sendable (Int) -> Void)?
    var resumeFrom = 0
    var response: HTTPURLResponse?
    var body = Data()
    var received = 0
    var error: String?
    var cancelled = false
    private var offset = 0
    private let lock = NSLock()
    // Under `lock`:
    private var continuation: CheckedContinuation<Void, Never>?
    private var running = false
    private var finished = false
    private var cancelRequested = false

    /// Whether `start` started the task (read once the continuation has been resumed).
    var started: Bool {
        lock.lock()
        defer { lock.unlock() }
        return running
    }

    init(file: FileHandle?, progress: (@Sendable (Int) -> Void)?) {
        self.file = file
        self.progress = progress
    }

    /// Starts `task`, to resume `continuation` when it completes; or, when the caller was
    /// cancelled already, resumes it at once without starting anything.
    func start(_ task: URLSessionTask, _ continuation: CheckedContinuation<Void, Never>) {
        lock.lock()
        defer { lock.unlock() }
        if cancelRequested {
            finished = true
            cancelled = true
            continuation.resume()
            return
        }
        self.continuation = continuation
        running = true
        task.resume()
    }

    /// Cancels `task` if it runs and has not completed.
    ///
    /// Only under `lock`, which `didCompleteWithError` also takes: on Linux a task that has
    /// completed leaves its session just after that delegate call returns, and a cancel() of a
    /// task that has left is a fatalError in FoundationNetworking. Holding the lock keeps the
    /// completion waiting until cancel() has queued its work, which then runs first. (Measured
    /// with 1,000 GETs cancelled 0 to 0.5 ms after they start: the crash came within a few
    /// hundred without this lock or without `urlCache = nil`; none in 10,000 with both.)
    func cancel(_ task: URLSessionTask) {
        lock.lock()
        defer { lock.unlock() }
        cancelRequested = true
        if running && !finished { task.cancel() }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        self.response = response as? HTTPURLResponse
        if let file {
            // 206: the server resumes; anything else: start the file over. Some S3 servers
            // (rclone's) answer a range with 200 and a Content-Range: that resumes too.
            let range = self.response?.value(forHTTPHeaderField: "Content-Range") ?? ""
            if self.response?.statusCode == 206 || (resumeFrom > 0 && range.hasPrefix("bytes \(resumeFrom)-")) {
                _ = try? file.seekToEnd()
                offset = resumeFrom
            } else {
                try? file.truncate(atOffset: 0)
                try? file.seek(toOffset: 0)
            }
            progress?(offset)
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        received += data.count
        if let file, let status = response?.statusCode, (200..<300).contains(status) {
            do {
                try file.write(contentsOf: data)
            } catch {
                self.error = "cannot write the download: \(error.localizedDescription)"
                dataTask.cancel()
                return
            }
            progress?(offset + received)
        } else {
            body.append(data)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        // Finished already: cancelled before it started, and the awaiting task may be reading.
        if finished {
            lock.unlock()
            return
        }
        if let error {
            if (error as? URLError)?.code == .cancelled, self.error == nil { cancelled = true } else if self.error == nil { self.error = error.localizedDescription }
        }
        finished = true
        let continuation = self.continuation
        self.continuation = nil
        lock.unlock()
        continuation?.resume()
    }
}
