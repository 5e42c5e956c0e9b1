import BundleFormat
import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A blocking GET for the build (a batch tool with nothing else to do meanwhile), streamed into a
/// file and hashed as it arrives: memory stays at a few buffers whatever the dump's size. Bounded
/// in size (`maxBytes`: a longer body, or a longer declared `Content-Length`, ends it), in idle
/// time (no byte for `idle` seconds) and in total time (`overall` seconds). The waiting thread
/// checks the bounds 5 times a second; nothing spins.
enum StreamingGet {
    struct Limits: Sendable {
        var maxBytes: Int
        var idle: TimeInterval
        var overall: TimeInterval
    }

    struct Fetched {
        var response: HTTPURLResponse
        /// SHA-256 of the body written (of a 2xx response; empty otherwise).
        var sha256: String
        var bytes: Int
    }

    static func run(_ request: URLRequest, into file: URL, limits: Limits) throws(FetchError) -> Fetched {
        let url = request.url?.absoluteString ?? "?"
        guard FileManager.default.createFile(atPath: file.path, contents: nil), let handle = try? FileHandle(forWritingTo: file) else {
            throw .io(path: file.path, reason: "cannot create the download file")
        }
        defer { try? handle.close() }
        let sink = DownloadSink(file: handle, maxBytes: limits.maxBytes)
        let session = URLSession(configuration: .ephemeral, delegate: sink, delegateQueue: sink.queue)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        let start = ContinuousClock.now
        task.resume()
        while sink.done.wait(timeout: .now() + .milliseconds(200)) == .timedOut {
            if let reason = sink.overdue(since: start, limits: limits) {
                sink.fail(reason)
                task.cancel()
                _ = sink.done.wait(timeout: .now() + .seconds(5))
                break
            }
        }
        let outcome = sink.outcome()
        if let local = outcome.localError { throw .io(path: file.path, reason: local) }
        if let error = outcome.error { throw .network(url: url, reason: error) }
        guard let response = outcome.response else { throw .network(url: url, reason: "no HTTP response") }
        if (200..<300).contains(response.statusCode), let expected = response.value(forHTTPHeaderField: "Content-Length").flatMap(Int.init),
           outcome.bytes < expected {
            throw .network(url: url, reason: "connection closed after \(outcome.bytes) of \(expected) bytes")
        }
        return Fetched(response: response, sha256: outcome.sha256, bytes: outcome.bytes)
    }
}

/// Receives the body on its own serial queue; the waiting thread reads the outcome under `lock`.
///
/// `@unchecked Sendable`: the delegate methods run one at a time on `queue`; every field they
/// share with the waiting thread (`lastByte`, `failure`, the outcome) is read and written under
/// `lock`.
private final class DownloadSink: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let queue: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }()
    let done = DispatchSemaphore(value: 0)
    private let file: FileHandle
    private let maxBytes: Int
    private let lock = NSLock()
    private var hasher = SHA256()
    // Under `lock`:
    private var response: HTTPURLResponse?
    private var bytes = 0
    private var lastByte = ContinuousClock.now
    private var failure: String?
    private var localError: String?
    private var finished = false

    struct Outcome {
        var response: HTTPURLResponse?
        var bytes: Int
        var sha256: String
        var error: String?
        var localError: String?
    }

    init(file: FileHandle, maxBytes: Int) {
        self.file = file
        self.maxBytes = maxBytes
    }

    func overdue(since start: ContinuousClock.Instant, limits: StreamingGet.Limits) -> String? {
        lock.lock()
        defer { lock.unlock() }
        let now = ContinuousClock.now
        if now - lastByte > .seconds(limits.idle) { return "timed out: no data for \(Int(limits.idle)) s" }
        if now - start > .seconds(limits.overall) { return "timed out: not done within \(Int(limits.overall)) s (`download_timeout`)" }
        return nil
    }

    func fail(_ reason: String) {
        lock.lock()
        if failure == nil { failure = reason }
        lock.unlock()
    }

    func outcome() -> Outcome {
        lock.lock()
        defer { lock.unlock() }
        let digest = finished && failure == nil ? hexString(hasher.finalize()) : ""
        return Outcome(response: response, bytes: bytes, sha256: digest, error: failure, localError: localError)
    }

    private var isSuccess: Bool { (200..<300).contains(response?.statusCode ?? 0) }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        lock.lock()
        self.response = response as? HTTPURLResponse
        lastByte = ContinuousClock.now
        let declared = self.response?.value(forHTTPHeaderField: "Content-Length").flatMap(Int.init) ?? 0
        let tooLarge = isSuccess && declared > maxBytes
        if tooLarge { failure = "the server declares \(declared) bytes, more than `max_download_mb` allows (\(maxBytes))" }
        lock.unlock()
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        defer { lock.unlock() }
        lastByte = ContinuousClock.now
        guard isSuccess, failure == nil, localError == nil else { return }
        bytes += data.count
        guard bytes <= maxBytes else {
            failure = "more than `max_download_mb` allows (\(maxBytes) bytes)"
            dataTask.cancel()
            return
        }
        do {
            try file.write(contentsOf: data)
        } catch {
            localError = "cannot write the download: \(error.localizedDescription)"
            dataTask.cancel()
            return
        }
        hasher.update(data: data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        if let error, failure == nil, localError == nil { failure = error.localizedDescription }
        finished = true
        lock.unlock()
        done.signal()
    }
}
