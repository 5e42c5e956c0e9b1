import FeedDiff
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// Tiny feeds with one change of each kind, compiled on the fly: every category the diff reports,
/// with exact expected values.
@Suite struct SampleDiffTests {
    static let newFeed = TinyFeed.with([
        // One renamed, Two moved ~100 m north, Three renumbered (same name and place), Four added.
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One Plaza,53.1,18.0\nS2,Two,53.2009,18.1\nS3b,Three,53.3,18.2\nS4,Four,53.4,18.3\n",
        // Line 1 renamed and recoloured; line 2 added (tram).
        "routes.txt": "route_id,agency_id,route_short_name,route_type,route_color\nR1,A,1X,3,FF0000\nR2,A,2,0,\n",
        // T2 gone: line 1 runs once on weekdays instead of twice.
        "trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\nR2,WK,T3\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        T1,08:00:00,08:00:00,S1,1
        T1,08:05:00,08:05:00,S2,2
        T1,08:10:00,08:10:00,S3b,3
        T3,09:00:00,09:00:00,S3b,1
        T3,09:05:00,09:05:00,S4,2

        """,
        // Service extended by three months.
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260101,20270331\n",
    ])

    @Test func sameDumpIsIdentical() throws {
        let folder = TemporaryFolder()
        let dump = folder.feed("tiny", TinyFeed.files)
        let diff = try DiffRunner().diff(dump.path, dump.path)
        #expect(diff.identical)
        #expect(diff.old.digest == diff.new.digest)
        #expect(diff.counts.values.allSatisfy { $0.isZero })
        #expect(diff.lines.isEmpty && diff.stops.isEmpty && diff.calendar.isEmpty)
        #expect(DiffText().render(diff).contains("No changes"))
    }

    @Test func everyKindOfChange() throws {
        let folder = TemporaryFolder()
        let old = folder.feed("old", TinyFeed.files), new = folder.feed("new", Self.newFeed)
        let diff = try DiffRunner().diff(old.path, new.path)
        #expect(!diff.identical)
        #expect(diff.old.version == nil && diff.new.version == nil)

        // Stops.
        #expect(diff.stops.added.map(\.stopId) == ["S4"])
        #expect(diff.stops.removed.isEmpty)
        #expect(diff.stops.renamed == [StopRename(stopId: "S1", oldName: "One", newName: "One Plaza")])
        #expect(diff.stops.moved.map(\.stopId) == ["S2"])
        let moved = try #require(diff.stops.moved.first)
        #expect(abs(moved.distanceM - 100) < 1, "0.0009° of latitude is 100 m")
        #expect(diff.stops.renumbered.map { [$0.oldStopId, $0.newStopId] } == [["S3", "S3b"]])
        #expect(diff.counts["stops"] == ChangeCounts(old: 3, new: 4, added: 1, removed: 0, changed: 2, renumbered: 1))

        // Lines.
        #expect(diff.lines.added.map(\.routeId) == ["R2"])
        #expect(diff.lines.added.first?.tripsPerDay == DayCounts(weekday: 1))
        #expect(diff.lines.removed.isEmpty)
        let line = try #require(diff.lines.changed.first)
        #expect(diff.lines.changed.count == 1)
        #expect(line.routeId == "R1" && line.oldRouteId == nil)
        #expect(line.renamed == Change(old: "1", new: "1X"))
        #expect(line.recoloured == Change(old: "none on none", new: "#FF0000 on none"))
        #expect(line.typeChanged == nil)
        #expect(line.tripsPerDay == Change(old: DayCounts(weekday: 2), new: DayCounts(weekday: 1)))
        // Its one direction keeps its stops (S3 → S3b is a renumbering), and loses a trip.
        let direction = try #require(line.directions.first)
        #expect(direction.stopsAdded.isEmpty && direction.stopsRemoved.isEmpty && !direction.reordered)
        #expect(direction.tripsPerDay.new.weekday == 1)

        // Calendar: the three extra months are the weekdays of 2027-01-01 … 2027-03-31.
        #expect(diff.old.dayTypeDates == ["weekday": "2026-01-01", "saturday": "2026-01-03", "sunday": "2026-01-04"])
        #expect(diff.calendar.gained == [DateRange(first: "2027-01-01", last: "2027-03-31", dates: 64)])
        #expect(diff.calendar.lost.isEmpty)
        #expect(diff.calendar.changedDates == 0, "line 2's trip makes up for line 1's")
        #expect(diff.calendar.newWindow == DateRange(first: "2026-01-01", last: "2027-03-31", dates: 261 + 64))

        let text = DiffText().render(diff)
        #expect(text.contains("Route 1X weekday: 2 → 1 trips"))
        #expect(text.contains("S3 → S3b Three"))
        #expect(text.contains("2027-01-01 … 2027-03-31 (64 dates)"))
    }

    @Test func jsonRoundTripsWithTheDocumentedKeys() throws {
        let folder = TemporaryFolder()
        let diff = try DiffRunner().diff(folder.feed("old", TinyFeed.files).path, folder.feed("new", Self.newFeed).path)
        let data = try DiffJSON.encode(diff)
        let decoded = try DiffJSON.decode(data)
        #expect(decoded.lines == diff.lines && decoded.stops == diff.stops && decoded.calendar == diff.calendar)
        #expect(try DiffJSON.encode(decoded) == data, "stable bytes")
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "format", "identical", "old", "new", "counts", "id_churn", "lines", "stops", "calendar", "translations", "network", "settings",
            ])
        // A diff written before translations were compared still reads.
        var legacy = object
        legacy["translations"] = nil
        #expect(try DiffJSON.decode(JSONSerialization.data(withJSONObject: legacy)).translations.isEmpty)
        let stops = try #require(object["stops"] as? [String: Any])
        #expect(Set(stops.keys) == ["added", "removed", "renamed", "moved", "renumbered", "opposite_changed"])
    }

    @Test func renumberedLinesAreMatchedByName() throws {
        let folder = TemporaryFolder()
        let old = folder.feed("old", TinyFeed.files)
        let renamedIds = TinyFeed.with([
            "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1-2027,A,1,3\n",
            "trips.txt": "route_id,service_id,trip_id\nR1-2027,WK,T1\nR1-2027,WK,T2\n",
        ])
        let diff = try DiffRunner().diff(old.path, folder.feed("new", renamedIds).path)
        #expect(diff.lines.added.isEmpty && diff.lines.removed.isEmpty)
        #expect(diff.lines.changed.map(\.oldRouteId) == ["R1"])
        #expect(diff.counts["routes"]?.renumbered == 1)
    }

    @Test func badArgumentsAreErrors() throws {
        #expect(throws: DiffInputError.self) { try DiffInput.resolve("/nonexistent/feed.zip") }
        #expect(throws: DiffInputError.self) { try DiffInput.resolve("/nonexistent/out/b@3") }
        let folder = TemporaryFolder()
        let text = folder.url.appendingPathComponent("notes.txt")
        try "hello".write(to: text, atomically: true, encoding: .utf8)
        #expect(throws: DiffInputError.self) { try DiffInput.resolve(text.path) }
    }
}
