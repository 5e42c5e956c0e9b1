import FeedModel
import FeedSources
@testable import FeedValidation
import Foundation
import Testing
import TestSupport

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

    static let codes = ["stop_too_far_from_shape", "stop_too_far_from_shape_using_user_distance",
                        "stops_match_shape_out_of_order", "stop_has_too_many_matches_for_shape"]

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
        files["stop_times.txt"]! += "T2,09:00:00,09:00:00,S0,1,0\nT2,09:01:00,09:01:00,S1,2,\n"
            + "T3,10:00:00,10:00:00,S0,1,0.5\nT3,10:01:00,10:01:00,S1,2,\n"
        #expect(try Self.counts(files) == [0, 0, 2, 0])
        // A stop too far from the shape is reported once per shape, whatever the trips.
        var far = Self.feed([(47.365478, 8.525152), (47.366375, 8.527333)], distances: [nil, nil])
        far["trips.txt"]! += "R1,WK,T2,SH\n"
        far["stop_times.txt"]! += "T2,09:00:00,09:00:00,S1,1,\nT2,09:01:00,09:01:00,S0,2,\n"
        #expect(try Self.counts(far) == [1, 0, 0, 0])
    }

    // MobilityData's matcher tests, with their settings.

    static var line: ShapeLine {
        ShapeLine(latitudes: points.map(\.0), longitudes: points.map(\.1), distances: points.indices.map(Double.init))
    }

    static func stops(_ positions: [(Double, Double)]) -> [StopToShapeMatcher.Stop] {
        positions.enumerated().map { .init(location: SpherePoint(latitude: $1.0, longitude: $1.1), userDistance: 0, isLargeStation: false, key: $0) }
    }

    static func near(_ match: ShapeMatch, _ lat: Double, _ lon: Double) -> Bool {
        abs(match.location.latitude - lat) < 1e-6 && abs(match.location.longitude - lon) < 1e-6
    }

    @Test func matcherTooFar() throws {
        var matcher = StopToShapeMatcher(shape: Self.line, settings: .init(maxDistance: 150))
        let problems = matcher.matchByPosition(Self.stops([(47.365478, 8.525152), (47.366375, 8.527333), (47.364991, 8.525632)]))
        guard problems.count == 1, case .tooFar(let stop, let match) = problems[0] else { Issue.record("\(problems)"); return }
        #expect(stop == 1 && abs(match.distanceToShape - 150.578313) < 1e-4 && Self.near(match, 47.366073, 8.525384))
    }

    @Test func matcherTooManyMatches() throws {
        var matcher = StopToShapeMatcher(shape: Self.line, settings: .init(maxDistance: 20, tooManyMatches: 2))
        let problems = matcher.matchByPosition(Self.stops([(47.365033, 8.525638)]))
        guard problems.count == 1, case .tooManyMatches(0, let match, let count) = problems[0] else { Issue.record("\(problems)"); return }
        #expect(count == 3 && Self.near(match, 47.365034, 8.525651))
    }

    @Test func matcherOutOfOrder() throws {
        var matcher = StopToShapeMatcher(shape: Self.line, settings: .init(maxDistance: 20))
        let problems = matcher.matchByPosition(Self.stops([(47.364107, 8.525701), (47.366026, 8.525189)]))
        guard problems.count == 1, case .outOfOrder(1, let match, let previous) = problems[0] else { Issue.record("\(problems)"); return }
        #expect(Self.near(match, 47.366044, 8.525183) && Self.near(previous, 47.364081, 8.525713))
    }

    // Real feeds: gtfs-guru 1.0.0's counts (MobilityData's, checked against their code).

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data"),
          arguments: [("small/cdmx_2018_tlib.zip", [7, 0, 8, 0]), ("versions/caltrain/caltrain_2009-01-27_oba.zip", [24, 0, 0, 0]),
                      // Stops matched on a vertex where the previous stop's distance places it: out of
                      // order only with the shape's length summed by haversine, as MobilityData.
                      ("versions/wichita/wichita_commit2019-10-09.zip", [20, 2138, 9, 0])])
    func realFeedsCountAsGtfsGuru(_ path: String, _ expected: [Int]) throws {
        let sink = NoticeSink()
        let feed = try #require(GTFSReader(url: SharedData.url("gtfs/" + path)).read(into: sink))
        _ = Validator(today: RuleFixture.today).validate(feed, sink: sink)
        #expect(Self.codes.map { sink.count(of: $0) } == expected)
    }
}
