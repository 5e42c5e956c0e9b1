import BundleFormat
import BundleWriter
import FeedModel
import FeedPublish
import Foundation

/// What a build did for one bundle, and why. Written beside each published version
/// (`reports/<version>.json`) and printed by `feedc build --json`.
public struct BuildReport: Codable, Sendable {
    /// What became of the bundle.
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

    /// The bundle's name.
    public var bundle: String
    /// Published, unchanged, refused or failed.
    public var status: Status
    /// The version published, or the latest one still in place.
    public var version: Int?
    /// The content digest of `version`, `sha256:…`.
    public var digest: String?
    /// A sentence for people: why it was unchanged or refused.
    public var reason: String?
    /// The validation of each source, in the config's order.
    public var sources: [FeedCheckReport]
    /// What the enhancement stages decided, per source.
    public var enhancements: [EnhancementReport]
    /// What the network stage made of the sources together.
    public var network: NetworkReport?
    /// Row counts per bundle table (plus `stop_times`, the rows the view reconstructs).
    public var rows: [String: Int]?
    /// A digest of each table of the version published (32 hex digits,
    /// `ContentDigest.tableDigests`): a later build reads them from this version's report to
    /// compute its delta from this version over only the tables that changed.
    public var tableDigests: [String: String]?
    /// Seconds per stage.
    public var seconds: [String: Double]
    /// Deltas published with this version.
    public var deltas: [DeltaFile]?
    /// Retained versions that got no delta, and why.
    public var droppedDeltas: [DroppedDelta]?
    /// Rows inserted, updated and deleted per table since the previous version.
    public var changes: DeltaStatistics?
    /// The upload to the bundle's `publish:` target, when it has one.
    public var upload: UploadReport?
    /// How soon the bundle's service ends (the published version's, or the one still in place).
    public var serviceEnd: ServiceEndCheck?

    enum CodingKeys: String, CodingKey {
        case bundle, status, version, digest, reason, sources, enhancements, network, rows, seconds, deltas, changes, upload
        case serviceEnd = "service_end"
        case tableDigests = "table_digests"
        case droppedDeltas = "dropped_deltas"
    }

    /// A report; the stages fill in the rest as they run.
    public init(
        bundle: String, status: Status, version: Int? = nil, digest: String? = nil, reason: String? = nil,
        sources: [FeedCheckReport] = [], enhancements: [EnhancementReport] = [], rows: [String: Int]? = nil,
        seconds: [String: Double] = [:]
    ) {
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

    /// The report as stable JSON (sorted keys), as written to `reports/<version>.json`.
    public func json() -> Data {
        (try? StableJSON.encoder().encode(self)) ?? Data()
    }
}

/// The validation of one dump: counts, notices by code, samples, repairs.
public struct FeedCheckReport: Codable, Sendable {
    /// JSON keys are snake_case in every `--json` output and report (issue 15).
    enum CodingKeys: String, CodingKey {
        case source
        case path
        case fingerprint
        case rowsRead = "rows_read"
        case rowsDropped = "rows_dropped"
        case rowsLeftOut = "rows_left_out"
        case rowsKept = "rows_kept"
        case errors
        case warnings
        case blocking
        case notices
        case samples
        case seconds
    }

    /// The source's id.
    public var source: String
    /// The dump read: a path, or the cached download of a `url:`.
    public var path: String
    /// SHA-256 of the dump; nil when it was not fetched.
    public var fingerprint: String?
    /// Data rows in each file of the dump, as read.
    public var rowsRead: [String: Int]
    /// Rows each file lost to repairs.
    public var rowsDropped: [String: Int]
    /// Valid rows left out because bundles do not hold them (GTFS-Flex), per file.
    public var rowsLeftOut: [String: Int]
    /// Rows each file kept.
    public var rowsKept: [String: Int]
    /// Error-level notices.
    public var errors: Int
    /// Warning-level notices.
    public var warnings: Int
    /// True when a problem keeps the dump out of any bundle.
    public var blocking: Bool
    /// Notices counted by code, with their severity and description.
    public var notices: [NoticeSummary]
    /// Examples of each code (50 unless `FeedCheck` is asked for more), with file, line, field and value.
    public var samples: [Notice]
    /// Seconds spent reading and validating.
    public var seconds: [String: Double]
}

/// The last date with service of a bundle against today (`FEEDC_TODAY`, else the UTC date), and
/// the level the bundle's `service_end:` thresholds give it.
public struct ServiceEndCheck: Codable, Sendable, Equatable {
    /// What the thresholds make of the date.
    public enum Level: String, Codable, Sendable {
        case ok, warn, fail
    }

    enum CodingKeys: String, CodingKey {
        case lastDate = "last_date"
        case daysLeft = "days_left"
        case level
        case warnDays = "warn_days"
        case failWithinDays = "fail_within_days"
    }

    /// `YYYY-MM-DD`: the last date on which some trip runs.
    public var lastDate: String
    /// Days from today to that date: 0 on the last day, negative once service has ended.
    public var daysLeft: Int
    /// `ok`, `warn` (within a `warn_days`) or `fail` (within `fail_within_days`).
    public var level: Level
    /// The `warn_days` thresholds applied.
    public var warnDays: [Int]
    /// The `fail_within_days` threshold applied; nil: never fail.
    public var failWithinDays: Int?

    /// nil when the date cannot be read.
    public init?(lastDate: String, today: Int, settings: ServiceEndSettings) {
        guard let last = CivilDate.parse(lastDate) else { return nil }
        let daysLeft = last - today
        self.lastDate = lastDate
        self.daysLeft = daysLeft
        warnDays = settings.warnDays
        failWithinDays = settings.failWithinDays
        if let fail = settings.failWithinDays, daysLeft <= fail {
            level = .fail
        } else if settings.warnDays.contains(where: { daysLeft <= $0 }) {
            level = .warn
        } else {
            level = .ok
        }
    }

    /// Every key present: `fail_within_days` is null when not set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lastDate, forKey: .lastDate)
        try container.encode(daysLeft, forKey: .daysLeft)
        try container.encode(level, forKey: .level)
        try container.encode(warnDays, forKey: .warnDays)
        try container.encode(failWithinDays, forKey: .failWithinDays)
    }

    /// The smallest `warn_days` threshold the end falls within, if any.
    public var warnedWithin: Int? { warnDays.filter { daysLeft <= $0 }.min() }

    /// Today as a day number: `FEEDC_TODAY` (`YYYY-MM-DD`) when set, else the current UTC date.
    /// nil when `FEEDC_TODAY` is set but not a date.
    public static func today(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int? {
        if let text = environment["FEEDC_TODAY"], !text.isEmpty { return CivilDate.parse(text) }
        return Int((Date().timeIntervalSince1970 / 86_400).rounded(.down))
    }
}
