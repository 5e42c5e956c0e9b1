import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// `overlapping_zone_and_pickup_drop_off_window`: two zone stop times of one trip with
/// overlapping windows, the same pickup or drop-off type, and zones that overlap as JTS's
/// `overlaps` says (interiors meet, neither inside the other).
@Suite struct OverlappingPickupDropOffZoneRuleTests {
    static let code = NoticeKind.overlappingZoneAndPickupDropOffWindow.code
    static let square = GeoJSONValidityTests.square

    /// Trip T2 of the tiny feed with two zone stop times, Z1 then Z2, and the zones given.
    static func files(
        z1: String = square(0, 0, 4, 4), z2: String, second window: String = "09:30:00,10:30:00",
        types: (String, String) = ("2,2", "2,2"), secondZone: String = "Z2"
    ) -> [String: String] {
        let geojson = GeoJSONRuleTests.collection(
            GeoJSONRuleTests.feature("Z1", coordinates: "[\(z1)]"), GeoJSONRuleTests.feature("Z2", coordinates: "[\(z2)]"))
        return TinyFeed.with([
            "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,location_id,stop_sequence,start_pickup_drop_off_window,end_pickup_drop_off_window,pickup_type,drop_off_type
            T1,08:00:00,08:00:00,S1,,1,,,,
            T1,08:05:00,08:05:00,S2,,2,,,,
            T1,08:10:00,08:10:00,S3,,3,,,,
            T2,,,,Z1,1,09:00:00,10:00:00,\(types.0)
            T2,,,,\(secondZone),2,\(window),\(types.1)

            """,
            "locations.geojson": geojson,
        ]).merging(RuleFixture.feedInfo) { a, _ in a }
    }

    private func notices(_ files: [String: String]) throws -> [Notice] {
        let (_, sink) = try RuleFixture.validate(files)
        #expect(sink.count(of: "invalid_geometry") == 0)
        return sink.samples.filter { $0.code == Self.code }
    }

    @Test func overlappingZonesAndWindowsAreReported() throws {
        let found = try notices(Self.files(z2: Self.square(2, 2, 6, 6)))
        #expect(found.count == 1)
        #expect(found.first?.severity == .error)
        #expect(found.first?.value == "Z1")
        #expect(found.first?.message.contains("stop_sequence 2 (zone Z2, 09:30:00–10:30:00)") == true)
        // One type alike is enough.
        #expect(try notices(Self.files(z2: Self.square(2, 2, 6, 6), types: ("1,2", "2,2"))).count == 1)
    }

    @Test(
        arguments: [
            ("zones apart", square(5, 5, 6, 6), "09:30:00,10:30:00", ("2,2", "2,2"), "Z2"),
            ("zone inside the other", square(1, 1, 2, 2), "09:30:00,10:30:00", ("2,2", "2,2"), "Z2"),
            ("same zone shape", square(0, 0, 4, 4), "09:30:00,10:30:00", ("2,2", "2,2"), "Z2"),
            ("zones sharing an edge", square(4, 0, 8, 4), "09:30:00,10:30:00", ("2,2", "2,2"), "Z2"),
            ("windows meeting", square(2, 2, 6, 6), "10:00:00,11:00:00", ("2,2", "2,2"), "Z2"),
            ("windows apart", square(2, 2, 6, 6), "10:30:00,11:00:00", ("2,2", "2,2"), "Z2"),
            ("types differ", square(2, 2, 6, 6), "09:30:00,10:30:00", ("1,2", "2,1"), "Z2"),
            ("same location", square(2, 2, 6, 6), "09:30:00,10:30:00", ("2,2", "2,2"), "Z1"),
        ] as [(String, String, String, (String, String), String)])
    func notReported(_ name: String, _ z2: String, _ window: String, _ types: (String, String), _ zone: String) throws {
        #expect(try notices(Self.files(z2: z2, second: window, types: types, secondZone: zone)).isEmpty, "\(name)")
    }

    /// A trip of 3000 zone stop times, all at once, over 3000 overlapping zones: 4.5 million
    /// pairs of zones, past the rule's bound of 100,000; it reports what it found and says it
    /// stopped.
    @Test func aHugeTripIsBounded() throws {
        let count = 3000
        let features = (0..<count).map { GeoJSONRuleTests.feature("Z\($0)", coordinates: "[\(Self.square($0 % 7, 0, $0 % 7 + 4, 4))]") }
        var rows = ["trip_id,arrival_time,departure_time,stop_id,location_id,stop_sequence,start_pickup_drop_off_window,end_pickup_drop_off_window"]
        rows += ["T1,08:00:00,08:00:00,S1,,1,,", "T1,08:05:00,08:05:00,S2,,2,,", "T1,08:10:00,08:10:00,S3,,3,,"]
        rows += (0..<count).map { "T2,,,,Z\($0),\($0 + 1),09:00:00,10:00:00" }
        let files = TinyFeed.with([
            "stop_times.txt": rows.joined(separator: "\n") + "\n",
            "locations.geojson": GeoJSONRuleTests.collection(features.joined(separator: ",")),
        ]).merging(RuleFixture.feedInfo) { a, _ in a }
        let (_, sink) = try RuleFixture.validate(files)
        #expect(sink.count(of: Self.code) > 0)
        #expect(sink.count(of: "geometry_not_fully_checked") == 1)
    }
}
