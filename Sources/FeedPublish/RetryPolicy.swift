import Foundation

/// How often and how patiently a failed request is tried again: network errors (a connection
/// refused, cut or silent past the timeout), 429, 500, 502, 503 and 504, S3's
/// `SlowDown`/`RequestTimeout`/`InternalError`, and a body the store found damaged
/// (`BadDigest`, `XAmzContentSHA256Mismatch`, `IncompleteBody`); never other 4xx answers.
public struct RetryPolicy: Sendable {
    /// Tries in all, the first included (at least 1).
    public var attempts: Int
    /// The first wait; each next one doubles, with ±50% jitter, up to `maxDelay`.
    public var baseDelay: TimeInterval
    /// The longest wait between two tries.
    public var maxDelay: TimeInterval

    /// A policy of `attempts` tries, waiting from `baseDelay` up to `maxDelay` seconds between them.
    public init(attempts: Int = 6, baseDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 20) {
        self.attempts = max(1, attempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    func delay(afterAttempt attempt: Int) -> TimeInterval {
        min(maxDelay, baseDelay * pow(2, Double(attempt - 1))) * Double.random(in: 0.5...1.5)
    }
}
