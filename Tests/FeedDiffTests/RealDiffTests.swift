import FeedDiff
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// Real version pairs of `../shared/data/gtfs/versions`, each side compiled on the fly. The
/// figures are checked against numbers computed here from the raw CSV: ids added and removed,
/// and every reported line's trips per day on each side's representative dates.
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
struct RealDiffTests {
    static func dump(_ name: String) -> URL {
        SharedData.url("gtfs/versions/\(name.split(separator: "_")[0])/\(name)")
    }

    /// Runs the diff and reads both raw dumps.
    static func diff(_ old: String, _ new: String) throws -> (FeedDiff, RawGTFS, RawGTFS) {
        let a = dump(old), b = dump(new)
        return (try DiffRunner().diff(a.path, b.path), try RawGTFS(a), try RawGTFS(b))
    }

    @Test func wichitaRepublishHasNoChanges() throws {
        let diff = try DiffRunner().diff(Self.dump("wichita_commit2019-03-05.zip").path, Self.dump("wichita_commit2019-06-04.zip").path)
        #expect(diff.identical)
        #expect(diff.old.digest == diff.new.digest)
        #expect(DiffText().render(diff).contains("No changes: both sides hold the same content."))
    }

    @Test func wichitaServiceCutOfApril2020() throws {
        let (diff, old, new) = try Self.diff("wichita_commit2019-10-09.zip", "wichita_commit2020-04-17.zip")
        #expect(!diff.identical)
        #expect(diff.idChurn.isEmpty)
        try checkIds(diff, old, new)
        try checkLineFigures(diff, old, new)
        // Three "Q" lines gone; route 24 loses a quarter of its weekday trips.
        #expect(diff.lines.removed.count == 3)
        #expect(DiffText(limit: 0).render(diff).contains("Route 24 weekday: 48 → 36 trips"))
        let route24 = try #require(diff.lines.changed.first { $0.shortName == "24" })
        let id24 = try #require(old.rows("routes.txt").first { $0["route_short_name"] == "24" }?["route_id"])
        #expect(route24.tripsPerDay.old.weekday == old.trips(route: id24, on: RawGTFS.date(diff.old.dayTypeDates["weekday"]!)))
        #expect(route24.tripsPerDay.new.weekday == 36)
        // The calendar: the old version's service ended on 2020-01-01, the new one starts on 2020-04-11.
        #expect(diff.calendar.oldWindow?.last == "2020-01-01")
        #expect(diff.calendar.newWindow?.first == "2020-04-11")
        try checkWindows(diff, old, new)
    }

    @Test func bartReplacedEveryTripId() throws {
        let (diff, old, new) = try Self.diff("bart_2016-02_v38_tlib.zip", "bart_2018-05_v47_tlib.zip")
        #expect(diff.idChurn.map(\.kind).contains("trips"))
        let churn = try #require(diff.idChurn.first { $0.kind == "trips" })
        #expect(churn.kept == old.ids("trips.txt", "trip_id").intersection(new.ids("trips.txt", "trip_id")).count)
        #expect(churn.kept == 0)
        try checkIds(diff, old, new)
        try checkLineFigures(diff, old, new)
        #expect(diff.stops.added.count == 3)
        #expect(DiffText().render(diff).contains("trips: 100% of the old ids replaced"))
    }

    @Test func caltrainLinesMatchedByNameAfterIdChurn() throws {
        let (diff, old, new) = try Self.diff("caltrain_2016-04-14_nodegtfs.zip", "caltrain_2018-06-12_tlib.zip")
        #expect(diff.idChurn.map(\.kind).contains("routes"))
        #expect(diff.idChurn.map(\.kind).contains("calendar"))
        // Local, Limited and Baby Bullet keep their long names under new ids.
        let matched = Dictionary(uniqueKeysWithValues: diff.lines.changed.compactMap { c in c.oldRouteId.map { ($0, c.routeId) } })
        #expect(matched["Lo-16APR"] == "Lo-130")
        #expect(matched["Li-16APR"] == "Li-130")
        #expect(matched["Bu-16APR"] == "Bu-130")
        try checkIds(diff, old, new)
        try checkLineFigures(diff, old, new)
    }

    @Test func pathCalendarWindows() throws {
        let (diff, old, new) = try Self.diff("path_commit2025-10-27.zip", "path_commit2025-11-10.zip")
        try checkIds(diff, old, new)
        try checkLineFigures(diff, old, new)
        try checkWindows(diff, old, new)
    }

    @Test func amtrakOnlyFeedInfoChanged() throws {
        let (diff, old, new) = try Self.diff("amtrak_commit2021-09-06.zip", "amtrak_commit2021-10-05.zip")
        #expect(!diff.identical)
        #expect(diff.idChurn.isEmpty)
        // Only feed_info.txt differs between these two dumps.
        #expect(diff.counts.filter { !$0.value.isZero }.map(\.key) == ["feeds"])
        #expect(diff.lines.isEmpty && diff.stops.isEmpty && diff.calendar.isEmpty)
        try checkIds(diff, old, new)
    }

    @Test func amtrakLinesAndStations2017To2018() throws {
        let (diff, old, new) = try Self.diff("amtrak_commit2017-05-15.zip", "amtrak_commit2018-08-28.zip")
        #expect(diff.idChurn.map(\.kind).contains("trips"))
        #expect(!diff.lines.added.isEmpty && !diff.lines.removed.isEmpty)
        try checkIds(diff, old, new)
        try checkLineFigures(diff, old, new)
    }

    // MARK: independent checks

    /// Lines and stops added and removed are exactly the ids one raw dump has and the other
    /// lacks, less those reported as renumbered.
    private func checkIds(_ diff: FeedDiff, _ old: RawGTFS, _ new: RawGTFS, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let oldStops = old.ids("stops.txt", "stop_id"), newStops = new.ids("stops.txt", "stop_id")
        let renumberedOld = Set(diff.stops.renumbered.map(\.oldStopId)), renumberedNew = Set(diff.stops.renumbered.map(\.newStopId))
        #expect(Set(diff.stops.removed.map(\.stopId)) == oldStops.subtracting(newStops).subtracting(renumberedOld), sourceLocation: sourceLocation)
        #expect(Set(diff.stops.added.map(\.stopId)) == newStops.subtracting(oldStops).subtracting(renumberedNew), sourceLocation: sourceLocation)
        #expect(diff.counts["stops"]?.old == oldStops.count && diff.counts["stops"]?.new == newStops.count, sourceLocation: sourceLocation)
        let oldRoutes = old.ids("routes.txt", "route_id"), newRoutes = new.ids("routes.txt", "route_id")
        let matchedOld = Set(diff.lines.changed.compactMap(\.oldRouteId))
        let matchedNew = Set(diff.lines.changed.filter { $0.oldRouteId != nil }.map(\.routeId))
        #expect(Set(diff.lines.removed.map(\.routeId)) == oldRoutes.subtracting(newRoutes).subtracting(matchedOld), sourceLocation: sourceLocation)
        #expect(Set(diff.lines.added.map(\.routeId)) == newRoutes.subtracting(oldRoutes).subtracting(matchedNew), sourceLocation: sourceLocation)
    }

    /// Every line the diff reports: its trips per day on each day type, on each side's
    /// representative date, equal the raw count.
    private func checkLineFigures(_ diff: FeedDiff, _ old: RawGTFS, _ new: RawGTFS, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        func raw(_ side: RawGTFS, _ dates: [String: String], _ route: String) -> DayCounts {
            var counts = DayCounts()
            for type in DayType.allCases {
                if let date = dates[type.rawValue] { counts[type] = side.trips(route: route, on: RawGTFS.date(date)) }
            }
            return counts
        }
        for line in diff.lines.added {
            #expect(line.tripsPerDay == raw(new, diff.new.dayTypeDates, line.routeId), "added \(line.routeId)", sourceLocation: sourceLocation)
        }
        for line in diff.lines.removed {
            #expect(line.tripsPerDay == raw(old, diff.old.dayTypeDates, line.routeId), "removed \(line.routeId)", sourceLocation: sourceLocation)
        }
        for line in diff.lines.changed {
            #expect(
                line.tripsPerDay.old == raw(old, diff.old.dayTypeDates, line.oldRouteId ?? line.routeId), "\(line.routeId) before",
                sourceLocation: sourceLocation)
            #expect(line.tripsPerDay.new == raw(new, diff.new.dayTypeDates, line.routeId), "\(line.routeId) after", sourceLocation: sourceLocation)
        }
    }

    /// Each side's window (first and last dates with trips) computed from the raw dump.
    private func checkWindows(_ diff: FeedDiff, _ old: RawGTFS, _ new: RawGTFS, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        for (raw, window) in [(old, diff.calendar.oldWindow), (new, diff.calendar.newWindow)] {
            let window = try #require(window, sourceLocation: sourceLocation)
            let first = RawGTFS.date(window.first), last = RawGTFS.date(window.last)
            #expect(raw.trips(on: first) > 0, sourceLocation: sourceLocation)
            #expect(raw.trips(on: last) > 0, sourceLocation: sourceLocation)
            #expect(
                raw.trips(on: RawGTFS.date(shifted(window.first, by: -1))) == 0, "nothing runs the day before \(window.first)", sourceLocation: sourceLocation)
            #expect(raw.trips(on: RawGTFS.date(shifted(window.last, by: 1))) == 0, "nothing runs the day after \(window.last)", sourceLocation: sourceLocation)
        }
    }

    /// `YYYY-MM-DD` moved by whole days.
    private func shifted(_ iso: String, by days: Int) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        let date = formatter.date(from: iso)!.addingTimeInterval(Double(days) * 86400)
        return formatter.string(from: date)
    }
}
