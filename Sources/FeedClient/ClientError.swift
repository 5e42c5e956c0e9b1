/// Why an update did not complete. In every case the local database is exactly as it was and
/// still usable; the next update starts over (resuming a cut download where it can).
public enum ClientError: Error, Sendable, CustomStringConvertible {
    case http(url: String, status: Int)
    case network(url: String, reason: String)
    case badManifest(String)
    case checksumMismatch(file: String, expected: String, found: String)
    case corruptDownload(file: String, reason: String)
    case local(path: String, reason: String)

    public var description: String {
        switch self {
        case .http(let url, let status): "\(url): HTTP \(status)"
        case .network(let url, let reason): "\(url): \(reason)"
        case .badManifest(let reason): "unusable manifest: \(reason)"
        case .checksumMismatch(let file, let expected, let found): "\(file): SHA-256 \(found), the manifest says \(expected)"
        case .corruptDownload(let file, let reason): "\(file): \(reason)"
        case .local(let path, let reason): "\(path): \(reason)"
        }
    }
}

/// What an update did.
public enum UpdateResult: Sendable, Equatable, CustomStringConvertible {
    /// The manifest was unchanged (304) or names the version the database holds.
    case upToDate(version: Int)
    /// A delta brought the database from one version to the next.
    case appliedDelta(from: Int, to: Int, bytes: Int)
    /// The full bundle replaced the database.
    case downloadedFull(version: Int, bytes: Int)

    public var description: String {
        switch self {
        case .upToDate(let version): "up to date (version \(version))"
        case .appliedDelta(let from, let to, let bytes): "applied delta \(from)→\(to), \(bytes) bytes"
        case .downloadedFull(let version, let bytes): "downloaded full bundle (version \(version)), \(bytes) bytes"
        }
    }
}
