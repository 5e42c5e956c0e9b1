import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// One exchange with an `http` URL over a TCP socket of its own, on Linux (see ``HTTPTransfer``
    /// for why not URLSession there), feeding a ``TransferSink`` as URLSession would.
    ///
    /// HTTP/1.1 with `Connection: close` (so a request body is never sent twice on a connection found
    /// dead); a request body sent with its `Content-Length`; a response body framed by
    /// `Content-Length`, chunked, or by the end of the connection (none to a HEAD). Blocking, on a thread of its
    /// own: every wait (connecting, sending, each read of the head or the body) is a `poll` of at most
    /// the idle timeout or the time left before the deadline, whichever is shorter, so a server
    /// dripping its head or body a byte a second is stopped at the deadline, a stalled one after the
    /// idle timeout, and nothing spins meanwhile. The body is read 64 KiB at a time as the sink takes
    /// it: a server sending faster than that waits (TCP), so memory stays bounded whatever it sends.
    /// Redirects: at most 5, within the same deadline; with `.sameServer` on the request's server only,
    /// with `.none` never (the 3xx is the response); one to `https` is left in the sink's `handoff` for
    /// URLSession. `cancel` shuts the socket down, which wakes the wait at once. DNS lookups
    /// (`getaddrinfo`) are not bounded by the deadline.
    ///
    /// `@unchecked Sendable`: `pending` is touched by the exchange's own thread only; `descriptor`
    /// and `cancelled`, which `cancel` reaches from another thread, only under `lock`; the rest is
    /// set in `init`.
    final class SocketExchange: @unchecked Sendable {
        private let url: URL
        private let request: OutgoingRequest
        private let sink: TransferSink
        private let userAgent: String
        private let idle: TimeInterval
        private let overall: TimeInterval
        private let deadline: ContinuousClock.Instant
        /// Bytes received and not yet handed out. Touched by the exchange's thread only.
        private var pending: [UInt8] = []
        private let lock = NSLock()
        // Under `lock`:
        private var descriptor: Int32 = -1
        private var cancelled = false

        private enum Failure: Error {
            case cancelled
            case timedOut(seconds: TimeInterval, idle: Bool)
            case network(String)
            case refused(String)
        }

        init(url: URL, request: OutgoingRequest, sink: TransferSink, userAgent: String, idle: TimeInterval, overall: TimeInterval) {
            self.userAgent = userAgent
            self.url = url
            self.request = request
            self.sink = sink
            self.idle = idle
            self.overall = overall
            deadline = ContinuousClock.now + .milliseconds(Int64((overall * 1000).rounded(.up)))
        }

        /// Performs the exchange on a thread of its own; returns when it has ended, with its outcome
        /// in the sink.
        func run() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let thread = Thread { [self] in
                    perform()
                    continuation.resume()
                }
                thread.name = "feedc-http"
                thread.start()
            }
        }

        /// Ends the exchange as soon as possible: the socket is shut down, which wakes any wait.
        func cancel() {
            lock.lock()
            defer { lock.unlock() }
            cancelled = true
            if descriptor >= 0 { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }

        /// Performs the exchange on the calling thread; returns when it has ended, with its outcome
        /// in the sink.
        func perform() {
            defer { closeSocket() }
            do throws(Failure) {
                var target = url
                for redirect in 0...5 {
                    let (status, fields) = try exchangeHead(target)
                    if sink.redirectPolicy != .none, [301, 302, 303, 307, 308].contains(status), let location = fields["location"] {
                        guard let next = URL(string: location, relativeTo: target)?.absoluteURL,
                            sink.redirectPolicy == .anyServer || HTTPTransfer.sameServer(next, url)
                        else {
                            throw .refused("a redirect to `\(location)` is not on the manifest's server")
                        }
                        guard redirect < 5 else { throw .refused("more than 5 redirects") }
                        guard next.scheme?.lowercased() == "http" else {
                            sink.handoff = next
                            sink.redirects = redirect + 1
                            return
                        }
                        closeSocket()
                        pending = []
                        target = next
                        continue
                    }
                    var headerFields = fields.original
                    if fields.chunked {
                        // A chunked body's length is its chunks' (RFC 9112, 6.3): any Content-Length is ignored.
                        headerFields = headerFields.filter { $0.key.lowercased() != "content-length" }
                    }
                    let response = HTTPURLResponse(url: target, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headerFields)
                    guard let response, sink.accept(response) else { return }
                    try readBody(status: status, fields: fields)
                    return
                }
            } catch {
                switch error {
                case .cancelled: sink.cancelled = true
                case .timedOut(let seconds, let idle):
                    sink.error = HTTPFailure.timeoutWords(seconds: seconds, idle: idle)
                    sink.timeout = (seconds, idle)
                case .network(let reason): sink.error = reason
                case .refused(let reason): sink.refusal = reason
                }
            }
        }

        /// Header fields by lower-case name (repeated ones joined with ", "), and as received.
        private struct Fields {
            var byName: [String: String] = [:]
            var original: [String: String] = [:]
            subscript(_ name: String) -> String? { byName[name] }
            var chunked: Bool { byName["transfer-encoding"]?.lowercased().contains("chunked") == true }
        }

        /// Connects to `target`'s server, sends the request and reads the response's head (skipping
        /// interim 1xx heads): its status and fields.
        private func exchangeHead(_ target: URL) throws(Failure) -> (Int, Fields) {
            guard let host = target.host, !host.isEmpty else { throw .network("no host in \(target.absoluteString)") }
            let port = target.port ?? 80
            try connect(host: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: port)
            let components = URLComponents(url: target, resolvingAgainstBaseURL: true)
            var path = components?.percentEncodedPath ?? "/"
            if path.isEmpty { path = "/" }
            if let query = components?.percentEncodedQuery { path += "?" + query }
            let authority = (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host) + (target.port.map { ":\($0)" } ?? "")
            var head =
                "\(request.method) \(path) HTTP/1.1\r\nHost: \(authority)\r\nAccept-Encoding: identity\r\nUser-Agent: \(userAgent.filter { $0 != "\r" && $0 != "\n" })\r\nConnection: close\r\n"
            if let body = request.body { head += "Content-Length: \(body.count)\r\n" }
            for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) where !["accept-encoding", "content-length"].contains(name.lowercased()) {
                // A value is one line, whatever a stored ETag holds.
                head += "\(name): \(value.filter { $0 != "\r" && $0 != "\n" })\r\n"
            }
            var sendFailure: Failure?
            do throws(Failure) {
                try send(Data((head + "\r\n").utf8))
                if let body = request.body { try send(body) }
            } catch .network(let reason) {
                // A server may answer before it has read the whole body (a refusal) and close: its
                // answer is read if it came, else this is the failure.
                sendFailure = .network(reason)
            }
            var headBytes = 0
            while true {
                let statusLine: String?
                do throws(Failure) {
                    statusLine = try line(limit: 8192, counting: &headBytes)
                } catch {
                    throw sendFailure ?? error
                }
                guard let statusLine else { throw sendFailure ?? .network("the connection closed before a response") }
                let parts = statusLine.split(separator: " ", maxSplits: 2)
                guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100..<1000).contains(status) else {
                    throw .network("not an HTTP response")
                }
                var fields = Fields()
                while true {
                    guard let field = try line(limit: 8192, counting: &headBytes) else { throw .network("the connection closed within the response head") }
                    if field.isEmpty { break }
                    guard let colon = field.firstIndex(of: ":") else { continue }
                    let name = String(field[..<colon]).trimmingCharacters(in: .whitespaces)
                    let value = String(field[field.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                    let key = name.lowercased()
                    fields.byName[key] = fields.byName[key].map { $0 + ", " + value } ?? value
                    fields.original[name] = fields.original[name].map { $0 + ", " + value } ?? value
                }
                // 1xx: an interim head; the response follows.
                if (100..<200).contains(status) && status != 101 { continue }
                return (status, fields)
            }
        }

        /// The body, handed to the sink as it arrives, until it ends, the sink refuses more, or the
        /// connection closes (the sink sees a cut by its count).
        private func readBody(status: Int, fields: Fields) throws(Failure) {
            if status == 204 || status == 304 || sink.bodyless { return }
            if fields.chunked {
                while true {
                    guard let sizeLine = try line(limit: 1024) else { throw .network("the connection closed within the chunked body") }
                    let hex = sizeLine.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
                    guard hex.count <= 15, let chunk = Int(hex, radix: 16), chunk >= 0 else { throw .network("a chunk's size line is not hex") }
                    if chunk == 0 { return }  // trailers are not read: the connection closes
                    var left = chunk
                    while left > 0 {
                        let piece = try take(most: min(left, 1 << 16))
                        guard !piece.isEmpty else { throw .network("the connection closed within the chunked body") }
                        left -= piece.count
                        guard sink.accept(Data(piece)) else { return }
                    }
                    guard try line(limit: 2)?.isEmpty == true else { throw .network("a chunk does not end with a line break") }
                }
            }
            var left = fields["content-length"].flatMap(Int.init) ?? Int.max
            while left > 0 {
                let piece = try take(most: min(left, 1 << 16))
                if piece.isEmpty { return }
                left -= piece.count
                guard sink.accept(Data(piece)) else { return }
            }
        }

        // MARK: The socket

        private func connect(host: String, port: Int) throws(Failure) {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let found = getaddrinfo(host, String(port), &hints, &list)
            guard found == 0, let first = list else { throw .network("cannot resolve \(host): \(String(cString: gai_strerror(found)))") }
            defer { freeaddrinfo(list) }
            var failure = "no address"
            var next: UnsafeMutablePointer<addrinfo>? = first
            while let address = next {
                next = address.pointee.ai_next
                let candidate = Glibc.socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), address.pointee.ai_protocol)
                guard candidate >= 0 else {
                    failure = String(cString: strerror(errno))
                    continue
                }
                _ = fcntl(candidate, F_SETFL, fcntl(candidate, F_GETFL) | O_NONBLOCK)
                lock.lock()
                let stop = cancelled
                if !stop { descriptor = candidate }
                lock.unlock()
                if stop {
                    close(candidate)
                    throw .cancelled
                }
                if Glibc.connect(candidate, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return }
                if errno == EINPROGRESS {
                    try wait(for: Int16(POLLOUT))
                    var code: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(candidate, SOL_SOCKET, SO_ERROR, &code, &length)
                    if code == 0 { return }
                    failure = String(cString: strerror(code))
                } else {
                    failure = String(cString: strerror(errno))
                }
                closeSocket()
            }
            throw .network("cannot connect to \(host):\(port): \(failure)")
        }

        private func closeSocket() {
            lock.lock()
            defer { lock.unlock() }
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }

        private var socket: Int32 {
            lock.lock()
            defer { lock.unlock() }
            return descriptor
        }

        /// Waits until the socket is ready for `events`, at most the idle timeout or the time left
        /// before the deadline.
        private func wait(for events: Int16) throws(Failure) {
            while true {
                lock.lock()
                let stop = cancelled
                lock.unlock()
                if stop { throw .cancelled }
                let left = deadline - ContinuousClock.now
                guard left > .zero else { throw .timedOut(seconds: overall, idle: false) }
                let byIdle = left > .seconds(idle)
                let wait = byIdle ? .seconds(idle) : left
                let milliseconds = Int32(clamping: wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000 + 1)
                var entry = pollfd(fd: socket, events: events, revents: 0)
                let ready = poll(&entry, 1, milliseconds)
                if ready < 0 && errno == EINTR { continue }
                guard ready >= 0 else { throw .network(String(cString: strerror(errno))) }
                if ready > 0 {
                    lock.lock()
                    let stop = cancelled
                    lock.unlock()
                    if stop { throw .cancelled }
                    return
                }
                if byIdle { throw .timedOut(seconds: idle, idle: true) }
            }
        }

        private func send(_ bytes: Data) throws(Failure) {
            var done = 0
            while done < bytes.count {
                try wait(for: Int16(POLLOUT))
                let count = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + done, min(bytes.count - done, 1 << 16), Int32(MSG_NOSIGNAL)) }
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                guard count > 0 else { throw .network("cannot send the request: \(String(cString: strerror(errno)))") }
                done += count
            }
        }

        /// One read of what has arrived (at most 64 KiB) into `pending`; false at the end of the
        /// connection.
        private func fill() throws(Failure) -> Bool {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                try wait(for: Int16(POLLIN))
                let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress!, $0.count, 0) }
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                guard count >= 0 else { throw .network(String(cString: strerror(errno))) }
                pending += buffer[0..<count]
                return count > 0
            }
        }

        /// At most `most` bytes: those pending, else what one read brings; empty at the end.
        private func take(most: Int) throws(Failure) -> [UInt8] {
            if pending.isEmpty, try !fill() { return [] }
            let piece = Array(pending.prefix(most))
            pending.removeFirst(piece.count)
            return piece
        }

        /// The next line (without its CR LF), of at most `limit` bytes; nil when the connection ends
        /// first. `counting` adds the line's bytes, refused past 64 KiB in all (a response head).
        private func line(limit: Int, counting total: inout Int) throws(Failure) -> String? {
            var searched = 0
            while true {
                if let end = pending[searched...].firstIndex(of: 0x0A) {
                    var bytes = pending[..<end]
                    if bytes.last == 0x0D { bytes = bytes.dropLast() }
                    total += end + 1
                    pending.removeFirst(end + 1)
                    guard total <= 1 << 16 else { throw .network("the response head is larger than 64 KiB") }
                    return String(decoding: bytes, as: UTF8.self)
                }
                searched = pending.count
                guard pending.count <= limit else { throw .network("a line of the response is longer than \(limit) bytes") }
                guard try fill() else { return nil }
            }
        }

        private func line(limit: Int) throws(Failure) -> String? {
            var total = 0
            return try line(limit: limit, counting: &total)
        }
    }
#endif
