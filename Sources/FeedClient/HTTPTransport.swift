import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP GETs for the client, async and cancellable: small bodies in memory, large ones streamed
/// to a file so a cut connection (or a cancelled task) leaves what arrived, to be resumed with a
/// Range request.
///
/// Every transfer is bounded (docs/update-protocol.md, "Limits"): at most `maxBytes` of body
/// (more ends it at once), no more than `timeout` seconds without a byte, and done within
/// `timeout` plus one second per 64 KiB of `maxBytes` in all. A watchdog checks both 5 times a
/// second and cancels the transfer; nothing spins meanwhile.
struct HTTPTransport: Sendable {
    var timeout: TimeInterval = 60

    /// The overall deadline of a transfer of at most `bytes`.
    func deadline(forBytes bytes: Int) -> TimeInterval { timeout + Double(bytes) / 65_536 }

    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    /// A body of at most `maxBytes`, in memory.
    func get(_ url: URL, headers: [String: String] = [:], maxBytes: Int) async throws(ClientError) -> Response {
        try await run(url, headers: headers, sink: StreamSink(file: nil, progress: nil, maxBytes: maxBytes))
    }

    /// Downloads into `file`, appending when it already holds the first bytes (Range request),
    /// reporting the bytes the file holds as they arrive. Returns the final status. A cut or a
    /// cancellation leaves the bytes received so far in `file`.
    /// The file may hold at most `maxBytes` in the end: a longer body ends the transfer.
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
        let sink = StreamSink(file: handle, progress: progress, maxBytes: maxBytes)
        sink.resumeFrom = existing
        sink.path = file.path
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
        let (idle, overall) = (timeout, deadline(forBytes: sink.maxBytes))
        let watchdog = Task {
            let start = ContinuousClock.now
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(200))
                if let reason = sink.overdue(since: start, idle: idle, overall: overall) {
                    sink.abort(task, reason: reason)
                    return
                }
            }
        }
        defer { watchdog.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                sink.start(task, continuation)
            }
        } onCancel: {
            sink.cancel(task)
        }
        if Task.isCancelled || sink.cancelled { throw .cancelled }
        if let local = sink.localError { throw .local(path: sink.path ?? url.absoluteString, reason: local) }
        if sink.overLimit { throw .corruptDownload(file: url.absoluteString, reason: "the server sent more than the \(sink.maxBytes) bytes declared") }
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
    /// The most the body (or the file, counting what it held) may reach.
    let maxBytes: Int
    var resumeFrom = 0
    /// The file written, for errors.
    var path: String?
    /// Writing the file failed (a full disk): a local error, not the network's.
    var localError: String?
    /// The server sent more than `maxBytes`.
    var overLimit = false
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
    private var lastByte = ContinuousClock.now

    /// Whether `start` started the task (read once the continuation has been resumed).
    var started: Bool {
        lock.lock()
        defer { lock.unlock() }
        return running
    }

    init(file: FileHandle?, progress: (@Sendable (Int) -> Void)?, maxBytes: Int) {
        self.file = file
        self.progress = progress
        self.maxBytes = maxBytes
    }

    /// Why the transfer must end now, nil while it may go on: `idle` seconds without a byte, or
    /// `overall` seconds since `start`.
    func overdue(since start: ContinuousClock.Instant, idle: TimeInterval, overall: TimeInterval) -> String? {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return nil }
        let now = ContinuousClock.now
        if now - lastByte > .seconds(idle) { return "no data for \(Int(idle)) s" }
        if now - start > .seconds(overall) { return "not done within \(Int(overall.rounded(.up))) s" }
        return nil
    }

    /// Ends the transfer for `reason` (reported as a timeout).
    func abort(_ task: URLSessionTask, reason: String) {
        lock.lock()
        defer { lock.unlock() }
        guard running && !finished else { return }
        error = "timed out: \(reason)"
        task.cancel()
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
        touch()
        // A body declared longer than allowed is refused before it is read.
        if let length = self.response?.value(forHTTPHeaderField: "Content-Length").flatMap(Int.init),
           (200..<300).contains(self.response?.statusCode ?? 0),
           length > maxBytes - (self.response?.statusCode == 206 ? resumeFrom : 0) {
            overLimit = true
            completionHandler(.cancel)
            return
        }
        if let file {
            // 206: the server resumes; anything else: start the file over. Some S3 servers
            // (rclone's) answer a range with 200 and a Content-Range: that resumes too.
            let range = self.response?.value(forHTTPHeaderField: "Content-Range") ?? ""
            if self.response?.statusCode == 206 && !range.hasPrefix("bytes \(resumeFrom)-") {
                // A resumption at another offset than asked would splice the file wrongly.
                lock.lock()
                error = "the server resumed at another offset (Content-Range: \(range))"
                lock.unlock()
                try? file.truncate(atOffset: 0)
                completionHandler(.cancel)
                return
            }
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
        touch()
        guard offset + received <= maxBytes else {
            overLimit = true
            dataTask.cancel()
            return
        }
        if let file, let status = response?.statusCode, (200..<300).contains(status) {
            do {
                try file.write(contentsOf: data)
            } catch {
                localError = "cannot write the download: \(error.localizedDescription)"
                dataTask.cancel()
                return
            }
            progress?(offset + received)
        } else {
            body.append(data)
        }
    }

    private func touch() {
        lock.lock()
        lastByte = ContinuousClock.now
        lock.unlock()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        // Finished already: cancelled before it started, and the awaiting task may be reading.
        if finished {
            lock.unlock()
            return
        }
        if let error {
            let ownCancel = overLimit || localError != nil || self.error != nil
            if (error as? URLError)?.code == .cancelled, !ownCancel { cancelled = true } else if self.error == nil { self.error = error.localizedDescription }
        }
        finished = true
        let continuation = self.continuation
        self.continuation = nil
        lock.unlock()
        continuation?.resume()
    }
}
