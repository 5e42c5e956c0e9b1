import BundleFormat
import FeedEnhancement
import FeedPublish
import Foundation
import Yams

/// Reads pipeline.yaml. Unknown keys, missing keys, wrong types and missing files are reported
/// as ``ConfigError`` with the line and column in the YAML.
public struct PipelineConfigParser {
    /// Whether each source's `path:`, `file:` URL and `schema:` must exist. Commands that never
    /// read the sources (`feedc publish`) turn it off.
    public var checksSourceFiles: Bool

    /// A parser; `checksSourceFiles` false for commands that never read the sources.
    public init(checksSourceFiles: Bool = true) {
        self.checksSourceFiles = checksSourceFiles
    }

    /// Reads and parses the file at `file`.
    public func parse(contentsOf file: URL) throws(ConfigError) -> PipelineConfig {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw ConfigError(file: file.path, "cannot read the file (does it exist?)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(file: file.path, "the file is not UTF-8 text")
        }
        return try parse(text, file: file)
    }

    /// Parses `text`; relative paths resolve against `file`'s folder.
    public func parse(_ text: String, file: URL) throws(ConfigError) -> PipelineConfig {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Self.describe(error, file: file.path)
        } catch {
            throw ConfigError(file: file.path, "\(error)")
        }
        let base = file.deletingLastPathComponent()
        let doc = YAMLReader(file: file.path)
        guard let root = node else { throw ConfigError(file: file.path, "the file is empty; it needs at least `bundles:`") }
        let top = try doc.mapping(root, allowed: ["output", "keep", "bundles", "publish", "service_end"], context: "the top level")
        let serviceEnd =
            try top["service_end"].map { n throws(ConfigError) in try parseServiceEnd(n, doc: doc, base: ServiceEndSettings()) } ?? ServiceEndSettings()
        let publish = try top["publish"].flatMap { n throws(ConfigError) in try PublishConfigParser(doc: doc).parse(n) }
        let output = try top["output"].map { n throws(ConfigError) in try doc.string(n, "output") } ?? "out"
        let keep = try top["keep"].map { n throws(ConfigError) in try doc.int(n, "keep", min: 1) } ?? 10
        guard let bundlesNode = top["bundles"] else {
            throw doc.error(root, "missing key `bundles` (a list of bundles, each with a name and sources)")
        }
        var bundles: [BundleConfig] = []
        for item in try doc.sequence(bundlesNode, "bundles") {
            let bundle = try parseBundle(item, doc: doc, base: base, publish: publish, serviceEnd: serviceEnd)
            if bundles.contains(where: { $0.name == bundle.name }) {
                throw doc.error(item, "bundle name `\(bundle.name)` is used twice")
            }
            bundles.append(bundle)
        }
        guard !bundles.isEmpty else { throw doc.error(bundlesNode, "`bundles` is empty") }
        var config = PipelineConfig(
            file: file, output: URL(fileURLWithPath: output, relativeTo: base).standardizedFileURL,
            keep: keep, bundles: bundles)
        config.publish = publish
        return config
    }

    /// `publish` is the top-level target, the bundle's unless it names its own.
    private func parseBundle(_ node: Node, doc: YAMLReader, base: URL, publish: PublishTarget?, serviceEnd: ServiceEndSettings) throws(ConfigError)
        -> BundleConfig
    {
        let map = try doc.mapping(
            node,
            allowed: [
                "name", "sources", "fail_on_error", "max_dropped_share", "opposites", "max_delta_share", "signing_key", "sqlite_modules", "publish",
                "zip_limits", "service_end", "network",
            ], context: "a bundle")
        guard let nameNode = map["name"] else { throw doc.error(node, "a bundle needs a `name`") }
        let name = try doc.string(nameNode, "name")
        guard name.range(of: "^[A-Za-z0-9][A-Za-z0-9_.-]*$", options: .regularExpression) != nil else {
            throw doc.error(nameNode, "bundle name `\(name)` must be letters, digits, `_`, `-` or `.` (it names a folder)")
        }
        guard let sourcesNode = map["sources"] else { throw doc.error(node, "bundle `\(name)` needs `sources`") }
        let items = try doc.sequence(sourcesNode, "sources")
        guard !items.isEmpty else { throw doc.error(sourcesNode, "bundle `\(name)` has no sources") }
        var sources: [SourceConfig] = []
        for item in items {
            let source = try parseSource(item, doc: doc, base: base, several: items.count > 1)
            if sources.contains(where: { $0.id == source.id }) {
                throw doc.error(item, "source id `\(source.id)` is used twice in bundle `\(name)`")
            }
            // Ids from two sources must never collide: no prefix may begin another.
            if let clash = sources.first(where: { $0.prefix.hasPrefix(source.prefix) || source.prefix.hasPrefix($0.prefix) }) {
                throw doc.error(
                    item,
                    "source `\(source.id)`'s prefix `\(source.prefix)` clashes with source `\(clash.id)`'s `\(clash.prefix)`: give each source a distinct prefix"
                )
            }
            sources.append(source)
        }
        var strictness = Strictness()
        if let n = map["fail_on_error"] { strictness.failOnError = try doc.bool(n, "fail_on_error") }
        if let n = map["max_dropped_share"] {
            let share = try doc.double(n, "max_dropped_share")
            guard (0...1).contains(share) else { throw doc.error(n, "`max_dropped_share` must be between 0 and 1 (0.05 is 5%)") }
            strictness.maxDroppedShare = share
        }
        var opposites = OppositeStopsSettings()
        if let n = map["opposites"] {
            let o = try doc.mapping(n, allowed: ["max_distance", "rail_max_distance", "min_confidence"], context: "`opposites`")
            if let v = o["max_distance"] { opposites.maxDistance = try positive(doc, v, "max_distance") }
            if let v = o["rail_max_distance"] { opposites.railMaxDistance = try positive(doc, v, "rail_max_distance") }
            if let v = o["min_confidence"] {
                opposites.minConfidence = try doc.double(v, "min_confidence")
                guard (0...1).contains(opposites.minConfidence) else { throw doc.error(v, "`min_confidence` must be between 0 and 1") }
            }
        }
        var config = BundleConfig(name: name, sources: sources, strictness: strictness, opposites: opposites)
        if let n = map["network"] {
            (config.network, config.networkOverridesFile) = try NetworkConfigParser(doc: doc, base: base, checksFiles: checksSourceFiles).parse(n)
        }
        if let n = map["max_delta_share"] {
            config.maxDeltaShare = try doc.double(n, "max_delta_share")
            guard (0...1).contains(config.maxDeltaShare) else { throw doc.error(n, "`max_delta_share` must be between 0 and 1 (0.5 is half the bundle)") }
        }
        if let n = map["zip_limits"] {
            let limits = try doc.mapping(n, allowed: ["max_entry_size_mb", "max_compression_ratio"], context: "`zip_limits`")
            if let v = limits["max_entry_size_mb"] {
                config.archiveLimits.maxEntryBytes = UInt64(try doc.int(v, "max_entry_size_mb", min: 1)) << 20
            }
            if let v = limits["max_compression_ratio"] {
                config.archiveLimits.maxRatio = try doc.double(v, "max_compression_ratio")
                guard config.archiveLimits.maxRatio >= 1 else { throw doc.error(v, "`max_compression_ratio` must be at least 1") }
            }
        }
        if let n = map["sqlite_modules"] {
            for item in try doc.sequence(n, "sqlite_modules") {
                let word = try doc.string(item, "sqlite_modules")
                guard let module = SQLiteModules.names.first(where: { $0.0 == word })?.1 else {
                    throw doc.error(item, "unknown SQLite module `\(word)`: `sqlite_modules` takes `rtree` and `fts5`")
                }
                config.sqliteModules.insert(module)
            }
        }
        if let n = map["signing_key"] {
            let path = try doc.string(n, "signing_key")
            let url = URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw doc.error(n, "no key file at `\(path)` (make one with `feedc keygen`)")
            }
            config.signingKey = url
        }
        config.serviceEnd = try map["service_end"].map { n throws(ConfigError) in try parseServiceEnd(n, doc: doc, base: serviceEnd) } ?? serviceEnd
        config.publish = try map["publish"].map { n throws(ConfigError) in try PublishConfigParser(doc: doc).parse(n) } ?? publish
        return config
    }

    /// `service_end: {warn_days: [30, 7], fail_within_days: 3}`; both optional, a bundle's keys
    /// override the top level's (`base`) one by one.
    private func parseServiceEnd(_ node: Node, doc: YAMLReader, base: ServiceEndSettings) throws(ConfigError) -> ServiceEndSettings {
        let map = try doc.mapping(node, allowed: ["warn_days", "fail_within_days"], context: "`service_end`")
        var settings = base
        if let n = map["warn_days"] {
            var days: [Int] = []
            for item in try doc.sequence(n, "warn_days") { days.append(try doc.int(item, "warn_days", min: 0)) }
            settings.warnDays = Array(Set(days)).sorted(by: >)
        }
        if let n = map["fail_within_days"] { settings.failWithinDays = try doc.int(n, "fail_within_days", min: 0) }
        return settings
    }

    private func positive(_ doc: YAMLReader, _ node: Node, _ key: String) throws(ConfigError) -> Double {
        let value = try doc.double(node, key)
        guard value > 0 else { throw doc.error(node, "`\(key)` must be a distance in metres, above 0") }
        return value
    }

    private func parseSource(_ node: Node, doc: YAMLReader, base: URL, several: Bool) throws(ConfigError) -> SourceConfig {
        let map = try doc.mapping(
            node, allowed: ["id", "format", "path", "url", "prefix", "schema", "timezone", "max_download_mb", "download_timeout", "realtime_trip_ids"],
            context: "a source")
        guard let idNode = map["id"] else { throw doc.error(node, "a source needs an `id`") }
        let id = try doc.string(idNode, "id")
        guard id.range(of: "^[A-Za-z0-9][A-Za-z0-9_.-]*$", options: .regularExpression) != nil else {
            throw doc.error(idNode, "source id `\(id)` must be letters, digits, `_`, `-` or `.`")
        }
        let formatName = try map["format"].map { n throws(ConfigError) in try doc.string(n, "format") } ?? "gtfs"
        guard let format = SourceFormat(rawValue: formatName) else {
            throw doc.error(map["format"]!, "unknown format `\(formatName)`; supported: \(SourceFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let location: SourceLocation
        switch (map["path"], map["url"]) {
        case (let p?, nil):
            let path = try doc.string(p, "path")
            let url = URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL
            guard !checksSourceFiles || FileManager.default.fileExists(atPath: url.path) else {
                throw doc.error(p, "no file or folder at `\(path)` (looked for \(url.path))")
            }
            location = .path(url)
        case (nil, let u?):
            let text = try doc.string(u, "url")
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
                throw doc.error(u, "`\(text)` is not a URL")
            }
            switch scheme {
            case "http", "https": location = .remote(url)
            case "file":
                // file:relative/path is relative to this file's folder, like `path:`.
                let local = url.path.hasPrefix("/") ? url : URL(fileURLWithPath: String(text.dropFirst("file:".count)), relativeTo: base).standardizedFileURL
                guard !checksSourceFiles || FileManager.default.fileExists(atPath: local.path) else { throw doc.error(u, "no file at `\(local.path)`") }
                location = .path(local)
            default: throw doc.error(u, "unsupported URL scheme `\(scheme)`; use http, https or file")
            }
        case (nil, nil): throw doc.error(node, "source `\(id)` needs a `path` or a `url`")
        case (_?, _?): throw doc.error(node, "source `\(id)` has both `path` and `url`; give one")
        }
        let prefix = try map["prefix"].map { n throws(ConfigError) in try doc.string(n, "prefix", allowEmpty: !several) } ?? (several ? "\(id):" : "")
        var schema: URL?
        if let n = map["schema"] {
            guard format == .kalkati else {
                throw doc.error(n, "`schema` applies to `format: kalkati` sources only (NextBus responses are checked against a built-in schema)")
            }
            let path = try doc.string(n, "schema")
            let url = URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL
            guard !checksSourceFiles || FileManager.default.fileExists(atPath: url.path) else {
                throw doc.error(n, "no schema file at `\(path)` (looked for \(url.path))")
            }
            schema = url
        }
        var timezone: String?
        if let n = map["timezone"] {
            guard format != .gtfs else { throw doc.error(n, "`timezone` applies to kalkati and nextbus sources only (GTFS names its own)") }
            let zone = try doc.string(n, "timezone")
            guard TimeZone(identifier: zone) != nil, zone.contains("/") else {
                throw doc.error(n, "`\(zone)` is not an IANA time zone such as Europe/Helsinki or America/New_York")
            }
            timezone = zone
        }
        var source = SourceConfig(id: id, format: format, location: location, prefix: prefix, schema: schema, timezone: timezone)
        for (key, n) in [("max_download_mb", map["max_download_mb"]), ("download_timeout", map["download_timeout"])] {
            guard let n else { continue }
            guard case .remote = location else { throw doc.error(n, "`\(key)` applies to `url:` sources only") }
            let value = try doc.double(n, key)
            guard value > 0 else { throw doc.error(n, "`\(key)` must be above 0") }
            if key == "max_download_mb" { source.maxDownloadBytes = Int(value * 1_048_576) } else { source.downloadDeadline = value }
        }
        if let n = map["realtime_trip_ids"] {
            let name = try doc.string(n, "realtime_trip_ids")
            guard format == .gtfs, let convention = RealtimeTripIdConvention(rawValue: name) else {
                throw doc.error(
                    n, "`realtime_trip_ids` takes \(RealtimeTripIdConvention.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ")) on a GTFS source")
            }
            source.realtimeTripIds = convention
        }
        return source
    }

    static func describe(_ error: YamlError, file: String) -> ConfigError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return ConfigError(file: file, line: mark.line, column: mark.column, "invalid YAML: \(problem)")
        default:
            return ConfigError(file: file, "invalid YAML: \(error)")
        }
    }
}
