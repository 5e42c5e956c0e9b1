import BundleFormat
import FeedEnhancement
import FeedModel
import FeedSQLite

/// The rows of every bundle table, before they are written, each table's kept compactly
/// (``TableRows``).
package struct BundleContent: Sendable {
    private(set) var tables: [String: TableRows] = [:]

    package init() {}

    /// Appends `row` to its table, as its values in the table's column order. Inlined with the
    /// row's ``BundleRow/values()``, so that its fields move into the values uncopied.
    @inline(__always)
    mutating func append<Row: BundleRow>(_ row: consuming Row) {
        append(Row.table, row.values())
    }

    private mutating func append(_ table: BundleTable, _ row: [SQLValue]) {
        precondition(row.count == table.columns.count, "\(table.name): \(row.count) values for \(table.columns.count) columns")
        tables[table.name, default: TableRows(width: table.columns.count)].append(row)
    }

    /// Appends `rows` to `table`, made when they are read (``GeneratedRows``); no row is
    /// appended to the table after them.
    mutating func append(_ table: BundleTable, generated rows: any GeneratedRows) {
        tables[table.name, default: TableRows(width: table.columns.count)].append(generated: rows)
    }

    /// The rows of `table`, in the order they were appended.
    func rows(of table: BundleTable) -> TableRows { tables[table.name] ?? TableRows(width: table.columns.count) }

    /// The rows of `Row`'s table so far, in the order they were appended, read through its fields.
    func rows<Row: BundleRow>(_: Row.Type) -> LazyMapSequence<TableRows, Row> {
        rows(of: Row.table).lazy.map(Row.init(values:))
    }

    /// Appends every row of `other`, after the rows already here.
    mutating func append(contentsOf other: consuming BundleContent) {
        for (name, rows) in other.tables {
            if let mine = tables.removeValue(forKey: name) {
                var joined = mine
                joined.append(contentsOf: rows)
                tables[name] = joined
            } else {
                tables[name] = rows
            }
        }
    }

    package func count(_ table: BundleTable) -> Int { tables[table.name]?.count ?? 0 }
}

/// One source of a bundle, validated and frozen, with the prefix that namespaces its ids.
package struct SourceFeed: Sendable {
    package var id: String
    /// Put before every id of this source (`bart:`), so sources of one bundle never collide;
    /// empty for a single-source bundle.
    package var prefix: String
    package var feed: Feed
    /// The directions stage's result for this feed.
    package var directions: FeedDirections
    /// The opposite-stops stage's result for this feed.
    package var opposites: FeedOpposites
    /// How walks are timed (the bundle's `network:` settings).
    package var network: NetworkSettings
    /// Walks through the feed's pathways (feed ids), from the network stage.
    package var pathwayWalks: [StopTransfer]

    package init(
        id: String, prefix: String, feed: Feed, directions: FeedDirections, opposites: FeedOpposites,
        network: NetworkSettings = NetworkSettings(), pathwayWalks: [StopTransfer] = []
    ) {
        self.id = id
        self.prefix = prefix
        self.feed = feed
        self.directions = directions
        self.opposites = opposites
        self.network = network
        self.pathwayWalks = pathwayWalks
    }

    /// `id` as a bundle id: with the source's prefix.
    func ns(_ id: String) -> String { prefix + id }

    /// `id` as a bundle id, or nil.
    func ns(_ id: String?) -> String? { id.map { prefix + $0 } }
}
