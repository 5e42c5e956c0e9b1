/// A whole GTFS feed: one ``Table`` per schema table, keyed by table name.
///
/// After validation the feed is frozen (a `let` value handed downstream); later stages read it
/// and produce new tables of their own, never editing it.
public struct Feed: Sendable {
    /// The tables the feed holds, by GTFS table name (a missing file may have none).
    public private(set) var tables: [String: Table]
    /// Names of the GTFS files the dump holds, usable or not (a file without header is here but
    /// its table is missing): MobilityData reports such a file as empty, not as missing.
    public let dumpFiles: Set<String>
    /// The folder of the dump the files were read from when none sat at its top level, where
    /// MobilityData looks (nil otherwise): its validator reports every one of them as missing.
    public let subfolder: String?

    /// A feed of `tables`; `dumpFiles` defaults to the files of the present tables.
    public init(tables: [String: Table], dumpFiles: Set<String>? = nil, subfolder: String? = nil) {
        self.tables = tables
        self.subfolder = subfolder
        self.dumpFiles = dumpFiles ?? Set(tables.values.filter(\.isPresent).map(\.schema.fileName))
    }

    /// The table named `name`, or an empty missing one when the feed has none.
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

    /// agency.txt.
    public var agency: Table { self["agency"] }
    /// stops.txt.
    public var stops: Table { self["stops"] }
    /// routes.txt.
    public var routes: Table { self["routes"] }
    /// trips.txt.
    public var trips: Table { self["trips"] }
    /// stop_times.txt.
    public var stopTimes: Table { self["stop_times"] }
    /// calendar.txt.
    public var calendar: Table { self["calendar"] }
    /// calendar_dates.txt.
    public var calendarDates: Table { self["calendar_dates"] }
    /// shapes.txt.
    public var shapes: Table { self["shapes"] }
    /// frequencies.txt.
    public var frequencies: Table { self["frequencies"] }
    /// feed_info.txt.
    public var feedInfo: Table { self["feed_info"] }
    /// translations.txt.
    public var translations: Table { self["translations"] }

    /// The feed as later stages read it: every table without its line numbers
    /// (``Table/forgettingLines()``), which only validation needs.
    public func forgettingLines() -> Feed {
        Feed(tables: tables.mapValues { $0.forgettingLines() }, dumpFiles: dumpFiles, subfolder: subfolder)
    }

    /// Row counts per table, for reports and tests.
    public var rowCounts: [String: Int] {
        tables.mapValues(\.count)
    }
}
