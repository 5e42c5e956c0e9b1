import FeedModel
import Foundation

/// Reads `locations.geojson` (GTFS-Flex zones) into the checked-only ``GTFSSchema/locations``
/// table, reporting what MobilityData's `GeoJsonFileLoader` reports, with its codes:
///
/// - `malformed_json`: not JSON, or not an object at the root (and, feedc's addition, nested
///   deeper than ``JSONKeyScan/maxDepth`` or a member of the wrong JSON type, where Java's
///   loader gives up silently);
/// - `geo_json_duplicated_element`: a key twice in one object; as Gson's adapter, the file
///   then yields no feature;
/// - `geo_json_unknown_element`: a key GeoJSON's FeatureCollection, Feature or geometry does
///   not define;
/// - `missing_required_element`: no `type` at the root, or a feature without `id`, `type`,
///   `properties`, `geometry`, `geometry.type` or `geometry.coordinates`;
/// - `unsupported_geo_json_type`, `unsupported_feature_type`, `unsupported_geometry_type`;
/// - `invalid_geometry`, `point_near_origin`, `point_near_pole`: see ``GeoJSONGeometry``;
/// - `duplicate_geo_json_key`: two features with the same id (the first is kept).
///
/// Returns nil when the file is unusable as Java's loader finds it (then rules that need the
/// feature ids are not run, as Java skips validators of an unparsable file).
package struct GeoJSONLoader {
    package static let fileName = "locations.geojson"
    let sink: NoticeSink
    /// The work the topology checks of every feature may do together (``PlanarWorkBudget``).
    let budget: PlanarWorkBudget

    package init(sink: NoticeSink, budget: PlanarWorkBudget = PlanarWorkBudget()) {
        self.sink = sink
        self.budget = budget
    }

    /// A member of the wrong JSON type: Java's loader stops at it (an exception, no notice).
    struct WrongType: Error {
        var path: String
    }

    package func load(_ bytes: [UInt8]) -> Table? {
        let scan = JSONKeyScan(bytes)
        if scan.tooDeep {
            malformed("JSON nested deeper than \(JSONKeyScan.maxDepth) levels.")
            return nil
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        } catch {
            malformed("The file is not valid JSON.")
            return nil
        }
        guard let object = root as? [String: Any] else {
            malformed("Expected a JSON object at the root.")
            return nil
        }
        if let key = scan.duplicateKey {
            add(.geoJsonDuplicatedElement, value: key, message: "The key \(key) is repeated in one object; no feature is read.")
            return table([])
        }
        do {
            return try features(of: object)
        } catch let error as WrongType {
            malformed("\(error.path) has the wrong JSON type.")
            return nil
        } catch {
            return nil
        }
    }

    private func features(of object: [String: Any]) throws -> Table? {
        for key in object.keys.sorted() where key != "type" && key != "features" { unknown(key) }
        guard let typeValue = object["type"] else {
            add(.missingRequiredElement, field: "type", message: "The root object has no type.")
            return nil
        }
        let type = try text(typeValue, "type")
        guard type == "FeatureCollection" else {
            add(
                .unsupportedGeoJsonType, value: type,
                message: "Unsupported GeoJSON type: \(type). Use 'FeatureCollection' instead.")
            return nil
        }
        guard let featuresValue = object["features"] else {
            add(.missingRequiredElement, field: "features", message: "The FeatureCollection has no features.")
            return nil
        }
        guard let list = featuresValue as? [Any] else { throw WrongType(path: "features") }
        var rows: [Row] = []
        var unusable = false
        for (index, element) in list.enumerated() {
            if let row = try feature(element, index: index) { rows.append(row) } else { unusable = true }
        }
        return unusable ? nil : table(rows)
    }

    private struct Row {
        var id: String
        var geometryType: String
        var index: Int
        /// The polygons as ``PlanarArea/encoded`` text; nil for another geometry type.
        var geometry: String?
    }

    /// One feature, or nil when it is unusable (the notices say why).
    private func feature(_ element: Any, index: Int) throws -> Row? {
        guard let object = element as? [String: Any] else { throw WrongType(path: "features[\(index)]") }
        let known: Set<String> = ["id", "type", "properties", "geometry"]
        for key in object.keys.sorted() where !known.contains(key) { unknown(key) }
        var missing: [String] = []
        var id: String?
        if let value = object["id"] {
            id = try text(value, "features[\(index)].id")
            if id?.isEmpty ?? true { missing.append("features.id") }
        } else {
            missing.append("features.id")
        }
        if let value = object["type"] {
            let type = try text(value, "features[\(index)].type")
            if type != "Feature" {
                add(
                    .unsupportedFeatureType, line: index, value: type,
                    message: "Feature \(id ?? "") has type \(type); use 'Feature'.")
            }
        } else {
            missing.append("features.type")
        }
        if object["properties"] == nil { missing.append("features.properties") }
        if let value = object["geometry"] {
            guard let geometry = value as? [String: Any] else { throw WrongType(path: "features[\(index)].geometry") }
            for key in geometry.keys.sorted() where key != "type" && key != "coordinates" { unknown(key) }
            if geometry["type"] == nil {
                missing.append("features.geometry.type")
            } else if geometry["coordinates"] == nil {
                missing.append("features.geometry.coordinates")
            } else if missing.isEmpty, let id {
                let type = try text(geometry["type"]!, "features[\(index)].geometry.type")
                guard object["properties"] is [String: Any] else { throw WrongType(path: "features[\(index)].properties") }
                let checker = GeoJSONGeometry(sink: sink, featureId: id, featureIndex: index, type: type, budget: budget)
                guard case .usable(let area) = try checker.check(geometry["coordinates"]!) else { return nil }
                return Row(id: id, geometryType: type, index: index, geometry: area?.encoded)
            }
        } else {
            missing.append("features.geometry")
        }
        for field in missing {
            add(
                .missingRequiredElement, line: index, field: field, value: id,
                message: "Feature \(index) has no \(field).")
        }
        return nil
    }

    /// Gson's `getAsString`: a string or a number as text; anything else is the wrong type.
    private func text(_ value: Any, _ path: String) throws -> String {
        if let string = value as? String { return string }
        if let number = value as? NSNumber, !(value is Bool) { return number.stringValue }
        throw WrongType(path: path)
    }

    /// The table of usable features; ids repeated are reported and only the first kept.
    private func table(_ rows: [Row]) -> Table {
        var seen: [String: Int] = [:]
        var kept: [Row] = []
        for row in rows {
            if let first = seen[row.id] {
                add(
                    .duplicateGeoJsonKey, line: row.index, field: "id", value: row.id,
                    message: "Features \(first) and \(row.index) have the same id.")
                continue
            }
            seen[row.id] = row.index
            kept.append(row)
        }
        return Table(
            schema: GTFSSchema.locations,
            columns: [
                .text(kept.map(\.id)), .text(kept.map(\.geometryType)), .integer(kept.map(\.index)),
                .text(kept.map(\.geometry)),
            ], lines: kept.map { Int32(clamping: $0.index) })
    }

    private func unknown(_ key: String) {
        add(.geoJsonUnknownElement, value: key, message: "GeoJSON does not define \(key) here; it is ignored.")
    }

    private func malformed(_ message: String) {
        add(.malformedJson, message: message)
    }

    private func add(
        _ kind: NoticeKind, line: Int? = nil, field: String? = nil,
        value: String? = nil, message: String
    ) {
        sink.add(kind) {
            Notice(
                kind, file: Self.fileName, line: line, field: field,
                value: value, message: message)
        }
    }
}
