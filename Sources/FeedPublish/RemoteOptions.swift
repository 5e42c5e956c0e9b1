import Foundation

/// Tuning of a publication; the defaults suit AWS and a nightly job.
public struct RemoteOptions: Sendable {
    /// How often and how long failed requests are tried again.
    public var retry = RetryPolicy()
    /// Seconds one request may go without a byte either way before it gives up (and is tried
    /// again); a request still moving is given up after an hour (or this, if longer).
    public var timeout: TimeInterval = 120
    /// Files from this size up go in parts of `partSize` bytes (S3's smallest part is 5 MiB).
    public var multipartThreshold = 16 << 20
    /// Bytes per part of a multipart upload (default 8 MiB).
    public var partSize = 8 << 20
    /// Seconds to wait before reading the written manifest back: on a store that ignores
    /// `If-Match`, a concurrent writer's PUT landing just after ours shows up then.
    public var settle: TimeInterval = 1
    /// Called after the check that the live manifest is still the one this run read, just before
    /// the conditional write: lets tests line two publishers up so that both pass the check and
    /// the store (`If-Match`) or the read-back decides between them.
    public var beforeManifestWrite: (@Sendable () -> Void)?

    /// The defaults.
    public init() {}
}
