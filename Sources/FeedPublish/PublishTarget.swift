import Foundation

/// Where a bundle's output folder goes: `s3://bucket/prefix`, and how (`publish:` in
/// pipeline.yaml). Holds no credentials: those come from the environment (`AWSSettings`).
public struct PublishTarget: Sendable, Equatable {
    /// The S3 bucket's name.
    public var bucket: String
    /// Key prefix without leading or trailing `/`; empty for the bucket's root.
    public var prefix: String
    /// `Cache-Control` of `manifest.json` and its signature (`manifest_cache_control`).
    public var manifestCacheControl = "max-age=60"
    /// Seconds a file stays in the bucket after the live manifest stopped listing it (`prune_after`),
    /// so a client holding the previous manifest still finds its files.
    public var pruneAfter: TimeInterval = 3600

    /// `Cache-Control` of bundles, deltas and reports: their names never change content.
    public static let immutableCacheControl = "public, max-age=31536000, immutable"

    /// A target in `bucket` under `prefix`, with the default cache settings.
    public init(bucket: String, prefix: String) {
        self.bucket = bucket
        self.prefix = prefix
    }

    /// Parses `s3://bucket/prefix`. The message of a failure never repeats the text, which might
    /// hold credentials someone put there.
    public static func parse(_ text: String) -> Result<PublishTarget, TargetError> {
        guard text.hasPrefix("s3://") else { return .failure(.notS3) }
        let rest = text.dropFirst("s3://".count)
        let bucket = String(rest.prefix { $0 != "/" })
        guard !bucket.contains("@"), !bucket.contains(":") else { return .failure(.credentialsInURL) }
        guard bucket.range(of: "^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$", options: .regularExpression) != nil, !bucket.contains("..") else {
            return .failure(.badBucket(bucket))
        }
        var prefix = String(rest.dropFirst(bucket.count))
        while prefix.hasPrefix("/") { prefix.removeFirst() }
        while prefix.hasSuffix("/") { prefix.removeLast() }
        let segments = prefix.split(separator: "/", omittingEmptySubsequences: false)
        guard prefix.isEmpty || !segments.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            return .failure(.badPrefix)
        }
        guard !prefix.contains("?"), !prefix.contains("#") else { return .failure(.badPrefix) }
        return .success(PublishTarget(bucket: bucket, prefix: prefix))
    }

    /// Why a `publish:` URL was refused.
    public enum TargetError: Error, Sendable, Equatable, CustomStringConvertible {
        case notS3, credentialsInURL, badBucket(String), badPrefix

        /// The reason, in one sentence.
        public var description: String {
            switch self {
            case .notS3: "the publish target must be an `s3://bucket/prefix` URL"
            case .credentialsInURL:
                "the publish target must not hold credentials: they come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment"
            case .badBucket(let bucket): "`\(bucket)` is not a bucket name (3–63 lower-case letters, digits, `.` and `-`)"
            case .badPrefix: "the key prefix after the bucket must be `/`-separated names, without empty, `.` or `..` parts"
            }
        }
    }

    /// The key of a file of a bundle's folder: `<prefix>/<bundle>/<path>`.
    public func key(bundle: String, _ path: String) -> String {
        (prefix.isEmpty ? "" : prefix + "/") + bundle + "/" + path
    }

    /// `s3://bucket/prefix/bundle/`, for reports.
    public func url(bundle: String) -> String { "s3://\(bucket)/\(key(bundle: bundle, ""))" }
}
