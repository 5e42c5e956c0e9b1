import FeedModel
import FeedSources
import FeedValidation
import Foundation

/// Reads and validates one GTFS dump: the read and validate stages, shared by `feedc validate`
/// and `feedc build`.
public struct FeedCheck: Sendable {
    /// The repaired, frozen feed; nil when the dump could not be read at all.
    public let feed: Feed?
    public let report: FeedCheckReport

    public init(url: URL, source: String, fingerprint: String? = nil) {
        let sink = NoticeSink()
        var clock = StageClock()
        let read = GTFSReader(url: url).read(into: sink)
        clock.lap("read")
        var rowsRead: [String: Int] = [:]
        if let read {
            for (_, table) in read.tables where table.isPresent {
                rowsRead[table.schema.fileName] = table.count + sink.droppedRows[table.schema.fileName, default: 0]
            }
        }
        let feed = read.map { Validator().validate($0, sink: sink) }
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
