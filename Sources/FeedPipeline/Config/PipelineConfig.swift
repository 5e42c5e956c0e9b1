import BundleFormat
import FeedEnhancement
import FeedPublish
import FeedSources
import Foundation

/// pipeline.yaml, parsed and checked. Every key is documented in README.md.
public struct PipelineConfig: Sendable, Equatable {
    /// The file it was read from; relative paths inside are relative to its folder.
    public var file: URL
    /// Output folder (`output`, default `out`).
    public var output: URL
    /// Versions kept per bundle (`keep`, default 10).
    public var keep: Int
    /// The bundles, in the file's order.
    public var bundles: [BundleConfig]
    /// The top-level `publish:` target, the default of every bundle.
    public var publish: PublishTarget?

    /// A config with no `publish:` target.
    public init(file: URL, output: URL, keep: Int, bundles: [BundleConfig]) {
        self.file = file
        self.output = output
        self.keep = keep
        self.bundles = bundles
    }
}

/// One bundle: a name and the sources compiled into it.
public struct BundleConfig: Sendable, Equatable {
    /// The bundle's name: its output folder and the manifest's `bundle`.
    public var name: String
    /// The sources compiled into the bundle, in the file's order.
    public var sources: [SourceConfig]
    /// When the bundle refuses a feed (`strictness:`).
    public var strictness: Strictness
    /// Thresholds of the opposite-stops matcher (`opposites:`).
    public var opposites: OppositeStopsSettings
    /// A delta larger than this share of the full bundle is not published (`max_delta_share`;
    /// docs/bundle-format.md, "Deltas", has the Wichita figures behind the default).
    public var maxDeltaShare: Double = 0.8
    /// File holding the Ed25519 private key (base64) that signs the manifest (`signing_key`).
    public var signingKey: URL?
    /// Optional virtual tables for apps that ship a full SQLite (`sqlite_modules: [rtree, fts5]`);
    /// none by default, so stock Android and web SQLite read the bundle.
    public var sqliteModules: SQLiteModules = []
    /// Where `feedc build` and `feedc publish` upload the bundle's folder (`publish:`, the
    /// bundle's own or the top-level one); nil: local output only.
    public var publish: PublishTarget?
    /// What a zip member of a source may unpack to (`zip_limits:`), against zip bombs.
    public var archiveLimits = ArchiveLimits.standard
    /// When the build warns, or fails, that the bundle's service is about to end (`service_end:`).
    public var serviceEnd = ServiceEndSettings()
    /// How the sources are joined into one network (`network:`).
    public var network = NetworkSettings()
    /// The overrides file of `network:`, for notices.
    public var networkOverridesFile: String?

    /// A bundle with the defaults for everything not given.
    public init(
        name: String, sources: [SourceConfig], strictness: Strictness = Strictness(),
        opposites: OppositeStopsSettings = OppositeStopsSettings()
    ) {
        self.name = name
        self.sources = sources
        self.strictness = strictness
        self.opposites = opposites
    }
}

/// When a bundle refuses a feed beyond the blocking problems every bundle refuses.
public struct Strictness: Sendable, Equatable, Codable {
    /// Refuse on any error-level notice, even a repaired one (`fail_on_error`).
    public var failOnError = false
    /// Refuse when repairs drop more than this share (0–1) of any file's rows (`max_dropped_share`).
    public var maxDroppedShare: Double?

    /// Thresholds; the default refuses only on blocking problems.
    public init(failOnError: Bool = false, maxDroppedShare: Double? = nil) {
        self.failOnError = failOnError
        self.maxDroppedShare = maxDroppedShare
    }
}

/// Where a source's dump comes from.
public enum SourceLocation: Sendable, Equatable {
    /// A zip or folder on disk (resolved against the config file's folder).
    case path(URL)
    /// An http(s) URL, fetched with conditional GET.
    case remote(URL)
}

/// The format of a source's dump (`format:`).
public enum SourceFormat: String, Sendable, Equatable, CaseIterable {
    /// A GTFS zip or folder.
    case gtfs
    /// A Kalkati.net `jp_database` XML dump (one file).
    case kalkati
    /// A folder of saved NextBus XML feed responses (or one response file).
    case nextbus
}

/// One source of a bundle.
public struct SourceConfig: Sendable, Equatable {
    /// The source's id, unique within its bundle: its prefix and its name in reports.
    public var id: String
    /// How the dump is read.
    public var format: SourceFormat
    /// Where the dump comes from (`path:` or `url:`).
    public var location: SourceLocation
    /// Put before every id from this source; default `<id>:` in a bundle of several sources.
    public var prefix: String
    /// The XSD a Kalkati dump is validated against (`schema:`, Kalkati sources only).
    public var schema: URL?
    /// The agency time zone of a legacy source (`timezone:`, Kalkati and NextBus sources only).
    public var timezone: String?
    /// The most a `url:` dump may be (`max_download_mb`, default 2048 MiB): a longer body ends
    /// the download.
    public var maxDownloadBytes: Int
    /// The time a `url:` download may take in all (`download_timeout`, seconds, default 900).
    public var downloadDeadline: TimeInterval
    /// How the source's GTFS-Realtime feed names trips, when not by `trip_id`
    /// (`realtime_trip_ids:`).
    public var realtimeTripIds: RealtimeTripIdConvention?

    /// A source; limits and legacy settings default as in pipeline.yaml.
    public init(
        id: String, format: SourceFormat, location: SourceLocation, prefix: String,
        schema: URL? = nil, timezone: String? = nil, maxDownloadBytes: Int = 2048 << 20, downloadDeadline: TimeInterval = 900
    ) {
        self.id = id
        self.format = format
        self.location = location
        self.prefix = prefix
        self.schema = schema
        self.timezone = timezone
        self.maxDownloadBytes = maxDownloadBytes
        self.downloadDeadline = downloadDeadline
    }
}

/// A GTFS-Realtime trip-id convention of a source (`realtime_trip_ids:`).
public enum RealtimeTripIdConvention: String, Sendable, Equatable, CaseIterable {
    /// New York City Transit's: origin time in hundredths of a minute, `_`, then the trip's
    /// `mta_trip_id` column of trips.txt (`036050_2..S07R`).
    case nyct
}

/// `service_end:` thresholds, per bundle or at the top level: warn when the last date with service
/// is `warn_days` days away or fewer, fail (exit status 3, the bundle is still published) within
/// `fail_within_days`.
public struct ServiceEndSettings: Sendable, Equatable {
    /// Days before the end at which the build warns, largest first (default 30 and 7).
    public var warnDays: [Int] = [30, 7]
    /// Days before the end at which the build fails (exit status 3); nil: never.
    public var failWithinDays: Int?

    /// Thresholds; by default warn at 30 and 7 days, never fail.
    public init(warnDays: [Int] = [30, 7], failWithinDays: Int? = nil) {
        self.warnDays = warnDays
        self.failWithinDays = failWithinDays
    }
}
