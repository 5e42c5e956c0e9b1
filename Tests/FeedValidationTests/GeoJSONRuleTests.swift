import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// `locations.geojson`, read and checked only: MobilityData's structural codes, geometry checks,
/// the references to its features and the uniqueness of their ids, each raised by a minimal
/// feed and not by a clean one; hostile JSON never crashes nor hangs.
@Suite struct GeoJSONRuleTests {
    static let square = "[[[18.0,53.0],[18.1,53.0],[18.1,53.1],[18.0,53.1],[18.0,53.0]]]"

    static func feature(_ id: String = "Z1", type: String = "Polygon", coordinates: String = square) -> String {
        #"{"id":"\#(id)","type":"Feature","properties":{"stop_name":"Zone"},"geometry":{"type":"\#(type)","coordinates":\#(coordinates)}}"#
    }

    static func collection(_ features: String...) -> String {
        #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#
    }

    /// The tiny feed with one GTFS-Flex stop time at location `Z1` and the given GeoJSON.
    static func files(_ geojson: String?, locationId: String = "Z1") -> [String: String] {
        var files = TinyFeed.with([
            "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,location_id,stop_sequence,start_pickup_drop_off_window,end_pickup_drop_off_window
            T1,08:00:00,08:00:00,S1,,1,,
            T1,08:05:00,08:05:00,S2,,2,,
            T1,08:10:00,08:10:00,S3,,3,,
            T2,09:00:00,09:00:00,S1,,1,,
            T2,09:05:00,09:05:00,S2,,2,,
            T2,09:10:00,09:10:00,S3,,3,,
            T2,,,,\(locationId),4,09:10:00,10:00:00

            """
        ]).merging(RuleFixture.feedInfo) { a, _ in a }
        if let geojson { files["locations.geojson"] = geojson }
        return files
    }

    /// As MobilityData (and gtfs-guru): a location group sharing a stop's id is reported even
    /// when the dump has no locations.geojson; distinct ids are not.
    @Test func aLocationGroupNamedLikeAStopWithoutGeoJSON() throws {
        for (groupId, expected) in [("S1", 1), ("G1", 0)] {
            let (_, sink) = try RuleFixture.validate(
                TinyFeed.with([
                    "location_groups.txt": "location_group_id,location_group_name\n\(groupId),Group\n",
                    "location_group_stops.txt": "location_group_id,stop_id\n\(groupId),S2\n",
                ]).merging(RuleFixture.feedInfo) { a, _ in a })
            #expect(sink.count(of: "duplicate_geography_id") == expected, "\(groupId)")
            if expected == 1 { #expect(sink.samples.first { $0.code == "duplicate_geography_id" }?.value == "S1") }
        }
    }

    static let codes = [
        "malformed_json", "geo_json_duplicated_element", "geo_json_unknown_element", "missing_required_element",
        "unsupported_geo_json_type", "unsupported_feature_type", "unsupported_geometry_type", "invalid_geometry",
        "duplicate_geo_json_key", "duplicate_geography_id", "point_near_origin", "point_near_pole", "foreign_key_violation",
    ]

    private func counts(_ geojson: String?, locationId: String = "Z1") throws -> (Feed, [String: Int]) {
        let (feed, sink) = try RuleFixture.validate(Self.files(geojson, locationId: locationId))
        var counts: [String: Int] = [:]
        for code in Self.codes where sink.count(of: code) > 0 { counts[code] = sink.count(of: code) }
        return (feed, counts)
    }

    @Test func aCleanFileRaisesNothing() throws {
        let (feed, counts) = try counts(Self.collection(Self.feature(), Self.feature("Z2", type: "MultiPolygon", coordinates: "[\(Self.square)]")))
        #expect(counts.isEmpty, "\(counts)")
        #expect(feed["locations"].texts(.id) == ["Z1", "Z2"])
        #expect(feed["locations"].texts(.geometryType) == ["Polygon", "MultiPolygon"])
    }

    @Test func withoutTheFileNothingChanges() throws {
        let (feed, sink) = try RuleFixture.validate(TinyFeed.with(RuleFixture.feedInfo))
        #expect(feed.tables["locations"] == nil)
        #expect(Self.codes.allSatisfy { sink.count(of: $0) == 0 })
    }

    @Test(
        arguments: [
            ("not json", "malformed_json"),
            ("[1, 2]", "malformed_json"),
            (#"{"type":"FeatureCollection","type":"FeatureCollection","features":[]}"#, "geo_json_duplicated_element"),
            (#"{"type":"FeatureCollection","name":"x","features":[]}"#, "geo_json_unknown_element"),
            (#"{"features":[]}"#, "missing_required_element"),
            (#"{"type":"Feature","features":[]}"#, "unsupported_geo_json_type"),
            (collection(#"{"id":"Z1","type":"Feature","geometry":{"type":"Polygon","coordinates":\#(square)}}"#), "missing_required_element"),
            (collection(feature().replacingOccurrences(of: #""type":"Feature""#, with: #""type":"Thing""#)), "unsupported_feature_type"),
            (collection(feature(type: "Point", coordinates: "[18.0,53.0]")), "unsupported_geometry_type"),
            (collection(feature(coordinates: "[[[18.0,53.0],[18.1,53.0],[18.1,53.1],[18.0,53.1]]]")), "invalid_geometry"),
            (collection(feature(coordinates: "[[[18.0,53.0],[18.1,53.0],[18.0,53.0]]]")), "invalid_geometry"),
            (collection(feature(coordinates: "[[[18.0,53.0],[18.0,53.0],[18.1,53.0],[18.0,53.0]]]")), "invalid_geometry"),
            (collection(feature(coordinates: "[]")), "invalid_geometry"),
            (collection(feature(), feature()), "duplicate_geo_json_key"),
            (collection(feature(), feature("S1")), "duplicate_geography_id"),
            (collection(feature(coordinates: "[[[0.1,0.1],[0.2,0.1],[0.2,0.2],[0.1,0.1]]]")), "point_near_origin"),
            (collection(feature(coordinates: "[[[18.0,89.5],[18.1,89.5],[18.1,89.6],[18.0,89.5]]]")), "point_near_pole"),
            (collection(feature("Z2")), "foreign_key_violation"),
        ] as [(String, String)])
    func eachCodeIsRaised(_ geojson: String, _ code: String) throws {
        let (_, counts) = try counts(geojson)
        #expect(counts[code] ?? 0 >= 1, "\(counts)")
    }

    @Test func anUnusableFileChecksNoReference() throws {
        let (feed, counts) = try counts("not json", locationId: "nowhere")
        #expect(counts == ["malformed_json": 1])
        #expect(feed.tables["locations"] == nil)
    }

    /// Wrong types everywhere, nesting a hundred thousand deep, a ring of 300k positions:
    /// notices, never a crash or a hang.
    @Test(arguments: [
        "", "5", "null", "\"x\"", String(repeating: "[", count: 100_000), String(repeating: "{\"a\":", count: 50_000),
        #"{"type":5,"features":[]}"#, #"{"type":{},"features":[]}"#, #"{"type":"FeatureCollection","features":5}"#,
        #"{"type":"FeatureCollection","features":{"a":1}}"#, #"{"type":"FeatureCollection","features":[5,null,"x"]}"#,
        collection(#"{"id":{},"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[]}}"#),
        collection(#"{"id":"Z1","type":[],"properties":{},"geometry":5}"#),
        collection(#"{"id":"Z1","type":"Feature","properties":5,"geometry":{"type":"Polygon","coordinates":[]}}"#),
        collection(feature(coordinates: "5")), collection(feature(coordinates: "[5]")), collection(feature(coordinates: "[[5]]")),
        collection(feature(coordinates: "[[[\"a\",\"b\"]]]")), collection(feature(coordinates: "[[[1]]]")),
        collection(feature(coordinates: "[[[1e400,1e400],[1,2],[3,4],[1e400,1e400]]]")),
        collection(feature(type: "MultiPolygon", coordinates: "[5]")),
        collection(feature(coordinates: "[[" + Array(repeating: "[18.0,53.0]", count: 300_000).joined(separator: ",") + "]]")),
        #"{"type":"FeatureCollection","features":[],"features":[]}"#, #"{"type":"FeatureCollection","features":[{"id":"\"#,
    ])
    func hostileJSONIsReported(_ geojson: String) throws {
        let (_, counts) = try counts(geojson)
        #expect(!counts.isEmpty, "some notice for \(geojson.prefix(80))")
    }
}

/// C-TRAN's flex feed: its eight zones raise nothing, as with gtfs-guru (2026-11-23).
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
struct RealGeoJSONFeedTests {
    @Test func ctranFlex() throws {
        let sink = NoticeSink()
        let feed = try #require(GTFSReader(url: SharedData.url("gtfs/small/ctran_flex_2025_tlib.zip")).read(into: sink))
        let validated = Validator(today: CivilDate.days(year: 2026, month: 11, day: 23)).validate(feed, sink: sink)
        #expect(validated["locations"].count == 8)
        for code in GeoJSONRuleTests.codes { #expect(sink.count(of: code) == 0, "\(code)") }
    }
}
