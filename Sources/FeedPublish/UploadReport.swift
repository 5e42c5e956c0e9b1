/// What a publication to object storage did, for reports and `--json`.
public struct UploadReport: Codable, Sendable, Equatable {
    /// JSON keys are snake_case in every `--json` output and report (issue 15).
    enum CodingKeys: String, CodingKey {
        case target
        case status
        case version
        case liveVersion = "live_version"
        case uploaded
        case alreadyThere = "already_there"
        case deleted
        case pruneDeferred = "prune_deferred"
        case bytes
        case retries
        case seconds
        case note
        case error
        case errorKind = "error_kind"
    }

    /// How the publication ended.
    public enum Status: String, Codable, Sendable {
        /// A new manifest went live.
        case uploaded
        /// The live manifest already was this one.
        case upToDate = "up_to_date"
        case failed
    }

    /// `s3://bucket/prefix/bundle/` (no credentials, ever).
    public var target: String
    /// Uploaded, up to date or failed.
    public var status: Status
    /// The latest version of the local manifest.
    public var version: Int?
    /// The live manifest's latest version before this run.
    public var liveVersion: Int?
    /// Files written, in order (manifest and signature included).
    public var uploaded: [String] = []
    /// Listed files already in the store with the same size and checksum.
    public var alreadyThere = 0
    /// Files the manifest no longer lists, deleted after the grace period.
    public var deleted: [String] = []
    /// Unlisted files kept until their grace period has passed.
    public var pruneDeferred = 0
    /// Bytes uploaded.
    public var bytes = 0
    /// Requests sent again after a failure.
    public var retries = 0
    /// Seconds the publication took.
    public var seconds: Double = 0
    /// A sentence for people, when there is more to say than the status.
    public var note: String?
    /// Why it failed, in words (no credentials); nil unless `failed`.
    public var error: String?
    /// What kind of failure; nil unless `failed`.
    public var errorKind: RemotePublishError.Kind?

    /// A report for `target`, its counts at 0.
    public init(target: String, status: Status) {
        self.target = target
        self.status = status
    }
}
