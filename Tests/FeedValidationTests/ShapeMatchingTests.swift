import FeedModel
import FeedSources
import Foundation
import TestSupport
import Testing

@testable import FeedValidation

/// MobilityData's stop-to-shape matching (``ShapeToStopMatchingRule``), on the shape of their
/// tests (ten points in Zürich, `shape_dist_traveled` 0 to 9): feeds that raise each code and
/// one that must not, their matcher tests with their settings, and real feeds counted as
/// gtfs-guru counts them.
@Suite struct ShapeMatchingTests {
    static let points: [(Double, Double)] = [
        (47.365399, 8.525138), (47.366013, 8.524972), (47.366073, 8.525384), (47.364120, 8.525886),
        (47.364046, 8.525559), (47.364376, 8.525376), (47.364976, 8.525258), (47.365016, 8.525666),
        (47.365103, 8.525650), (47.365143, 8.526015),
    ]

    static let codes = [
        "stop_too_far_from_shape", "stop_too_far_from_shape_using_user_distance",
        "stops_match_shape_out_of_order", "stop_has_too_many_matches_for_shape",
    ]

    /// A feed whose trip T1 (route type `routeType`) runs on the test shape, calling at stops at
    /// `stops`, with `distances` as their shape_dist_traveled (nil: none).
    static func feed(_ stops: [(Double, Double)], distances: [Double?], routeType: Int = 3) -> [String: String] {
        let shapes = points.enumerated().map { "SH,\($1.0),\($1.1),\($0),\($0)" }
        let stopRows = stops.enumerated().map { "S\($0),Stop \($0),\($1.0),\($1.1)" }
        let times = distances.enumerated().map { i, d in
            let time = String(format: "08:%02d:00", i)
            return "T1,\(time),\(time),S\(i),\(i + 1),\(d.map { String($0) } ?? "")"
        }
        return TinyFeed.with([
            "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,\(routeType)\n",
            "trips.txt": "route_id,service_id,trip_id,shape_id\nR1,WK,T1,SH\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\n" + stopRows.joined(separator: "\n") + "\n",
            "shapes.txt": "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled\n" + shapes.joined(separator: "\n") + "\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled\n" + times.joined(separator: "\n") + "\n",
        ])
    }

    /// The counts of the four codes.
    static func counts(_ files: [String: String]) throws -> [Int] {
        let (_, sink) = try RuleFixture.validate(files)
        return codes.map { sink.count(of: $0) }
    }

    static let good: [(Double, Double)] = [(47.365478, 8.525152), (47.365051, 8.525622), (47.364991, 8.525632)]

    @Test func stopsAlongTheShapeRaiseNothing() throws {
        #expect(try Self.counts(Self.feed(Self.good, distances: [0.2, 2.4, 6.8])) == [0, 0, 0, 0])
        #expect(try Self.counts(Self.feed(Self.good, distances: [nil, nil, nil])) == [0, 0, 0, 0])
    }

    @Test func aStopFarFromTheShape() throws {
        // The middle stop is 151 m from the shape (MobilityData's tooFar test): too far by
        // position, and the trip then is not matched by distance.
        var stops = Self.good
        stops[1] = (47.366375, 8.527333)
        let (_, sink) = try RuleFixture.validate(Self.feed(stops, distances: [0.2, 2.4, 6.8]))
        #expect(Self.codes.map { sink.count(of: $0) } == [1, 0, 0, 0])
        let notice = try #require(sink.samples.first { $0.code == "stop_too_far_from_shape" })
        #expect(notice.severity == .warning && notice.file == "stop_times.txt" && notice.line == 3 && notice.value == "S1")
        #expect(notice.message.contains("151 m") && notice.message.contains("(47.366073, 8.525384)"))
        // A rail trip's first and last stations may be 400 m away; the others may not.
        var ends = Self.good
        ends[0] = (47.3672, 8.5251)
        #expect(try Self.counts(Self.feed(ends, distances: [nil, nil, nil], routeType: 2)) == [0, 0, 0, 0])
        #expect(try Self.counts(Self.feed(ends, distances: [nil, nil, nil], routeType: 3)) == [1, 0, 0, 0])
    }

    @Test func aDistancePlacingTheStopFarFromIt() throws {
        // S1 is on the shape, but its distance (1.0) is the shape's second point, 118 m away.
        let (_, sink) = try RuleFixture.validate(Self.feed(Self.good, distances: [0.2, 1.0, 6.8]))
        #expect(Self.codes.map { sink.count(of: $0) } == [0, 1, 0, 0])
        let notice = try #require(sink.samples.first { $0.code == "stop_too_far_from_shape_using_user_distance" })
        #expect(notice.value == "S1" && notice.message.contains("shape_dist_traveled"))
    }

    @Test func stopsInTheWrongOrderAlongTheShape() throws {
        // The first stop lies near the shape's fourth point, the second near its second.
        let stops = [(47.364107, 8.525701), (47.366026, 8.525189)]
        #expect(try Self.counts(Self.feed(stops, distances: [nil, nil])) == [0, 0, 1, 0])
    }

    @Test func tripsWithTheSameStopsAndDistancesAreMatchedOnce() throws {
        // T2 repeats T1 (a missing distance counts as 0, as in MobilityData); T3's first
        // distance differs, so it is matched too and its stops are out of order again.
        var files = Self.feed([(47.364107, 8.525701), (47.366026, 8.525189)], distances: [nil, nil])
        files["trips.txt"]! += "R1,WK,T2,SH\nR1,WK,T3,SH\n"
        files["stop_times.txt"]! +=
            "T2,09:00:00,09:00:00,S0,1,0\nT2,09:01:00,09:01:00,S1,2,\n"
            + "T3,10:00:00,10:00:00,S0,1,0.5\nT3,10:01:00,10:01:00,S1,2,\n"
        #expect(try Self.counts(files) == [0, 0, 2, 0])
        // A stop too far from the shape is reported once per shape, whatever the trips.
        var far = Self.feed([(47.365478, 8.525152), (47.366375, 8.527333)], distances: [nil, nil])
        far["trips.txt"]! += "R1,WK,T2,SH\n"
        far["stop_times.txt"]! += "T2,09:00:00,09:00:00,S1,1,\nT2,09:01:00,09:01:00,S0,2,\n"
        #expect(try Self.counts(far) == [1, 0, 0, 0])
    }

    // MobilityData's matcher tests (StopToShapeMatcherTest), with their settings (150 m unless
    // said) and their expected matches: segment, metres along the shape, metres from the stop,
    // position.

    static var line: ShapeLine {
        ShapeLine(latitudes: points.map(\.0), longitudes: points.map(\.1), distances: points.indices.map(Double.init))
    }

    static func stops(_ positions: [(Double, Double)], distances: [Double]? = nil, large: Bool = false) -> [StopToShapeMatcher.Stop] {
        positions.enumerated().map { i, p in
            .init(
                location: SpherePoint(latitude: p.0, longitude: p.1), userDistance: distances?[i] ?? 0,
                isLargeStation: large && (i == 0 || i == positions.count - 1), key: i)
        }
    }

    static func matcher(_ settings: StopToShapeMatcher.Settings = .init(maxDistance: 150)) -> StopToShapeMatcher {
        StopToShapeMatcher(shape: line, settings: settings)
    }

    static func byDistance(_ stops: [StopToShapeMatcher.Stop]) -> StopToShapeMatcher.Result {
        var matcher = matcher()
        return matcher.matchByDistance(stops)
    }

    static func byPosition(_ stops: [StopToShapeMatcher.Stop]) -> StopToShapeMatcher.Result {
        var matcher = matcher()
        return matcher.matchByPosition(stops)
    }

    /// Whether the match is MobilityData's expected one, within their 0.1 (metres; degrees for the
    /// position, which we check to 1e-6).
    static func same(_ match: ShapeMatch, _ index: Int, _ along: Double, _ away: Double, _ lat: Double, _ lon: Double) -> Bool {
        match.index == index && abs(match.geoDistance - along) < 0.1 && abs(match.distanceToShape - away) < 0.1
            && abs(match.location.latitude - lat) < 1e-6 && abs(match.location.longitude - lon) < 1e-6
    }

    @Test func matcherByDistance() throws {
        let full = Self.byDistance(Self.stops(Self.good, distances: [0.2, 2.4, 6.8]))
        #expect(full.problems.isEmpty && full.matches.count == 3)
        if full.matches.count == 3 {
            #expect(Self.same(full.matches[0], 0, 13.8, 6.0, 47.3655218, 8.5251048))
            #expect(Self.same(full.matches[1], 2, 189.3, 26.9, 47.3652918, 8.5255848))
            #expect(Self.same(full.matches[2], 6, 478.9, 4.1, 47.3650080, 8.5255844))
        }
        // Without a distance, the middle stop is matched by position.
        let partial = Self.byDistance(
            Self.stops(
                [(47.365478, 8.525152), (47.365061, 8.525682), (47.364991, 8.525632)],
                distances: [0.2, 0, 6.8]))
        #expect(partial.problems.isEmpty && partial.matches.count == 3)
        if partial.matches.count == 3 { #expect(Self.same(partial.matches[1], 2, 215.9, 2.8, 47.3650567, 8.5256452)) }
        // A stop 178 m from where its distance places it.
        var far = Self.good
        far[1] = (47.366375, 8.527333)
        let tooFar = Self.byDistance(Self.stops(far, distances: [0.2, 2.4, 6.8]))
        #expect(tooFar.matches.isEmpty)
        guard tooFar.problems.count == 1, case .tooFar(1, let match) = tooFar.problems[0] else {
            Issue.record("\(tooFar.problems)")
            return
        }
        #expect(Self.same(match, 2, 189.3, 178.4, 47.3652918, 8.5255848))
    }

    @Test func matcherByPosition() throws {
        let normal = Self.byPosition(Self.stops([(47.365478, 8.525152), (47.364169, 8.525843), (47.364991, 8.525632)]))
        #expect(normal.problems.isEmpty && normal.matches.count == 3)
        if normal.matches.count == 3 {
            #expect(Self.same(normal.matches[0], 0, 8.5, 2.6, 47.3654738, 8.5251178))
            #expect(Self.same(normal.matches[1], 2, 315.7, 2.2, 47.3641725, 8.5258725))
            #expect(Self.same(normal.matches[2], 6, 482.2, 2.4, 47.3650122, 8.5256275))
        }
        var far = Self.good
        far[1] = (47.366375, 8.527333)
        let tooFar = Self.byPosition(Self.stops(far))
        #expect(tooFar.matches.isEmpty)
        guard tooFar.problems.count == 1, case .tooFar(1, let match) = tooFar.problems[0] else {
            Issue.record("\(tooFar.problems)")
            return
        }
        #expect(Self.same(match, 1, 101.1, 150.6, 47.3660730, 8.5253840))
        #expect(abs(match.distanceToShape - 150.578313) < 1e-4)
    }

    @Test func matcherTooManyMatches() throws {
        var matcher = Self.matcher(.init(maxDistance: 20, tooManyMatches: 2))
        let result = matcher.matchByPosition(Self.stops([(47.365033, 8.525638)]))
        #expect(result.matches.count == 1)
        guard result.problems.count == 1, case .tooManyMatches(0, let match, let count) = result.problems[0] else {
            Issue.record("\(result.problems)")
            return
        }
        #expect(count == 3 && Self.same(match, 2, 218.4, 1.0, 47.3650345, 8.5256509))
    }

    @Test func matcherOutOfOrder() throws {
        var matcher = Self.matcher(.init(maxDistance: 20))
        let result = matcher.matchByPosition(Self.stops([(47.364107, 8.525701), (47.366026, 8.525189)]))
        #expect(result.matches.isEmpty)
        guard result.problems.count == 1, case .outOfOrder(1, let match, let previous) = result.problems[0] else {
            Issue.record("\(result.problems)")
            return
        }
        #expect(Self.same(match, 1, 85.7, 2.0, 47.3660438, 8.5251834) && Self.same(previous, 3, 335.2, 3.0, 47.3640810, 8.5257138))
    }

    @Test func matcherLargeStation() throws {
        // The last stop is within 400 m of the shape but not 150 m: matched only as a large station.
        let positions = [(47.365478, 8.525152), (47.364169, 8.525843), (47.365748, 8.528508)]
        var large = Self.matcher(), small = Self.matcher()
        #expect(!large.matchByPosition(Self.stops(positions, large: true)).matches.isEmpty)
        #expect(small.matchByPosition(Self.stops(positions)).matches.isEmpty)
    }

    // Real feeds: gtfs-guru 1.0.0's counts (MobilityData's, checked against their code).

    @Test(
        .enabled(if: SharedData.isAvailable, "needs ../shared/data"),
        arguments: [
            ("small/cdmx_2018_tlib.zip", [7, 0, 8, 0]), ("versions/caltrain/caltrain_2009-01-27_oba.zip", [24, 0, 0, 0]),
            // Stops matched on a vertex where the previous stop's distance places it: out of
            // order only with the shape's length summed by haversine, as MobilityData.
            ("versions/wichita/wichita_commit2019-10-09.zip", [20, 2138, 9, 0]),
        ])
    func realFeedsCountAsGtfsGuru(_ path: String, _ expected: [Int]) throws {
        let sink = NoticeSink()
        let feed = try #require(GTFSReader(url: SharedData.url("gtfs/" + path)).read(into: sink))
        _ = Validator(today: RuleFixture.today).validate(feed, sink: sink)
        #expect(Self.codes.map { sink.count(of: $0) } == expected)
    }
}
