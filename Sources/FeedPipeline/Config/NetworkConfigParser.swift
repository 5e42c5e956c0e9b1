import FeedEnhancement
import Foundation
import Yams

/// `network:` of a bundle: when its sources' stops are one place, and the walks that become
/// transfers (README, "One network"). `overrides:` names a CSV file (relative to pipeline.yaml)
/// of `stop_id,other_stop_id,action` rows, `action` being `join` or `split`, ids as the bundle
/// writes them (prefix included); a malformed row is a configuration error naming its line.
struct NetworkConfigParser {
    let doc: YAMLReader
    let base: URL
    /// Whether files named here must exist (not for `feedc publish`).
    let checksFiles: Bool

    func parse(_ node: Node) throws(ConfigError) -> (NetworkSettings, overridesFile: String?) {
        var settings = NetworkSettings()
        if case .scalar = node, let on = node.bool {
            settings.enabled = on
            return (settings, nil)
        }
        let map = try doc.mapping(
            node,
            allowed: [
                "enabled", "same_place_m", "same_name_m", "walk_radius_m", "walk_speed",
                "detour_factor", "min_transfer_s", "overrides",
            ], context: "`network`")
        if let n = map["enabled"] { settings.enabled = try doc.bool(n, "enabled") }
        func positive(_ key: String) throws(ConfigError) -> Double? {
            guard let n = map[key] else { return nil }
            let value = try doc.double(n, key)
            guard value > 0, value.isFinite else { throw doc.error(n, "`\(key)` must be a number above 0") }
            return value
        }
        if let v = try positive("same_place_m") { settings.samePlaceDistance = v }
        if let v = try positive("same_name_m") { settings.sameNameDistance = v }
        if let v = try positive("walk_radius_m") { settings.walkRadius = v }
        if let v = try positive("walk_speed") { settings.walkSpeed = v }
        if let v = try positive("detour_factor") {
            guard v >= 1 else { throw doc.error(map["detour_factor"]!, "`detour_factor` must be at least 1 (a walk is never shorter than the straight line)") }
            settings.detourFactor = v
        }
        if let n = map["min_transfer_s"] { settings.minTransferSeconds = try doc.int(n, "min_transfer_s", min: 0) }
        var file: String?
        if let n = map["overrides"] {
            let path = try doc.string(n, "overrides")
            let url = URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL
            file = url.path
            if checksFiles {
                guard let data = FileManager.default.contents(atPath: url.path) else {
                    throw doc.error(n, "no overrides file at `\(path)` (looked for \(url.path))")
                }
                settings.overrides = try Self.overrides(String(decoding: data, as: UTF8.self), file: url.path)
            }
        }
        return (settings, file)
    }

    /// The rows of an overrides file: a header `stop_id,other_stop_id,action`, then one pair per
    /// line; blank lines and lines starting with `#` are skipped.
    static func overrides(_ text: String, file: String) throws(ConfigError) -> [PlaceOverride] {
        var result: [PlaceOverride] = []
        var header = true
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if header {
                guard fields == ["stop_id", "other_stop_id", "action"] else {
                    throw ConfigError(file: file, line: index + 1, "the header must be `stop_id,other_stop_id,action`")
                }
                header = false
                continue
            }
            guard fields.count == 3, !fields[0].isEmpty, !fields[1].isEmpty, fields[0] != fields[1] else {
                throw ConfigError(file: file, line: index + 1, "expected two different stop ids and an action, as `bart:place_MLBR,caltrain:place_MLBR,join`")
            }
            guard ["join", "split"].contains(fields[2]) else {
                throw ConfigError(file: file, line: index + 1, "action `\(fields[2])` must be `join` or `split`")
            }
            result.append(PlaceOverride(stop: fields[0], other: fields[1], join: fields[2] == "join", line: index + 1))
        }
        return result
    }
}
