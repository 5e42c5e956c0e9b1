import FeedSQLite

/// What a client checks of a downloaded bundle before it replaces the local database, beyond the
/// content digest (docs/update-protocol.md, "One update, step by step"): the schema holds nothing
/// that runs by itself or forever (no triggers; views and virtual tables only as this format
/// defines them, to the letter), and `meta` names the manifest's bundle, format and version.
///
/// The digest covers the schema, but a hostile server publishes a digest of its own bundle; and
/// it leaves `meta.version` out, so without this check a bundle claiming version 999999 would
/// make every later manifest look older and the app would never update again.
public enum InstalledBundleCheck {
    /// Why a bundle was refused.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// What was wrong, in one sentence.
        public var reason: String
        /// The reason.
        public var description: String { reason }
        /// A refusal for `reason`.
        public init(reason: String) { self.reason = reason }
    }

    /// Checks `database` against what the manifest says it is.
    public static func check(_ database: Database, bundle: String, version: Int) throws {
        try checkSchema(database)
        try checkMeta(database, bundle: bundle, version: version)
    }

    /// Throws when the schema holds a trigger, or a view or virtual table that the format does not
    /// define to the letter.
    public static func checkSchema(_ database: Database) throws {
        // Every object, whatever its name (`LIKE 'sqlite_%'` would also skip `sqliteX`: `_` is
        // a wildcard), and a virtual table known by its root page 0, not by its text.
        let schema = try database.rows("SELECT type, name, sql, rootpage FROM sqlite_master ORDER BY type, name")
        let views = Set(BundleSchema.views)
        let virtualTables = Set(SQLiteModules.all.ddl)
        for row in schema {
            let type = row[0].string ?? "", name = row[1].string ?? "", sql = row[2].string ?? ""
            let virtual = type == "table" && row[3].int == 0
            switch type {
            case "trigger":
                throw Refusal(reason: "the bundle holds a trigger (\(name)); bundles have none")
            case "view" where !views.contains(sql):
                throw Refusal(reason: "the bundle holds a view `\(name)` that the format does not define")
            case "table" where virtual && !virtualTables.contains(sql):
                throw Refusal(reason: "the bundle holds a virtual table `\(name)` that the format does not define")
            default:
                continue
            }
        }
    }

    private static func checkMeta(_ database: Database, bundle: String, version: Int) throws {
        var meta: [String: String] = [:]
        for row in try database.rows("SELECT key, value FROM meta") {
            guard let key = row[0].string else { continue }
            // One row per key (a hostile `meta` without its primary key could hold two).
            guard meta[key] == nil else { throw Refusal(reason: "meta holds `\(key)` twice") }
            meta[key] = row[1].string ?? ""
        }
        let expected = ["bundle": bundle, "format": String(BundleSchema.formatVersion), "version": String(version)]
        for (key, value) in expected.sorted(by: { $0.key < $1.key }) where meta[key] != value {
            throw Refusal(reason: "meta.\(key) is \(meta[key].map { "`\($0)`" } ?? "missing"), the manifest says `\(value)`")
        }
    }
}
