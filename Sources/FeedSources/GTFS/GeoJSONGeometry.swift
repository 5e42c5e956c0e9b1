import FeedModel
import Foundation

/// Checks one feature's geometry as MobilityData's loader does, with JTS's `IsValidOp`, and
/// returns its polygons for the rules that compare zones:
///
/// - `point_near_origin` (an error, as in Java: |lon| ≤ 1 and |lat| ≤ 1) and
///   `point_near_pole` (|lat| ≥ 89), for every position;
/// - `invalid_geometry`, one per feature, with JTS's message: first what building JTS's rings
///   and validity's simple checks find, a ring that is not closed ("Points of LinearRing do not
///   form a closed linestring"), a ring of 1 to 3 positions ("Invalid number of points in
///   LinearRing (found N - must be 0 or >= 4)"), a coordinate that is not finite ("Invalid
///   Coordinate"), a ring of fewer than 4 distinct consecutive positions ("Too few distinct
///   points in geometry component"), an empty shell with holes ("shell is empty but holes are
///   not"); then the topology ``PlanarValidity`` checks on lon/lat as planar coordinates:
///   "Self-intersection" (segments crossing or sharing a stretch, rings crossing at a vertex),
///   "Ring Self-intersection" (a ring touching itself), "Hole lies outside shell", "Holes are
///   nested", "Nested shells" (a MultiPolygon's polygon inside another), "Interior is
///   disconnected" (rings of a polygon touching twice or in a cycle). A MultiPolygon's polygons
///   are checked one by one, then together, as Java does. And, feedc's addition where Java's
///   loader stops silently, a polygon without rings or a position without two numbers.
///
/// Not checked, or not exactly: of several ring meetings in one feature, feedc may report
/// another first than JTS's index would (both messages are JTS's); meetings past
/// ``PlanarSegmentSweep``'s pair budget (a ring of many thousand segments all spanning the same
/// longitudes) are not looked for. Only `Polygon` and `MultiPolygon` are supported
/// (`unsupported_geometry_type` otherwise; the feature is kept, its coordinates not checked).
struct GeoJSONGeometry {
    let sink: NoticeSink
    let featureId: String
    let featureIndex: Int
    let type: String
    /// The work the topology checks may still do for the whole file (``PlanarWorkBudget``).
    let budget: PlanarWorkBudget

    /// What a feature's geometry gives: unusable (the notices say why), or usable, with its
    /// polygons when it is a Polygon or MultiPolygon.
    enum Outcome {
        case unusable
        case usable(PlanarArea?)
    }

    /// Checks the geometry; throws ``GeoJSONLoader/WrongType`` for coordinates that are not
    /// arrays of arrays of numbers.
    func check(_ coordinates: Any) throws -> Outcome {
        let skipped = budget.skipped
        defer { if budget.skipped > skipped { notChecked() } }
        switch type {
        case "Polygon":
            let rings = try arrays(coordinates, "coordinates")
            guard let polygon = try polygon(rings, path: "coordinates") else { return .unusable }
            return .usable(PlanarArea(polygons: [polygon]))
        case "MultiPolygon":
            var polygons: [[[PlanarPoint]]] = []
            for (index, element) in try arrays(coordinates, "coordinates").enumerated() {
                let path = "coordinates[\(index)]"
                guard let polygon = try polygon(try arrays(element, path), path: path) else { return .unusable }
                polygons.append(polygon)
            }
            if let message = PlanarValidity.polygonsTogetherError(polygons, budget: budget) {
                invalid(message)
                return .unusable
            }
            return .usable(PlanarArea(polygons: polygons))
        default:
            sink.add(.unsupportedGeometryType) {
                Notice(
                    .unsupportedGeometryType, file: GeoJSONLoader.fileName,
                    line: featureIndex, field: "geometry.type", value: type,
                    message: "Feature \(featureId) has geometry type \(type); use Polygon or MultiPolygon.")
            }
            return .usable(nil)
        }
    }

    /// One polygon's rings (shell then holes), or nil when it is not valid (reported).
    private func polygon(_ rings: [Any], path: String) throws -> [[PlanarPoint]]? {
        var parsed: [[(lon: Double, lat: Double)]] = []
        for (index, element) in rings.enumerated() {
            let ringPath = "\(path)[\(index)]"
            var ring: [(lon: Double, lat: Double)] = []
            for (position, value) in try arrays(element, ringPath).enumerated() {
                let numbers = try arrays(value, "\(ringPath)[\(position)]")
                guard numbers.count >= 2, let lon = number(numbers[0]), let lat = number(numbers[1]) else {
                    invalid("Position \(ringPath)[\(position)] does not hold two numbers.")
                    return nil
                }
                nearOriginOrPole(lon: lon, lat: lat)
                ring.append((lon, lat))
            }
            parsed.append(ring)
        }
        guard !parsed.isEmpty else {
            invalid("Polygon \(path) has no rings.")
            return nil
        }
        // JTS's LinearRing construction, shell then holes, then IsValidOp's simple checks.
        for ring in parsed where !ring.isEmpty {
            if ring.first! != ring.last! {
                invalid("Points of LinearRing do not form a closed linestring")
                return nil
            }
            if ring.count < 4 {
                invalid("Invalid number of points in LinearRing (found \(ring.count) - must be 0 or >= 4)")
                return nil
            }
        }
        for ring in parsed where ring.contains(where: { !$0.lon.isFinite || !$0.lat.isFinite }) {
            _ = ring
            invalid("Invalid Coordinate")
            return nil
        }
        for ring in parsed where !ring.isEmpty {
            var distinct = 1
            for index in ring.indices.dropFirst() where ring[index] != ring[index - 1] { distinct += 1 }
            if distinct < 4 {
                invalid("Too few distinct points in geometry component")
                return nil
            }
        }
        let polygon = parsed.map { ring in ring.map { PlanarPoint($0.lon, $0.lat) } }
        if polygon[0].isEmpty {
            // JTS's Polygon constructor; a polygon with an empty shell and no holes is empty, valid.
            guard polygon.dropFirst().allSatisfy(\.isEmpty) else {
                invalid("shell is empty but holes are not")
                return nil
            }
            return polygon
        }
        if let message = PlanarValidity.polygonError(polygon, budget: budget) {
            invalid(message)
            return nil
        }
        return polygon
    }

    private func nearOriginOrPole(lon: Double, lat: Double) {
        if abs(lon) <= 1, abs(lat) <= 1 {
            sink.add(.pointNearOrigin) {
                Notice(
                    .pointNearOrigin, file: GeoJSONLoader.fileName, line: featureIndex,
                    field: "geometry.coordinates", value: "\(lat), \(lon)",
                    message: "Feature \(featureId) has a position within a degree of (0, 0).")
            }
        } else if abs(lat) >= 89 {
            sink.add(.pointNearPole) {
                Notice(
                    .pointNearPole, file: GeoJSONLoader.fileName, line: featureIndex,
                    field: "geometry.coordinates", value: "\(lat), \(lon)",
                    message: "Feature \(featureId) has a position within a degree of a pole.")
            }
        }
    }

    /// feedc's own (info): the file's budget of topology checks ran out before this feature's.
    private func notChecked() {
        sink.add(.geometryNotFullyChecked) {
            Notice(
                .geometryNotFullyChecked, file: GeoJSONLoader.fileName, line: featureIndex,
                field: "geometry", value: featureId,
                message: "\(type) \(featureId): not fully checked for crossing rings, holes and nesting; the file's "
                    + "features are too many or too large for the checks' bound of work.")
        }
    }

    private func invalid(_ message: String) {
        sink.add(.invalidGeometry) {
            Notice(
                .invalidGeometry, file: GeoJSONLoader.fileName, line: featureIndex,
                field: "geometry", value: featureId, message: "\(type) \(featureId): \(message)")
        }
    }

    private func arrays(_ value: Any, _ path: String) throws -> [Any] {
        guard let array = value as? [Any] else { throw GeoJSONLoader.WrongType(path: "features[\(featureIndex)].geometry.\(path)") }
        return array
    }

    private func number(_ value: Any) -> Double? {
        guard !(value is Bool), let number = value as? NSNumber else { return nil }
        return number.doubleValue
    }
}
