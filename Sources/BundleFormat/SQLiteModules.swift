import FeedSQLite

/// Optional SQLite modules a bundle may also carry (`sqlite_modules:` in pipeline.yaml), for apps
/// that ship a full SQLite build (iOS): an R-tree for nearby stops and an FTS5 index for names.
/// Android's built-in SQLite and default WebAssembly builds have neither, so a bundle has none by
/// default, and every documented query has a portable form on plain tables.
public struct SQLiteModules: OptionSet, Sendable, Hashable {
    /// The modules as bits: 1 R-tree, 2 FTS5.
    public let rawValue: Int
    /// The modules of bits `rawValue`.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `stop_rtree`, an R-tree over the stops' positions.
    public static let rtree = SQLiteModules(rawValue: 1)
    /// `stop_search`, an FTS5 index of the stops' names and codes.
    public static let fts5 = SQLiteModules(rawValue: 2)
    /// Both modules.
    public static let all: SQLiteModules = [.rtree, .fts5]

    /// The names used in pipeline.yaml, in a fixed order.
    public static let names: [(String, SQLiteModules)] = [("rtree", .rtree), ("fts5", .fts5)]

    /// The pipeline.yaml names of the modules in this set, in the fixed order.
    public var names: [String] { Self.names.filter { contains($0.1) }.map(\.0) }

    /// The virtual tables' DDL.
    public var ddl: [String] {
        var out: [String] = []
        if contains(.rtree) { out.append("CREATE VIRTUAL TABLE stop_rtree USING rtree(id, min_lat, max_lat, min_lon, max_lon)") }
        if contains(.fts5) {
            out.append(
                "CREATE VIRTUAL TABLE stop_search USING fts5(name, code, content='stops', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2')")
        }
        return out
    }

    /// Brings the virtual tables up to date with `stops`: after writing a bundle, and after a
    /// delta is applied (the delta carries rows of content tables only).
    public var rebuild: [String] {
        var out: [String] = []
        if contains(.rtree) {
            out += [
                "DELETE FROM stop_rtree",
                "INSERT INTO stop_rtree SELECT rowid, lat, lat, lon, lon FROM stops WHERE lat IS NOT NULL AND lon IS NOT NULL",
            ]
        }
        if contains(.fts5) { out.append("INSERT INTO stop_search(stop_search) VALUES ('rebuild')") }
        return out
    }

    /// The modules a bundle file carries, read from its schema.
    public static func present(in database: Database) throws(SQLiteError) -> SQLiteModules {
        var modules: SQLiteModules = []
        for row in try database.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('stop_rtree', 'stop_search')") {
            if row[0].string == "stop_rtree" { modules.insert(.rtree) }
            if row[0].string == "stop_search" { modules.insert(.fts5) }
        }
        return modules
    }
}
