import BundleFormat
import FeedModel
import FeedSQLite

/// Compiles frozen feeds into the content of one bundle.
public struct BundleCompiler: Sendable {
    public init() {}

    /// The content of a bundle built from `sources`, with its meta rows.
    public func compile(bundle name: String, version: Int, sources: [SourceFeed]) -> BundleContent {
        var content = BundleContent()
        for source in sources {
            StaticTablesCompiler(source: source).compile(into: &content)
            let runs = TripRuns(source.feed)
            let timetable = TimetableCompiler(source: source, runs: runs).compile(into: &content)
            DirectionsCompiler(source: source, runs: runs).compile(into: &content)
            TranslationsCompiler(source: source, timetable: timetable).compile(into: &content)
        }
        StopIndexCompiler().compile(into: &content)
        let range = ServiceRange(sources.map(\.feed))
        var meta: [(String, String)] = [("bundle", name), ("format", String(BundleSchema.formatVersion)), ("version", String(version))]
        if let range {
            meta.append(("service_start", range.start))
            meta.append(("service_end", range.end))
        }
        for (key, value) in meta {
            content.append(BundleSchema.meta, [.text(key), .text(value)])
        }
        return content
    }
}

/// The first and last dates any trip runs, from calendar and calendar_dates, as `YYYY-MM-DD`.
public struct ServiceRange: Sendable, Equatable {
    public var start: String
    public var end: String

    public init?(_ feeds: [Feed]) {
        var first = Int.max
        var last = Int.min
        for feed in feeds {
            let calendar = feed.calendar
            let days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map { calendar.integers($0) }
            for (row, (s, e)) in zip(calendar.integers("start_date"), calendar.integers("end_date")).enumerated()
            where days.contains(where: { $0[row] == 1 }) {
                first = min(first, s)
                last = max(last, e)
            }
            let dates = feed.calendarDates
            for (date, type) in zip(dates.integers("date"), dates.integers("exception_type")) where type == 1 {
                first = min(first, date)
                last = max(last, date)
            }
        }
        guard first <= last else { return nil }
        func format(_ d: Int) -> String {
            let s = String(d)
            return "\(s.prefix(4))-\(s.dropFirst(4).prefix(2))-\(s.suffix(2))"
        }
        start = format(first)
        end = format(last)
    }
}
