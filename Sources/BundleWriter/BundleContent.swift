import BundleFormat
import FeedEnhancement
import FeedModel
import FeedSQLite

/// The rows of every bundle table, before they are written.
package struct BundleContent: Sendable {
    package private(set) var rows: [String: [[SQLValue]]] = [:]

    package init() {}

    /// Appends `row` to its table, as its values in the table's column order. Inlined with the
    /// row's ``BundleRow/values()``, so that its fields move into the values as the positional
    /// arrays were built before (those of the timetable's pattern, timing and stop_routes rows
    /// do; a trip's twelve are still copied): called, each text was retained and released once
    /// more.
    @inline(__always)
    mutating func append<Row: BundleRow>(_ row: consuming Row) {
        append(Row.table, row.values())
    }

    private mutating func append(_ table: BundleTable, _ row: [SQLValue]) {
        precondition(row.count == table.columns.count, "\(table.name): \(row.count) values for \(table.columns.count) columns")
        rows[table.name, default: []].append(row)
    }

    /// The rows of `Row`'s table so far, in the order they were appended, read through its fields.
    func rows<Row: BundleRow>(_: Row.Type) -> LazyMapSequence<[[SQLValue]], Row> {
        (rows[Row.table.name] ?? []).lazy.map(Row.init(values:))
    }

    /// Appends every row of `other`, after the rows already here.
    mutating func append(contentsOf other: BundleContent) {
        for (table, rows) in other.rows {
            self.rows[table, default: []].append(contentsOf: rows)
        }
    }

    package func count(_ table: BundleTable) -> Int { rows[table.name]?.count ?? 0 }
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
