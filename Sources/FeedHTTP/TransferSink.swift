import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Receives a response's bytes, into memory or a file, from URLSession (as its delegate) or from
/// a ``SocketExchange`` (through `accept`), for one ``HTTPTransfer``: at most `maxBytes` of
/// body (more, or a longer declared `Content-Length`, ends the transfer); a file resumed at
/// `resumeFrom` (a Range request's answer checked against it); each piece shown to `observer`
/// (a hash computed as the body arrives) and its running total to `progress`. The body of a
/// status other than 2xx is read only into memory, and only with `keepsErrorBodies`.
///
/// `@unchecked Sendable`: URLSession calls the delegate methods one at a time on its delegate
/// queue (an OperationQueue of width 1, see `HTTPTransfer`), a socket exchange from its one thread, and
/// the awaiting task reads the fields only after the transfer has resumed it. What a
/// cancellation touches from another thread (`start`, `cancel`, the end of
/// `didCompleteWithError`) is under `lock`.
package final class TransferSink: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let file: FileHandle?
    let progress: (@Sendable (Int) -> Void)?
    let observer: ((UnsafeRawBufferPointer) -> Void)?
    /// The most the body (or the file, counting what it held) may reach.
    package let maxBytes: Int
    /// Whether the body of a status other than 2xx is read too (into memory only: an S3 error's
    /// XML names its code); otherwise it never is.
    package let keepsErrorBodies: Bool
    /// The bytes `file` held before (a Range request asks for the rest).
    package var resumeFrom = 0
    /// The file written, for errors.
    package var path: String?
    /// Set by the transfer: which redirects URLSession may follow.
    var redirectPolicy = HTTPTransfer.Redirects.sameServer
    /// Set by the transfer: the response has no body whatever its head declares (a HEAD's).
    var bodyless = false
    /// A redirect a ``SocketExchange`` cannot follow itself (to `https`), for URLSession.
    var handoff: URL?
    /// The `Content-Length` of a head refused for being over `maxBytes`.
    var declaredOverLimit: Int?
    /// Writing the file failed (a full disk): a local error, not the network's.
    var localError: String?
    /// The server sent more than `maxBytes`.
    var overLimit = false
    /// A redirect off the request's server, refused.
    var refusal: String?
    /// `error` is a timeout (idle or deadline): reported as such even when the body was cut short.
    var timeout: (seconds: TimeInterval, idle: Bool)?
    var response: HTTPURLResponse?
    var body = Data()
    var received = 0
    var error: String?
    var cancelled = false
    private var offset = 0
    /// Redirects followed so far (a handoff from a ``SocketExchange`` brings its count).
    var redirects = 0
    /// `accept(_:)` refused the head: no byte of the body is taken.
    private(set) var headRefused = false
    private let lock = NSLock()
    // Under `lock`:
    private var onFinish: (@Sendable () -> Void)?
    private var running = false
    private var finished = false
    private var cancelRequested = false
    private var lastByte = ContinuousClock.now

    /// Whether the transfer has ended.
    var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return finished
    }

    /// Whether `start` started the task (read once the continuation has been resumed).
    var started: Bool {
        lock.lock()
        defer { lock.unlock() }
        return running
    }

    /// A sink writing into `file` (nil: the body kept in memory, as `HTTPResponse.body`);
    /// `keepsErrorBodies` (in memory only) reads the body of a status other than 2xx as well.
    package init(
        file: FileHandle?, maxBytes: Int, keepsErrorBodies: Bool = false, progress: (@Sendable (Int) -> Void)? = nil,
        observer: ((UnsafeRawBufferPointer) -> Void)? = nil
    ) {
        self.file = file
        self.progress = progress
        self.maxBytes = maxBytes
        self.keepsErrorBodies = keepsErrorBodies && file == nil
        self.observer = observer
    }

    /// Why the transfer must end now, nil while it may go on: `idle` seconds without a byte, or
    /// `overall` seconds since `start`.
    func overdue(since start: ContinuousClock.Instant, idle: TimeInterval, overall: TimeInterval) -> (seconds: TimeInterval, idle: Bool)? {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return nil }
        let now = ContinuousClock.now
        if now - start > .seconds(overall) { return (overall, false) }
        if now - lastByte > .seconds(idle) { return (idle, true) }
        return nil
    }

    /// Ends the transfer on a timeout.
    func abort(_ task: URLSessionTask, timeout: (seconds: TimeInterval, idle: Bool)) {
        lock.lock()
        defer { lock.unlock() }
        guard running && !finished else { return }
        error = HTTPFailure.timeoutWords(seconds: timeout.seconds, idle: timeout.idle)
        self.timeout = timeout
        task.cancel()
    }

    /// Starts `task`, to call `onFinish` when it completes; or, when the caller was cancelled
    /// already, calls it at once without starting anything.
    func start(_ task: URLSessionTask, onFinish: @escaping @Sendable () -> Void) {
        lock.lock()
        if cancelRequested {
            finished = true
            cancelled = true
            lock.unlock()
            onFinish()
            return
        }
        self.onFinish = onFinish
        running = true
        // The idle clock starts now, not when the sink was made (a handoff's first leg may have
        // taken longer than the idle timeout).
        lastByte = ContinuousClock.now
        task.resume()
        lock.unlock()
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
    /// allowed, resumed at another offset than asked, or a status other than 2xx, whose body
    /// only a sink that `keepsErrorBodies` reads).
    func accept(_ response: HTTPURLResponse) -> Bool {
        self.response = response
        touch()
        headRefused = !acceptable(response)
        return !headRefused
    }

    private func acceptable(_ response: HTTPURLResponse) -> Bool {
        let status = response.statusCode
        guard (200..<300).contains(status) || keepsErrorBodies else { return false }
        // A HEAD's Content-Length is the object's, not a body's.
        if bodyless { return true }
        // A body declared longer than allowed is refused before it is read.
        if let length = response.value(forHTTPHeaderField: "Content-Length").flatMap(Int.init),
            length > maxBytes - (status == 206 ? resumeFrom : 0)
        {
            overLimit = true
            declaredOverLimit = length
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
            if let observer { data.withUnsafeBytes(observer) }
            return true
        }
        if let failure = append(data, to: file.fileDescriptor) {
            localError = "cannot write the download: \(failure)"
            return false
        }
        if let observer { data.withUnsafeBytes(observer) }
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

    package func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
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

    package func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if !accept(data) { dataTask.cancel() }
    }

    /// At most 5 redirects; with `.sameServer`, only on the request's server (the manifest's);
    /// with `.none`, none: the 3xx is the response.
    package func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        guard redirectPolicy != .none else {
            completionHandler(nil)
            return
        }
        redirects += 1
        guard let from = task.originalRequest?.url, let to = request.url, redirects <= 5,
            redirectPolicy == .anyServer || HTTPTransfer.sameServer(from, to)
        else {
            refusal = redirects > 5 ? "more than 5 redirects" : "a redirect to `\(request.url?.absoluteString ?? "")` is not on the manifest's server"
            completionHandler(nil)
            return
        }
        completionHandler(request)
    }

    /// A request body going out counts as activity for the idle timeout, as bytes coming in do.
    package func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        touch()
    }

    private func touch() {
        lock.lock()
        lastByte = ContinuousClock.now
        lock.unlock()
    }

    package func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        // Finished already: cancelled before it started, and the awaiting task may be reading.
        if finished {
            lock.unlock()
            return
        }
        if let error {
            // A cancel of our own (a limit, a refused head or body, a timeout) is no failure of its own.
            let ownCancel = overLimit || localError != nil || self.error != nil || refusal != nil || headRefused
            if (error as? URLError)?.code == .cancelled {
                if !ownCancel { cancelled = true }
            } else if self.error == nil {
                self.error = error.localizedDescription
            }
        }
        finished = true
        let onFinish = self.onFinish
        self.onFinish = nil
        lock.unlock()
        onFinish?()
    }
}
