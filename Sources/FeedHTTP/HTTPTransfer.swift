import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One bounded GET, shared by the client's updates and the build's fetch: the body goes to a
/// ``TransferSink`` (memory or a file, capped), no more than `idle` seconds pass without a
/// byte, and the whole exchange is done within `overall` seconds. At most 5 redirects, with
/// `.sameServer` only on the request's own server. The body of a status other than 2xx is
/// never read (no caller uses it).
///
/// `http` URLs on Linux go over a socket of their own (``SocketExchange``): FoundationNetworking's
/// URLSession keeps a write source armed on a socket that waits for a response, spinning a core
/// for as long as a slow server takes, and queues what a fast server sends for the delegate
/// without bound (1 GB of a 3 GB body before a cancellation lands; 432 MB to 1.6 GB against the
/// build's 64 MB cap). Elsewhere (`https`, Apple platforms) URLSession, with a watchdog that
/// checks both limits 5 times a second and cancels the transfer.
public struct HTTPTransfer: Sendable {
    /// Which redirects are followed.
    public enum Redirects: Sendable {
        /// Only to the request's own server (same scheme, host and port): a manifest's files.
        case sameServer
        /// To any http(s) URL: an agency's dump behind a CDN.
        case anyServer
    }

    public var idle: TimeInterval
    public var overall: TimeInterval
    public var redirects: Redirects
    public var userAgent: String

    public init(idle: TimeInterval, overall: TimeInterval, redirects: Redirects, userAgent: String) {
        self.idle = idle
        self.overall = overall
        self.redirects = redirects
        self.userAgent = userAgent
    }

    /// Whether `a` and `b` are on one server: the same scheme, host and port (the port written or
    /// the scheme's default), as docs/update-protocol.md ("Limits") defines it for redirects.
    public static func sameServer(_ a: URL, _ b: URL) -> Bool {
        func port(_ url: URL) -> Int? { url.port ?? ["http": 80, "https": 443][url.scheme?.lowercased() ?? ""] }
        return a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased() && port(a) == port(b)
    }

    /// The GET, awaited; cancelling the calling task ends it at once (`.cancelled`).
    public func run(_ url: URL, headers: [String: String] = [:], into sink: TransferSink) async throws(HTTPFailure) -> HTTPResponse {
        if Task.isCancelled { throw .cancelled }
        sink.redirectPolicy = redirects
        let start = ContinuousClock.now
        var target = url
        #if canImport(FoundationNetworking)
        if url.scheme?.lowercased() == "http" {
            let exchange = SocketExchange(url: url, headers: headers, sink: sink, userAgent: userAgent, idle: idle, overall: overall)
            await withTaskCancellationHandler {
                await exchange.run()
            } onCancel: {
                exchange.cancel()
            }
            guard let next = sink.handoff else { return try outcome(of: sink, url) }
            target = next
        }
        #endif
        let session = Session(transfer: self, url: target, headers: headers, sink: sink, start: start)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                session.start { continuation.resume() }
            }
        } onCancel: {
            session.cancel()
        }
        return try outcome(of: sink, target)
    }

    /// The GET on the calling thread, for a batch job with nothing else to do meanwhile (the
    /// build's fetch). It needs no thread of Swift's cooperative pool.
    public func runBlocking(_ url: URL, headers: [String: String] = [:], into sink: TransferSink) throws(HTTPFailure) -> HTTPResponse {
        sink.redirectPolicy = redirects
        let start = ContinuousClock.now
        var target = url
        #if canImport(FoundationNetworking)
        if url.scheme?.lowercased() == "http" {
            SocketExchange(url: url, headers: headers, sink: sink, userAgent: userAgent, idle: idle, overall: overall).perform()
            guard let next = sink.handoff else { return try outcome(of: sink, url) }
            target = next
        }
        #endif
        let done = DispatchSemaphore(value: 0)
        let session = Session(transfer: self, url: target, headers: headers, sink: sink, start: start)
        session.start { done.signal() }
        // The watchdog cancels the task at the deadline; should FoundationNetworking then never
        // report its end, the wait still ends 10 s later.
        if done.wait(timeout: .now() + overall + 10) == .timedOut {
            session.cancel()
            throw .timedOut(seconds: overall, idle: false)
        }
        return try outcome(of: sink, target)
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
        if let response, !sink.headRefused, (200..<300).contains(response.statusCode),
           let expected = fields["content-length"].flatMap(Int.init), sink.received < expected {
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

    init(transfer: HTTPTransfer, url: URL, headers: [String: String], sink: TransferSink, start: ContinuousClock.Instant) {
        self.transfer = transfer
        self.sink = sink
        self.start = start
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: transfer.idle)
        // The bytes as stored: checksums are of the files, not of a re-encoded transfer.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        request.setValue(transfer.userAgent, forHTTPHeaderField: "User-Agent")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
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
        task = session.dataTask(with: request)
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
