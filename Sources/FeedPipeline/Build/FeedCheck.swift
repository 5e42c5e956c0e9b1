import FeedLegacySources
import FeedModel
import FeedSources
import FeedValidation
import Foundation

/// Reads and validates one dump: the read and validate stages, shared by `feedc validate`
/// and `feedc build`. The dump's format picks the reader; every reader gives the same GTFS-shaped
/// ``Feed``, so validation and everything after it is the same for all formats.
public struct FeedCheck: Sendable {
    /// The repaired, frozen feed; nil when the dump could not be read at all.
    public let feed: Feed?
    /// Counts, notices and samples of the read and validation.
    public let report: FeedCheckReport

    /// - Parameters:
    ///   - format: the dump's format; nil detects it from the content (``LegacyFormat/detect(_:)``,
    ///     else GTFS), as `feedc validate` does.
    ///   - options: a legacy source's `schema:` and `timezone:`.
    ///   - limits: what a zip member may unpack to (GTFS zips).
    ///   - samplesPerCode: examples kept per notice code (every count stays exact).
    ///   - today: the validation date, a day number (``CivilDate``) the calendar rules measure
    ///     against (`feedc validate --date`); nil is today in UTC.
    ///   - workers: how many threads may read the files and run the rules side by side (the
    ///     result is the same with any number).
    public init(
        url: URL, source: String, fingerprint: String? = nil, format: SourceFormat? = .gtfs,
        options: LegacyReadOptions = LegacyReadOptions(), limits: ArchiveLimits = .standard,
        samplesPerCode: Int = 50, today: Int? = nil, workers: Workers = .fromEnvironment()
    ) {
        let sink = NoticeSink(samplesPerCode: samplesPerCode)
        var clock = StageClock()
        let format = format ?? LegacyFormat.detect(url).flatMap { SourceFormat(rawValue: $0.rawValue) } ?? .gtfs
        let read: Feed? =
            switch format {
            case .gtfs: GTFSReader(url: url, limits: limits).read(into: sink, workers: workers)
            case .kalkati: KalkatiReader(url: url, options: options).read(into: sink)
            case .nextbus: NextBusReader(url: url, options: options).read(into: sink)
            }
        clock.lap("read")
        var rowsRead: [String: Int] = [:]
        if let read {
            for (_, table) in read.tables where table.isPresent {
                rowsRead[table.schema.fileName] = table.count + sink.droppedRows[table.schema.fileName, default: 0]
            }
        }
        let validator = today.map { Validator(today: $0) } ?? Validator()
        // Line numbers serve the notices only: the frozen feed goes on without them.
        let feed = read.map { validator.validate($0, sink: sink, workers: workers).forgettingLines() }
        clock.lap("validate")
        var kept: [String: Int] = [:]
        for (_, table) in feed?.tables ?? [:] where table.isPresent { kept[table.schema.fileName] = table.count }
        self.feed = feed
        self.report = FeedCheckReport(
            source: source, path: url.path, fingerprint: fingerprint, rowsRead: rowsRead, rowsDropped: sink.droppedRows,
            rowsLeftOut: sink.leftOutRows, rowsKept: kept, errors: sink.count(severity: .error), warnings: sink.count(severity: .warning),
            blocking: sink.hasBlocking || feed == nil, notices: sink.summary, samples: sink.samples, seconds: clock.seconds)
    }

    /// Why a bundle with these strictness settings refuses this feed, or nil when it accepts it.
    public func refusal(under strictness: Strictness) -> String? {
        if feed == nil || report.blocking {
            let reasons = report.samples.filter(\.blocksPublication).map { "\($0.location): \($0.message)" }
            return "unusable feed: " + (reasons.isEmpty ? "the dump could not be read" : reasons.prefix(5).joined(separator: "; "))
        }
        if strictness.failOnError && report.errors > 0 {
            return "fail_on_error is set and the feed has \(report.errors) error-level notices"
        }
        if let limit = strictness.maxDroppedShare {
            for (file, dropped) in report.rowsDropped.sorted(by: { $0.key < $1.key }) {
                let total = report.rowsRead[file, default: 0]
                if total > 0 && Double(dropped) / Double(total) > limit {
                    return "repairs dropped \(dropped) of \(total) rows of \(file), more than max_dropped_share \(limit)"
                }
            }
        }
        return nil
    }
}
