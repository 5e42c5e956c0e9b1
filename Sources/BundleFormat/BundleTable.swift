import FeedModel

/// A column of a bundle table.
public struct BundleColumn: Sendable {
    /// The column's SQL name.
    public var name: String
    /// `TEXT`, `INTEGER` or `REAL`.
    public var sqlType: String
    /// True when the column is `NOT NULL`.
    public var notNull: Bool
    /// What the column holds, for docs/bundle-format.md.
    public var doc: String

    /// A column; `doc` empty for none.
    public init(_ name: String, _ sqlType: String, notNull: Bool = false, doc: String = "") {
        self.name = name
        self.sqlType = sqlType
        self.notNull = notNull
        self.doc = doc
    }

    /// A column copied from a GTFS field: its type comes from the GTFS schema declaration.
    public static func gtfs(_ table: TableSchema, _ field: String, as name: String? = nil, doc: String = "") -> BundleColumn {
        guard let source = table.field(field) else { preconditionFailure("GTFS \(table.name) has no \(field)") }
        let text = doc.isEmpty ? "GTFS `\(table.fileName)` `\(field)`" : doc
        return BundleColumn(name ?? field, source.kind.sqlType, notNull: source.presence == .required, doc: text)
    }
}

/// A table of the bundle, declared once: DDL, documentation, digest order and delta keys all
/// come from this declaration.
public struct BundleTable: Sendable {
    /// The table's SQL name.
    public var name: String
    /// The columns, in DDL order.
    public var columns: [BundleColumn]
    /// Stable feed ids, never row counters: deltas between versions match rows by this key.
    public var primaryKey: [String]
    /// What the table holds, for docs/bundle-format.md.
    public var doc: String

    /// A table declared by name, key, documentation and columns.
    public init(_ name: String, primaryKey: [String], doc: String, _ columns: [BundleColumn]) {
        self.name = name
        self.primaryKey = primaryKey
        self.doc = doc
        self.columns = columns
    }

    /// Tables read by rowid-based indexes (R-tree, FTS5) keep their rowid; the others are
    /// clustered on their key.
    public var keepsRowid: Bool { name == "stops" }

    /// `CREATE TABLE`, clustered on the key unless the table keeps its rowid.
    public var ddl: String {
        var lines = columns.map { column in
            "  \(column.name) \(column.sqlType)\(column.notNull ? " NOT NULL" : "")"
        }
        lines.append("  PRIMARY KEY (\(primaryKey.joined(separator: ", ")))")
        return "CREATE TABLE \(name) (\n\(lines.joined(separator: ",\n"))\n)\(keepsRowid ? "" : " WITHOUT ROWID");"
    }

    /// The column names, in DDL order.
    public var columnNames: [String] { columns.map(\.name) }

    /// `INSERT INTO name (a, b) VALUES (?, ?)`.
    public var insertSQL: String {
        "INSERT INTO \(name) (\(columnNames.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
    }

    /// Every row, in key order: the canonical order digests and deltas use.
    public var selectInKeyOrderSQL: String {
        "SELECT \(columnNames.joined(separator: ", ")) FROM \(name) ORDER BY \(primaryKey.joined(separator: ", "))"
    }
}

/// An index of a bundle table, declared with the tables (``BundleSchema/indexes``).
public struct BundleIndex: Sendable {
    /// The index's SQL name.
    public var name: String
    /// The table it indexes.
    public var table: String
    /// The indexed columns, in order.
    public var columns: [String]

    /// An index `name` on `columns` of `table`.
    public init(_ name: String, on table: String, _ columns: [String]) {
        self.name = name
        self.table = table
        self.columns = columns
    }

    /// `CREATE INDEX`.
    public var ddl: String { "CREATE INDEX \(name) ON \(table) (\(columns.joined(separator: ", ")))" }
}
