import BundleFormat
import FeedModel
import FeedPublish
import Foundation

/// What a build did for one bundle, and why. Written beside each published version
/// (`reports/<version>.json`) and printed by `feedc build --json`.
public struct BuildReport: Codable, Sendable {
    public enum Status: String, Codable, Sendable {
        /// A new version was published.
        case published
        /// Nothing changed since the latest version; nothing was written.
        case unchanged
        /// The feed was refused; the latest published version stays as it was.
        case refused
        /// A tool failure (download, disk, manifest) stopped this bundle; nothing was published.
        case failed
    }

    public var bundle: String
    public var status: Status
    /// The version published, or the latest one still in place.
    public var version: Int?
    public var digest: String?
    /// A sentence for people: why it was unchanged or refused.
    public var reason: String?
    public var sources: [FeedCheckReport]
    /// What the enhancement stages decided, per source.
    public var enhancements: [EnhancementReport]
    /// Row counts per bundle table (plus `stop_times`, the rows the view reconstructs).
    public var rows: [String: Int]?
    /// Seconds per stage.
    public var seconds: [String: Double]
    /// Deltas published with this version.
    public var deltas: [DeltaFile]?
    /// Rows inserted, updated and deleted per table since the previous version.
    public var changes: DeltaStatistics?
    /// The upload to the bundle's `publish:` target, when it has one.
    public var upload: UploadReport?

    public init(bundle: String, status: Status, version: Int? = nil, digest: String? = nil, reason: String? = nil,
                sources: [FeedCheckReport] = [], enhancements: [EnhancementReport] = [], rows: [String: Int]? = nil,
                seconds: [String: Double] = [:]) {
        self.bundle = bundle
        self.status = status
        self.version = version
        self.digest = digest
        self.reason = reason
        self.sources = sources
        self.enhancements = enhancements
        self.rows = rows
        self.seconds = seconds
    }

    public func json() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data()
    }
}

/// The validation of one dump: counts, notices by code, samples, repairs.
public struct FeedCheckReport: Codable, Sendable {
    public var source: String
    public var path: String
    public var fingerprint: String?
    /// Data rows in each file of the dump, as read.
    public var rowsRead: [String: Int]
    /// Rows each file lost to repairs.
    public var rowsDropped: [String: Int]
    /// Valid rows left out because bundles do not hold them (GTFS-Flex), per file.
    public var rowsLeftOut: [String: Int]
    /// Rows each file kept.
    public var rowsKept: [String: Int]
    public var errors: Int
    public var warnings: Int
    public var blocking: Bool
    public var notices: [NoticeSummary]
    /// Up to 50 examples of each code, with file, line, field and value.
    public var samples: [Notice]
    /// Seconds spent reading and validating.
    public var seconds: [String: Double]
}
