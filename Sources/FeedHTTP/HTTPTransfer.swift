import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One bounded HTTP exchange, shared by the client's updates, the build's fetch and the
/// publisher's S3 requests: a GET, or any method with a body of bytes; the response's body goes
/// to a ``TransferSink`` (memory or a file, capped), no more than `idle` seconds pass without a
/// byte either way, and the whole exchange is done within `overall` seconds. At most 5
/// redirects, of GET and HEAD only, with `.sameServer` only on the request's own server, with
/// `.none` never. The body of a status other than 2xx is read only by a sink that asks for it
/// (an S3 error's code and message).
///
/// `http` URLs on Linux go over a socket of their own (``SocketExchange``): FoundationNetworking's
/// URLSession keeps a write source armed on a socket that waits for a response, spinning a core
/// for as long as a slow server takes, and queues what a fast server sends for the delegate
/// without bound (1 GB of a 3 GB body before a cancellation lands; 432 MB to 1.6 GB against the
/// build's 64 MB cap). Elsewhere (`https`, Apple platforms) URLSession, with a watchdog that
/// checks both limits 5 times a second and cancels the transfer.
package struct HTTPTransfer: Sendable {
    /// Which redirects are followed.
    package enum Redirects: Sendable {
        /// Only to the request's own server (same scheme, host and port): a manifest's files.
        case sameServer
        /// To any http(s) URL: an agency's dump behind a CDN.
        case anyServer
        /// None: a 3xx is the answer, as any other status (a signed request is valid only where
        /// it was sent).
        case none
    }

    /// Seconds without a byte received or sent before the exchange is given up.
    package var idle: TimeInterval
    /// Seconds the whole exchange may take, redirects included.
    package var overall: TimeInterval
    /// Which redirects are followed.
    package var redirects: Redirects
    /// The `User-Agent` sent.
    package var userAgent: String

    /// A transfer with these bounds, redirect policy and `User-Agent`.
    package init(idle: TimeInterval, overall: TimeInterval, redirects: Redirects, userAgent: String) {
        self.idle = idle
        self.overall = overall
        self.redirects = redirects
        self.userAgent = userAgent
    }

    /// Whether `a` and `b` are on one server: the same scheme, host and port (the port written or
    /// the scheme's default), as docs/update-protocol.md ("Limits") defines it for redirects.
    package static func sameServer(_ a: URL, _ b: URL) -> Bool {
        func port(_ url: URL) -> Int? { url.port ?? ["http": 80, "https": 443][url.scheme?.lowercased() ?? ""] }
        return a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased() && port(a) == port(b)
    }

    /// The exchange, awaited; cancelling the calling task ends it at once (`.cancelled`).
    /// `method` (GET unless said) is sent with `headers` and `body` (`Content-Length` from it).
    package func run(
        _ url: URL, method: String = "GET", headers: [String: String] = [:], body: Data? = nil,
        into sink: TransferSink
    ) async throws(HTTPFailure) -> HTTPResponse {
        if Task.isCancelled { throw .cancelled }
        let request = OutgoingRequest(method: method, headers: headers, body: body)
        prepare(sink, for: request)
        let start = ContinuousClock.now
        var target = url
        #if canImport(FoundationNetworking)
            if url.scheme?.lowercased() == "http" {
                let exchange = SocketExchange(url: url, request: request, sink: sink, userAgent: userAgent, idle: idle, overall: overall)
                await withTaskCancellationHandler {
                    await exchange.run()
                } onCancel: {
                    exchange.cancel()
                }
                guard let next = sink.handoff else { return try outcome(of: sink, url) }
                target = next
            }
        #endif
        let session = Session(transfer: self, url: target, request: request, sink: sink, start: start)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                session.start { continuation.resume() }
            }
        } onCancel: {
            session.cancel()
        }
        return try outcome(of: sink, target)
    }

    /// The exchange on the calling thread, for a batch job with nothing else to do meanwhile
    /// (the build's fetch, the publisher's requests). It needs no thread of Swift's cooperative
    /// pool.
    package func runBlocking(
        _ url: URL, method: String = "GET", headers: [String: String] = [:], body: Data? = nil,
        into sink: TransferSink
    ) throws(HTTPFailure) -> HTTPResponse {
        let request = OutgoingRequest(method: method, headers: headers, body: body)
        prepare(sink, for: request)
        let start = ContinuousClock.now
        var target = url
        #if canImport(FoundationNetworking)
            if url.scheme?.lowercased() == "http" {
                SocketExchange(url: url, request: request, sink: sink, userAgent: userAgent, idle: idle, overall: overall).perform()
                guard let next = sink.handoff else { return try outcome(of: sink, url) }
                target = next
            }
        #endif
        let done = DispatchSemaphore(value: 0)
        let session = Session(transfer: self, url: target, request: request, sink: sink, start: start)
        session.start { done.signal() }
        // The watchdog cancels the task at the deadline; should FoundationNetworking then never
        // report its end, the wait still ends 10 s later.
        if done.wait(timeout: .now() + overall + 10) == .timedOut {
            session.cancel()
            throw .timedOut(seconds: overall, idle: false)
        }
        return try outcome(of: sink, target)
    }

    /// Tells `sink` what it takes part in: which redirects are followed, and whether the
    /// response has a body (none to a HEAD, whatever its head declares).
    private func prepare(_ sink: TransferSink, for request: OutgoingRequest) {
        sink.redirectPolicy = request.followsRedirects ? redirects : .none
        sink.bodyless = request.method == "HEAD"
    }

    /// What the transfer `sink` received came to: the response, or why there is none.
    private func outcome(of sink: TransferSink, _ url: URL) throws(HTTPFailure) -> HTTPResponse {
        if Task.isCancelled || sink.cancelled { throw .cancelled }
        if let local = sink.localError { throw .local(path: sink.path ?? url.absoluteString, reason: local) }
        if sink.overLimit { throw .overLimit(maxBytes: sink.maxBytes, declared: sink.declaredOverLimit) }
        if let refusal = sink.refusal { throw .refused(refusal) }
        if let timeout = sink.timeout { throw .timedOut(seconds: timeout.seconds, idle: timeout.idle) }
        let response = sink.response
        var fields: [String: String] = [:]
        for (key, value) in response?.allHeaderFields ?? [:] { fields["\(key)".lowercased()] = "\(value)" }
        // Shorter than announced: a cut (a file keeps what arrived, to be resumed).
        if let response, !sink.headRefused, !sink.bodyless, (200..<300).contains(response.statusCode),
            let expected = fields["content-length"].flatMap(Int.init), sink.received < expected
        {
            throw .network("connection closed after \(sink.received) of \(expected) bytes")
        }
        if let error = sink.error { throw .network(error) }
        guard let response else { throw .network("no HTTP response") }
        return HTTPResponse(status: response.statusCode, headers: fields, body: sink.body)
    }
}

/// One URLSession data task with its watchdog, for either way of waiting.
private struct Session: Sendable {
    let transfer: HTTPTransfer
    let sink: TransferSink
    let task: URLSessionDataTask
    let session: URLSession
    let start: ContinuousClock.Instant

    init(transfer: HTTPTransfer, url: URL, request outgoing: OutgoingRequest, sink: TransferSink, start: ContinuousClock.Instant) {
        self.transfer = transfer
        self.sink = sink
        self.start = start
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: transfer.idle)
        request.httpMethod = outgoing.method
        // The bytes as stored: checksums are of the files, not of a re-encoded transfer.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        request.setValue(transfer.userAgent, forHTTPHeaderField: "User-Agent")
        for (name, value) in outgoing.headers { request.setValue(value, forHTTPHeaderField: name) }
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let configuration = URLSessionConfiguration.ephemeral
        // No cache (nothing here is read twice anyway). On Linux, FoundationNetworking looks a
        // data task up in the cache on another queue before the task has a protocol, and a
        // cancel() landing then reports its failure after the task has left the session, which
        // is a fatalError ("Trying to access a behaviour for a task that in not in the
        // registry"). See `TransferSink.cancel` for the other half.
        configuration.urlCache = nil
        session = URLSession(configuration: configuration, delegate: sink, delegateQueue: queue)
        // A new session, and so a new connection, for each exchange: on a kept-alive connection
        // that turns out dead, URLSession (libcurl) sends a request again by itself, and on Linux
        // without rewinding its body (seen: the second half of an S3 part sent as the whole).
        if let body = outgoing.body {
            task = session.uploadTask(with: request, from: body)
        } else {
            task = session.dataTask(with: request)
        }
    }

    /// Starts the task and its watchdog; `onFinish` runs once it has ended.
    func start(onFinish: @escaping @Sendable () -> Void) {
        let watchdog = Thread { [sink, task, start, transfer] in
            while !sink.isFinished {
                Thread.sleep(forTimeInterval: 0.2)
                if let timeout = sink.overdue(since: start, idle: transfer.idle, overall: transfer.overall) {
                    sink.abort(task, timeout: timeout)
                    return
                }
            }
        }
        sink.start(task) { [session, sink] in
            // A task never started (the caller was cancelled first) would keep a session that
            // only finishes its tasks alive for ever: that one is cancelled with the session.
            if sink.started { session.finishTasksAndInvalidate() } else { session.invalidateAndCancel() }
            onFinish()
        }
        watchdog.name = "feedc-http-watchdog"
        watchdog.start()
    }

    func cancel() { sink.cancel(task) }
}

/// What an exchange sends besides its URL: the method, head fields and body.
struct OutgoingRequest: Sendable {
    var method: String
    var headers: [String: String]
    /// Sent with its `Content-Length`; a PUT or POST without one sends an empty one.
    var body: Data?

    init(method: String, headers: [String: String], body: Data?) {
        self.method = method
        self.headers = headers
        self.body = body ?? (method == "PUT" || method == "POST" ? Data() : nil)
    }

    /// Whether a redirect may be followed: GET and HEAD only (a body is never sent twice).
    var followsRedirects: Bool { method == "GET" || method == "HEAD" }
}
