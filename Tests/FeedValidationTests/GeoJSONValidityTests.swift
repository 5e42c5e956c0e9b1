import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// `invalid_geometry` for JTS's topology checks (`IsValidOp`): each message raised, once per
/// feature, by a minimal zone, and valid zones that look alike raising nothing; huge rings
/// checked in bounded time.
@Suite struct GeoJSONValidityTests {
    /// A closed ring from (lon, lat) offsets in tenths of a degree from (18, 53).
    static func ring(_ points: [(Int, Int)]) -> String {
        "[" + (points + [points[0]]).map { "[\(18 + Double($0.0) / 10),\(53 + Double($0.1) / 10)]" }.joined(separator: ",") + "]"
    }

    static func square(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> String {
        ring([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    }

    static func polygon(_ rings: String...) -> String { "[" + rings.joined(separator: ",") + "]" }

    /// (geometry type, coordinates, JTS's message or nil for a valid zone).
    static let cases: [(String, String, String?)] = [
        ("Polygon", polygon(ring([(0, 0), (1, 1), (1, 0), (0, 1)])), "Self-intersection"),
        ("Polygon", polygon(ring([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2), (1, 1)])), "Ring Self-intersection"),
        ("Polygon", polygon(square(0, 0, 4, 4), square(5, 5, 6, 6)), "Hole lies outside shell"),
        ("Polygon", polygon(square(0, 0, 4, 4), square(1, 1, 3, 3), square(2, 2, 3, 3)), "Self-intersection"),
        ("Polygon", polygon(square(0, 0, 8, 8), square(1, 1, 7, 7), square(2, 2, 3, 3)), "Holes are nested"),
        ("Polygon", polygon(square(0, 0, 4, 4), square(2, 1, 6, 3)), "Self-intersection"),
        ("Polygon", polygon(square(0, 0, 4, 4), ring([(0, 2), (2, 1), (4, 2), (2, 3)])), "Interior is disconnected"),
        ("MultiPolygon", "[" + polygon(square(0, 0, 4, 4)) + "," + polygon(square(1, 1, 2, 2)) + "]", "Nested shells"),
        ("MultiPolygon", "[" + polygon(square(0, 0, 4, 4)) + "," + polygon(square(2, 2, 6, 6)) + "]", "Self-intersection"),
        ("MultiPolygon", "[" + polygon(square(0, 0, 4, 4)) + "," + polygon(square(4, 0, 8, 4)) + "]", "Self-intersection"),
        ("Polygon", polygon(square(0, 0, 4, 4), square(1, 1, 2, 2), square(2, 2, 3, 3)), nil),
        ("Polygon", polygon(square(0, 0, 4, 4), ring([(0, 2), (2, 1), (3, 2), (2, 3)])), nil),
        ("Polygon", polygon(ring([(0, 0), (4, 0), (4, 4), (0, 4)]).replacingOccurrences(of: "[18.4,53.0]", with: "[18.4,53.0],[18.4,53.0]")), nil),
        ("MultiPolygon", "[" + polygon(square(0, 0, 8, 8), square(1, 1, 7, 7)) + "," + polygon(square(2, 2, 3, 3)) + "]", nil),
        ("MultiPolygon", "[" + polygon(square(0, 0, 4, 4)) + "," + polygon(square(4, 4, 8, 8)) + "]", nil),
    ]

    @Test(arguments: cases)
    func jtsMessages(_ type: String, _ coordinates: String, _ message: String?) throws {
        let files = GeoJSONRuleTests.files(GeoJSONRuleTests.collection(GeoJSONRuleTests.feature(type: type, coordinates: coordinates)))
        let (feed, sink) = try RuleFixture.validate(files)
        let notices = sink.samples.filter { $0.code == "invalid_geometry" }
        if let message {
            #expect(notices.map(\.message) == ["\(type) Z1: \(message)"], "\(coordinates)")
            #expect(feed.tables["locations"] == nil)
        } else {
            #expect(notices.isEmpty, "\(notices.map(\.message))")
            #expect(feed["locations"].count == 1)
        }
    }

    /// A zigzag ring of 200k positions (every segment spanning the same longitudes, a
    /// quadratic case) crossing itself, and a comb of 200k that does not: bounded time.
    @Test func hugeRingsAreBounded() throws {
        var zigzag = (0..<200_000).map { "[\(18 + Double($0 % 2) / 10),\(53 + Double($0) * 1e-6)]" }
        zigzag.append("[18.05,52.9]")
        zigzag.append(zigzag[0])
        var comb = zigzag.dropLast(2).map { $0 }
        comb += ["[17.9,\(53 + 199_999 * 1e-6)]", "[17.9,53.0]", comb[0]]
        // The zigzag's crossing is found within the sweep's bound; the comb, which crosses
        // nowhere, takes the whole bound and is reported as not fully checked.
        for (ring, invalid, unchecked) in [(zigzag, 1, 0), (comb, 0, 1)] {
            let geojson = GeoJSONRuleTests.collection(GeoJSONRuleTests.feature(coordinates: "[[" + ring.joined(separator: ",") + "]]"))
            let (_, sink) = try RuleFixture.validate(GeoJSONRuleTests.files(geojson))
            #expect(sink.count(of: "invalid_geometry") == invalid)
            #expect(sink.count(of: "geometry_not_fully_checked") == unchecked)
        }
    }

    /// Ten thousand holes along a shell's diagonal: testing every hole against every other and
    /// against the shell would take billions of steps; the file's budget refuses them up front.
    @Test func manyHolesAreBounded() throws {
        var rings = ["[[18.0,53.0],[19.0,53.0],[19.0,54.0],[18.0,54.0],[18.0,53.0]]"]
        for i in 0..<10_000 {
            let x = 18.0 + Double(i) * 0.00009 + 0.00001, y = 53.0 + Double(i) * 0.00009 + 0.00001
            let (a, b) = (x + 0.00005, y + 0.00005)
            rings.append("[[\(x),\(y)],[\(x),\(b)],[\(a),\(b)],[\(a),\(y)],[\(x),\(y)]]")
        }
        let geojson = GeoJSONRuleTests.collection(GeoJSONRuleTests.feature(coordinates: "[" + rings.joined(separator: ",") + "]"))
        let (feed, sink) = try RuleFixture.validate(GeoJSONRuleTests.files(geojson))
        #expect(sink.count(of: "geometry_not_fully_checked") == 1)
        #expect(sink.count(of: "invalid_geometry") == 0)
        #expect(feed.tables[GTFSSchema.locations.name]?.count == 1)
    }

    /// One budget for the whole file: spent, the features after it are kept but not checked.
    @Test func theBudgetIsSharedByTheFile() throws {
        let holed = "[[[18.0,53.0],[18.2,53.0],[18.2,53.2],[18.0,53.2],[18.0,53.0]],[[18.1,53.1],[18.15,53.1],[18.15,53.15],[18.1,53.1]]]"
        let features = (0..<3).map { GeoJSONRuleTests.feature("Z\($0)", coordinates: holed) }.joined(separator: ",")
        let bytes = Array(GeoJSONRuleTests.collection(features).utf8)
        let ample = NoticeSink(), spent = NoticeSink()
        #expect(GeoJSONLoader(sink: ample).load(bytes)?.count == 3)
        #expect(ample.count(of: "geometry_not_fully_checked") == 0)
        let budget = PlanarWorkBudget(0)
        #expect(GeoJSONLoader(sink: spent, budget: budget).load(bytes)?.count == 3)
        #expect(spent.count(of: "geometry_not_fully_checked") == 3 && budget.skipped >= 3)
    }

    @Test func planarAreaTextReadsBack() {
        let area = PlanarArea(polygons: [[[PlanarPoint(18.1, 53.25), PlanarPoint(-0.1, 1e-7), PlanarPoint(18.1, 53.25)]], [[]]])
        #expect(PlanarArea(encoded: area.encoded) == area)
        #expect(PlanarArea(encoded: "1 2,x") == nil)
    }
}
