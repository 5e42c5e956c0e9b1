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
/// `timeout` plus one second per 64 KiB of its declared size in all. Redirects are followed only
/// on the request's own server (the manifest's), at most 5. The body of a status other than 2xx
/// is never read (no caller uses it).
///
/// `http` URLs on Linux go over a socket of their own (``SocketExchange``): FoundationNetworking's
/// URLSession keeps a write source armed on a socket that waits for a response, spinning a core
/// for as long as a slow server takes, and queues what a fast server sends for the delegate
/// without bound (1 GB of a 3 GB body before a cancellation lands). Elsewhere (`https`, Apple
/// platforms) URLSession, with a watchdog that checks both limits 5 times a second and cancels
/// the transfer.
struct HTTPTransport: Sendable {
    var timeout: TimeInterval = 30

    /// The overall deadline of a request declaring `bytes`: the idle timeout and one second per
    /// 64 KiB.
    func deadline(forBytes bytes: Int) -> TimeInterval { timeout + Double(max(bytes, 0)) / 65_536 }

    /// Whether `a` and `b` are on one server: the same scheme, host and port (the port written or
    /// the scheme's default), as docs/update-protocol.md ("Limits") defines it for redirects.
    static func sameServer(_ a: URL, _ b: URL) -> Bool {
        func port(_ url: URL) -> Int? { url.port ?? ["http": 80, "https": 443][url.scheme?.lowercased() ?? ""] }
        return a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased() && port(a) == port(b)
    }

    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    /// A body of at most `maxBytes`, in memory. `declared`: the size the manifest declares, which
    /// sets the deadline (nil: `maxBytes`; the manifest and its signature declare none, 0).
    func get(_ url: URL, headers: [String: String] = [:], maxBytes: Int, declared: Int? = nil) async throws(ClientError) -> Response {
        try await run(url, headers: headers, sink: StreamSink(file: nil, progress: nil, maxBytes: maxBytes), declared: declared ?? maxBytes)
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
        let sink = StreamSink(file: handle, progress: progress, maxBytes: maxBytes)
        sink.resumeFrom = existing
        sink.path = file.path
        return try await run(url, headers: headers, sink: sink, declared: maxBytes - existing).status
    }

    private func run(_ url: URL, headers: [String: String], sink: StreamSink, declared: Int) async throws(ClientError) -> Response {
        if Task.isCancelled { throw .cancelled }
        let (idle, overall) = (timeout, deadline(forBytes: declared))
        #if canImport(FoundationNetworking)
        if url.scheme?.lowercased() == "http" {
            let exchange = SocketExchange(url: url, headers: headers, sink: sink, idle: idle, overall: overall)
            await withTaskCancellationHandler {
                await exchange.run()
            } onCancel: {
                exchange.cancel()
            }
            return try outcome(of: sink, url)
        }
        #endif
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
        return try outcome(of: sink, url)
    }

    /// What the transfer `sink` received came to: the response, or why there is none.
    private func outcome(of sink: StreamSink, _ url: URL) throws(ClientError) -> Response {
        if Task.isCancelled || sink.cancelled { throw .cancelled }
        if let local = sink.localError { throw .local(path: sink.path ?? url.absoluteString, reason: local) }
        if sink.overLimit { throw .corruptDownload(file: url.absoluteString, reason: "more than the \(sink.maxBytes) bytes the manifest lists") }
        if let refusal = sink.refusal { throw .badManifest(refusal) }
        if sink.timedOut, let error = sink.error { throw .offline(url: url.absoluteString, reason: error) }
        let response = sink.response
        var fields: [String: String] = [:]
        for (key, value) in response?.allHeaderFields ?? [:] { fields["\(key)".lowercased()] = "\(value)" }
        // Shorter than announced: a cut (a full download keeps what arrived, to be resumed).
        if let response, !sink.headRefused, (200..<300).contains(response.statusCode),
           let expected = fields["content-length"].flatMap(Int.init), sink.received < expected {
            throw .offline(url: url.absoluteString, reason: "connection closed after \(sink.received) of \(expected) bytes")
        }
        if let error = sink.error { throw .offline(url: url.absoluteString, reason: error) }
        guard let response else { throw .offline(url: url.absoluteString, reason: "no HTTP response") }
        return Response(status: response.statusCode, headers: fields, body: sink.body)
    }
}

/// Receives a response's bytes, into memory or a file, from URLSession (as its delegate) or from
/// a ``SocketExchange`` (through `accept`).
///
/// `@unchecked Sendable`: URLSession calls the delegate methods one at a time on its delegate
/// queue (an OperationQueue of width 1, see `run`), a socket exchange from its one thread, and
/// the awaiting task reads the fields only after the transfer has resumed it. What a
/// cancellation touches from another thread (`start`, `cancel`, the end of
/// `didCompleteWithError`) is under `lock`.
final class StreamSink: NSObject, URLSessionDataDelegate, @unchecked Sendable {
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
    /// A redirect off the request's server, refused.
    var refusal: String?
    /// `error` is a timeout (idle or deadline): reported as such even when the body was cut short.
    var timedOut = false
    var response: HTTPURLResponse?
    var body = Data()
    var received = 0
    var error: String?
    var cancelled = false
    private var offset = 0
    private var redirects = 0
    /// `accept(_:)` refused the head: no byte of the body is taken.
    private(set) var headRefused = false
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

    /// The words of a timeout, as both clients write them: `seconds` of the deadline, or of the
    /// idle timeout `withoutData`.
    static func timeoutReason(after seconds: TimeInterval, withoutData: Bool = false) -> String {
        "timed out after \(String(format: "%.0f", seconds)) s" + (withoutData ? " without data" : "")
    }

    /// Why the transfer must end now, nil while it may go on: `idle` seconds without a byte, or
    /// `overall` seconds since `start`.
    func overdue(since start: ContinuousClock.Instant, idle: TimeInterval, overall: TimeInterval) -> String? {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return nil }
        let now = ContinuousClock.now
        if now - start > .seconds(overall) { return Self.timeoutReason(after: overall) }
        if now - lastByte > .seconds(idle) { return Self.timeoutReason(after: idle, withoutData: true) }
        return nil
    }

    /// Ends the transfer for `reason` (reported as a timeout).
    func abort(_ task: URLSessionTask, reason: String) {
        lock.lock()
        defer { lock.unlock() }
        guard running && !finished else { return }
        error = reason
        timedOut = true
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

    /// The response's head: false when its body is not to be read (declared longer than
    /// allowed, resumed at another offset than asked, or a status other than 2xx, whose body no
    /// caller uses).
    func accept(_ response: HTTPURLResponse) -> Bool {
        self.response = response
        touch()
        headRefused = !acceptable(response)
        return !headRefused
    }

    private func acceptable(_ response: HTTPURLResponse) -> Bool {
        let status = response.statusCode
        guard (200..<300).contains(status) else { return false }
        // A body declared longer than allowed is refused before it is read.
        if let length = response.value(forHTTPHeaderField: "Content-Length").flatMap(Int.init),
           length > maxBytes - (status == 206 ? resumeFrom : 0) {
            overLimit = true
            return false
        }
        if let file {
            // 206: the server resumes; anything else: start the file over. Some S3 servers
            // (rclone's) answer a range with 200 and a Content-Range: that resumes too.
            let range = response.value(forHTTPHeaderField: "Content-Range") ?? ""
            if status == 206 && !range.hasPrefix("bytes \(resumeFrom)-") {
                // A resumption at another offset than asked would splice the file wrongly.
                lock.lock()
                error = "the server resumed at another offset (Content-Range: \(range))"
                lock.unlock()
                try? file.truncate(atOffset: 0)
                return false
            }
            if status == 206 || (resumeFrom > 0 && range.hasPrefix("bytes \(resumeFrom)-")) {
                _ = try? file.seekToEnd()
                offset = resumeFrom
            } else {
                try? file.truncate(atOffset: 0)
                try? file.seek(toOffset: 0)
            }
            progress?(offset)
        }
        return true
    }

    /// A piece of the body: false when the transfer must end (more than allowed arrived, or the
    /// file cannot be written).
    func accept(_ data: Data) -> Bool {
        guard !headRefused else { return false }
        received += data.count
        touch()
        guard offset + received <= maxBytes else {
            overLimit = true
            return false
        }
        guard let file else {
            body.append(data)
            return true
        }
        if let failure = append(data, to: file.fileDescriptor) {
            localError = "cannot write: \(failure)"
            return false
        }
        progress?(offset + received)
        return true
    }

    /// Writes `data` whole to `descriptor`; the system's words when it cannot (a full disk, a
    /// file size limit).
    private func append(_ data: Data, to descriptor: Int32) -> String? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> String? in
            var done = 0
            while done < raw.count {
                let count = write(descriptor, raw.baseAddress! + done, raw.count - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return String(cString: strerror(count < 0 ? errno : EIO)) }
                done += count
            }
            return nil
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let response = response as? HTTPURLResponse else {
            completionHandler(.cancel)
            return
        }
        guard accept(response) else {
            // FoundationNetworking reads on after `.cancel` alone (a 404's body to its end). The
            // task waits for this handler, so it cannot have completed: the cancel is safe.
            dataTask.cancel()
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if !accept(data) { dataTask.cancel() }
    }

    /// Redirects stay on the request's server (the manifest's), at most 5 of them.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        redirects += 1
        guard let from = task.originalRequest?.url, let to = request.url, HTTPTransport.sameServer(from, to), redirects <= 5 else {
            refusal = redirects > 5 ? "more than 5 redirects" : "a redirect to `\(request.url?.absoluteString ?? "")` is not on the manifest's server"
            completionHandler(nil)
            return
        }
        completionHandler(request)
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
            // A cancel of our own (a limit, a refused head or body, a timeout) is no failure of its own.
            let ownCancel = overLimit || localError != nil || self.error != nil || refusal != nil
                || (response.map { !(200..<300).contains($0.statusCode) } ?? false)
            if (error as? URLError)?.code == .cancelled {
                if !ownCancel { cancelled = true }
            } else if self.error == nil {
                self.error = error.localizedDescription
            }
        }
        finished = true
        let continuation = self.continuation
        self.continuation = nil
        lock.unlock()
        continuation?.resume()
    }
}
