import BundleFormat
import FeedModel
import FeedSQLite

/// Compiles frozen feeds into the content of one bundle.
public struct BundleCompiler: Sendable {
    public init() {}

    /// The content of a bundle built from `sources`, with its meta rows. Each source is compiled
    /// on its own (up to `workers` at once) and their rows joined in the sources' order, so the
    /// content is the same whatever the worker count.
    ///
    /// Each source is let go as soon as its rows are made: when the caller hands its only copy
    /// over (`consume`), a source's tables (stop_times above all) are freed while later sources
    /// compile, and never sit beside the whole bundle's rows.
    public func compile(bundle name: String, version: Int, sources: consuming [SourceFeed], workers: Workers = Workers(1)) -> BundleContent {
        var content = BundleContent()
        let range = ServiceRange(sources.map(\.feed))
        let slots = sources.map(SourceSlot.init)
        _ = consume sources
        let parts = workers.map(slots) { slot in
            let source = slot.take()
            var part = BundleContent()
            StaticTablesCompiler(source: source).compile(into: &part)
            let runs = TripRuns(source.feed)
            let timetable = TimetableCompiler(source: source, runs: runs).compile(into: &part)
            DirectionsCompiler(source: source, runs: runs).compile(into: &part)
            TranslationsCompiler(source: source, timetable: timetable).compile(into: &part)
            return part
        }
        for part in parts { content.append(contentsOf: part) }
        StopIndexCompiler().compile(into: &content)
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

/// Holds one source until the worker compiling it takes it, so that the list of sources keeps
/// no copy of it. `@unchecked Sendable`: each slot is taken by exactly one worker.
private final class SourceSlot: @unchecked Sendable {
    private var source: SourceFeed?

    init(_ source: SourceFeed) { self.source = source }

    func take() -> SourceFeed {
        defer { source = nil }
        return source!
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
        // The last date some trip really runs (weekdays, removed dates and unused services
        // counted), when there is one: what riders see, and what `feedc build` warns about.
        end = ServiceDays.lastTripDay(feeds).map(CivilDate.iso) ?? format(last)
    }
}
