import Foundation
import TestSupport
import Testing

@testable import FeedClient

/// Requests cancelled at random moments around their completion, against nginx: each ends as a
/// full response or as `.cancelled`, never as a crash or a hang.
///
/// On Linux, FoundationNetworking stops the process ("Trying to access a behaviour for a task
/// that in not in the registry") when a task is cancelled just as it completes; a CI run of
/// the update-cancellation test once died of it. Before the fix, a few hundred of these trials
/// were enough to crash the process, or to hang a request cancelled before it started (see
/// `TransferSink`).
@Suite(.enabled(if: Nginx.isInstalled, "needs nginx (.ci/run installs it)"))
struct TransportCancellationTests {
    @Test func cancellingAroundCompletionEndsCleanly() async throws {
        let folder = TemporaryFolder()
        let www = folder.url.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<3_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try bytes.write(to: www.appendingPathComponent("small.bin"))
        let nginx = try Nginx(serving: www)
        let url = nginx.url("small.bin")
        let transport = HTTPTransport()
        var completed = 0, cancelled = 0
        for trial in 0..<4_000 {
            // Most within the half millisecond a request to localhost takes, some later.
            let delay = UInt64.random(in: 0...(trial % 4 == 3 ? 3_000 : 500), using: &generator)
            let download = trial % 2 == 1 ? folder.url.appendingPathComponent("download-\(trial)") : nil
            let task = Task { () async throws -> Data in
                if let download {
                    let status = try await transport.download(url, to: download, maxBytes: 1 << 30)
                    guard status == 200 else { return Data() }
                    return (try? Data(contentsOf: download)) ?? Data()
                }
                return try await transport.get(url, maxBytes: 1 << 30).body
            }
            try await Task.sleep(nanoseconds: delay * 1_000)
            task.cancel()
            // A bound for a hang only: the request's own work is a millisecond, but its
            // continuation waits for a thread of the pool, which a loaded run's synchronous
            // tests can hold for minutes.
            guard let result = await Self.result(of: task, within: 300) else {
                Issue.record("trial \(trial): the request cancelled after \(delay) µs never ended")
                break
            }
            switch result {
            case .success(let body):
                #expect(body == bytes, "trial \(trial): a completed request has the whole file")
                completed += 1
            case .failure(let error):
                #expect(error as? ClientError == .cancelled, "trial \(trial): \(error)")
                cancelled += 1
            }
            if let download { try? FileManager.default.removeItem(at: download) }
        }
        // Both outcomes happened, so cancellations did land on requests about to complete.
        #expect(completed > 0 && cancelled > 0, "completed \(completed), cancelled \(cancelled)")
    }

    /// The task's result, or nil when it has not ended within `seconds` (it is then left behind,
    /// so that a hang fails the test instead of stalling the run).
    private static func result(of task: Task<Data, any Error>, within seconds: UInt64) async -> Result<Data, any Error>? {
        await withCheckedContinuation { continuation in
            let first = FirstResume(continuation)
            Task { first.resume(await task.result) }
            Task {
                try? await Task.sleep(nanoseconds: seconds * 1_000_000_000)
                first.resume(nil)
            }
        }
    }
}

/// Resumes a continuation with whichever value comes first.
private final class FirstResume: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Result<Data, any Error>?, Never>?

    init(_ continuation: CheckedContinuation<Result<Data, any Error>?, Never>) {
        self.continuation = continuation
    }

    func resume(_ value: Result<Data, any Error>?) {
        lock.lock()
        let pending = continuation
        continuation = nil
        lock.unlock()
        pending?.resume(returning: value)
    }
}
