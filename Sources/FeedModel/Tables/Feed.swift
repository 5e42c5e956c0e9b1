/// A whole GTFS feed: one ``Table`` per schema table, keyed by table name.
///
/// After validation the feed is frozen (a `let` value handed downstream); later stages read it
/// and produce new tables of their own, never editing it.
public struct Feed: Sendable {
    public private(set) var tables: [String: Table]

    public init(tables: [String: Table]) {
        self.tables = tables
    }

    public subscript(_ name: String) -> Table {
        get {
            if let table = tables[name] { return table }
            guard let schema = GTFSSchema.table(named: name) else {
                preconditionFailure("no GTFS table \(name)")
            }
            return .missing(schema)
        }
        set { tables[name] = newValue }
    }

    public var agency: Table { self["agency"] }
    public var stops: Table { self["stops"] }
    public var routes: Table { self["routes"] }
    public var trips: Table { self["trips"] }
    public var stopTimes: Table { self["stop_times"] }
    public var calendar: Table { self["calendar"] }
    public var calendarDates: Table { self["calendar_dates"] }
    public var shapes: Table { self["shapes"] }
    public var frequencies: Table { self["frequencies"] }
    public var feedInfo: Table { self["feed_info"] }
    public var translations: Table { self["translations"] }

    /// Row counts per table, for reports and tests.
    public var rowCounts: [String: Int] {
        tables.mapValues(\.count)
    }
}
