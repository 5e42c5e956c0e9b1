import BundleFormat
import FeedModel
import FeedSQLite
import Foundation

/// Compiles frozen feeds into the content of one bundle.
package struct BundleCompiler: Sendable {
    package init() {}

    /// The content of a bundle built from `sources`, with its meta rows. Each source is compiled
    /// on its own (up to `workers` at once) and their rows joined in the sources' order, so the
    /// content is the same whatever the worker count.
    ///
    /// Each source is let go as soon as its rows are made: when the caller hands its only copy
    /// over (`consume`), a source's tables (stop_times above all) are freed while later sources
    /// compile, and never sit beside the whole bundle's rows.
    package func compile(bundle name: String, version: Int, sources: consuming [SourceFeed], workers: Workers = Workers(1)) -> BundleContent {
        let range = ServiceRange(sources.map(\.feed))
        let slots = sources.map { Handover($0, cost: $0.feed.stopTimes.count) }
        _ = consume sources
        // Only when a worker would otherwise wait: with as many sources as workers, the sources
        // already keep every core busy (the region's compile was 0.84 -> 0.89 s with it).
        let beside = workers.count > slots.count
        let parts = workers.map(slots, largestFirst: \.cost) { slot in
            let source = slot.take()
            let feed = source.feed, prefix = source.prefix
            return compile(source: source, drafting: beside ? workers.beside { DraftedTimetable(feed: feed, prefix: prefix) } : nil)
        }
        return join(bundle: name, version: version, parts: parts, range: range)
    }

    /// One source's rows, all but `meta`'s. With `drafting`, its timetable is being compiled on a
    /// pool thread, or will be here when it is waited for (a build starts it beside the
    /// enhancement stages: it needs nothing of them but its patterns' directions); the rows that
    /// need nothing of the timetable are made meanwhile.
    /// Before, with a worker to spare, those rows were made beside the timetable instead (Bydgoszcz
    /// compile 0.219 -> 0.197 s); with the timetable beside the enhancement, the directions,
    /// opposites and compile stages went from 0.275 to 0.166 s.
    package func compile(source: consuming SourceFeed, drafting: Pending<DraftedTimetable>? = nil) -> BundleContent {
        let source = source
        let runs = TripRuns(source.feed)
        var part = BundleContent(), directionsPart = BundleContent(), timetablePart = BundleContent()
        StaticTablesCompiler(source: source).compile(into: &part)
        DirectionsCompiler(source: source, runs: runs).compile(into: &directionsPart)
        let timetable: CompiledTimetable
        if let drafted = drafting?.wait() {
            timetablePart = drafted.content
            timetable = drafted.compiled
        } else {
            timetable = TimetableCompiler(source: source, runs: runs).compile(into: &timetablePart)
        }
        timetable.writePatterns(directions: source.directions, into: &timetablePart)
        part.append(contentsOf: timetablePart)
        part.append(contentsOf: directionsPart)
        TranslationsCompiler(source: source, timetable: timetable).compile(into: &part)
        TransfersCompiler(source: source).compile(into: &part)
        // A stop's search rows need only it and its translations, which are the source's
        // own (ids carry the source's prefix): made here, side by side, not once for all.
        StopIndexCompiler().compile(into: &part)
        return part
    }

    /// The bundle's content: the sources' rows in the sources' order, then the meta rows.
    package func join(bundle name: String, version: Int, parts: consuming [BundleContent], range: ServiceRange?) -> BundleContent {
        var content = BundleContent()
        for part in parts { content.append(contentsOf: part) }
        var meta: [(String, String)] = [("bundle", name), ("format", String(BundleSchema.formatVersion)), ("version", String(version))]
        if let range {
            meta.append(("service_start", range.start))
            meta.append(("service_end", range.end))
        }
        for (key, value) in meta {
            content.append(MetaRow(key: key, value: value))
        }
        return content
    }
}

/// The first and last dates any trip runs, from calendar and calendar_dates, as `YYYY-MM-DD`.
package struct ServiceRange: Sendable, Equatable {
    package var start: String
    package var end: String

    package init?(_ feeds: [Feed]) {
        var first = Int.max
        var last = Int.min
        for feed in feeds {
            let calendar = feed.calendar
            let days = FieldKey.weekdays.map { calendar.integers($0) }
            for (row, (s, e)) in zip(calendar.integers(.startDate), calendar.integers(.endDate)).enumerated()
            where days.contains(where: { $0[row] == 1 }) {
                first = min(first, s)
                last = max(last, e)
            }
            let dates = feed.calendarDates
            for (date, type) in zip(dates.integers(.date), dates.integers(.exceptionType)) where type == 1 {
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
