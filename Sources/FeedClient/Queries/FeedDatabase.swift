import BundleFormat
import FeedSQLite
import Foundation

/// A bundle database, read-only, answering each screen's question of a rider app with the
/// queries documented in docs/bundle-format.md (word for word: `DocumentedQueries`).
///
/// Reads go on while ``FeedClient`` applies a delta (the database is in WAL mode: each query sees
/// the last committed version). When an update replaced the whole file, the next query reopens
/// it, so an open `FeedDatabase` never shows a version older than the file's. No compiler
/// module is involved: this is the app side.
public actor FeedDatabase {
    /// The bundle's SQLite file.
    public nonisolated let path: URL
    private var connection: Database
    private var identity: FileIdentity
    /// The documented queries prepared once per connection, by name (a lookup is a bind and a
    /// step, not a parse of the SQL again: 0.3 ms less for the real-time trip lookup).
    private var statements: [String: Statement] = [:]

    /// Opens the bundle at `path`. Throws ``ClientError/noDatabase(path:)`` when there is no file
    /// yet (first launch: run ``FeedClient/update(progress:)`` first), and
    /// ``ClientError/notABundle(path:reason:)`` for a file that is not SQLite, a database that is
    /// not a feedc bundle, or a bundle of another format.
    public init(path: URL) throws(ClientError) {
        self.path = path
        (connection, identity) = try Self.open(path)
    }

    /// The version the database holds now.
    public var version: Int {
        get throws(ClientError) {
            try refresh()
            let row = try connection.resultRows("meta version", "SELECT value FROM meta WHERE key = 'version'").first
            return Int(try row?.optionalText("value") ?? "") ?? 0
        }
    }

    /// Stops within `radius` metres (a square box) of `point`, nearest first, each with its
    /// distance. Empty when none is that near.
    public func stops(near point: Coordinate, radius: Double = 500, limit: Int = 20) throws(ClientError) -> [Stop] {
        let dlat = radius / 111_320
        let scale = cos(point.latitude * .pi / 180)
        let dlon = scale > 1e-9 ? min(180, dlat / scale) : 180
        return try run(
            "stops_near",
            [
                "lat": .real(point.latitude), "lon": .real(point.longitude), "dlat": .real(dlat),
                "dlon": .real(dlon), "lon_scale": .real(scale), "limit": .integer(Int64(limit)),
            ]
        )
        .map { row throws(ClientError) in
            Stop(
                id: try row.text("stop_id"), name: try row.optionalText("name"), code: try row.optionalText("code"),
                coordinate: try Self.coordinate(row), distanceMetres: try row.real("distance").squareRoot() * 111_320)
        }
    }

    /// Stops whose name or code has words starting with every word of `text` (any case,
    /// accents, punctuation). Empty or punctuation-only text finds nothing.
    public func searchStops(_ text: String, limit: Int = 20) throws(ClientError) -> [Stop] {
        let query = SearchText.query(text)
        guard !query.isEmpty else { return [] }
        return try run("stops_named", ["query": .text(query), "limit": .integer(Int64(limit))])
            .map { row throws(ClientError) in
                Stop(
                    id: try row.text("stop_id"), name: try row.optionalText("name"), code: try row.optionalText("code"),
                    coordinate: try Self.coordinate(row))
            }
    }

    /// The lines calling at a stop (at a station: at any of its platforms).
    public func lines(at stopID: String) throws(ClientError) -> [Line] {
        try run("lines_at_stop", ["stop_id": .text(stopID)]).map { row throws(ClientError) in
            Line(
                id: try row.text("route_id"), shortName: try row.optionalText("short_name"), longName: try row.optionalText("long_name"),
                type: try row.int("type"), color: try row.optionalText("color"), textColor: try row.optionalText("text_color"),
                trips: try row.int("trips"))
        }
    }

    /// A line's user-facing directions, in index order.
    public func directions(of routeID: String) throws(ClientError) -> [LineDirection] {
        try run("line_directions", ["route_id": .text(routeID)]).map { row throws(ClientError) in
            LineDirection(
                index: try row.int("direction_index"), name: try row.text("name"), headsign: try row.text("headsign"),
                terminalStopIDs: try Self.strings(row, "terminal_stop_ids"), isLoop: try row.int("is_loop") == 1)
        }
    }

    /// A line's stops in order, in one direction.
    public func stops(of routeID: String, direction: Int) throws(ClientError) -> [Stop] {
        try run("direction_stops", ["route_id": .text(routeID), "direction_index": .integer(Int64(direction))])
            .map { row throws(ClientError) in
                Stop(id: try row.text("stop_id"), name: try row.optionalText("name"), code: nil, coordinate: try Self.coordinate(row))
            }
    }

    /// Every (line, direction) serving a stop, with the headsigns seen there.
    public func stopLines(at stopID: String) throws(ClientError) -> [StopLine] {
        try run("stop_lines", ["stop_id": .text(stopID)]).map { row throws(ClientError) in
            StopLine(
                routeID: try row.text("route_id"), shortName: try row.optionalText("short_name"),
                directionIndex: try row.int("direction_index"), directionName: try row.text("direction"),
                headsigns: try Self.strings(row, "headsigns"))
        }
    }

    /// The stop across the street, best first; for one line when `line` is given.
    public func oppositeStop(of stopID: String, line: String? = nil) throws(ClientError) -> [OppositeStop] {
        let rows =
            if let line {
                try run("opposite_stop_on_line", ["stop_id": .text(stopID), "route_id": .text(line)])
            } else {
                try run("opposite_stop", ["stop_id": .text(stopID)])
            }
        return try rows.map { row throws(ClientError) in
            OppositeStop(
                stopID: try row.text("opposite_stop_id"), name: try row.optionalText("name"),
                distanceMetres: try row.real("distance_m"), confidence: try row.real("confidence"),
                routeIDs: try Self.strings(row, "route_ids"))
        }
    }

    /// The next departures from a stop at `moment`, soonest first: both service days that
    /// overlap it (a rider at 00:15 sees the previous day's 24:18 trains), every run of
    /// frequency-based trips, the service calendar and the agency's time zone handled here.
    /// `language` (BCP 47, e.g. `sv`) picks translated headsigns where the feed has them.
    public func departures(
        at stopID: String, after moment: Date = Date(), limit: Int = 20,
        language: String? = nil
    ) throws(ClientError) -> [Departure] {
        let zoneName = try run("stop_timezone", ["stop_id": .text(stopID)]).first?.optionalText("timezone") ?? "UTC"
        guard let zone = TimeZone(identifier: zoneName) else { throw .notABundle(path: path.path, reason: "unknown agency time zone `\(zoneName)`") }
        var parameters = ServiceTime(moment, timeZone: zone).parameters
        parameters["stop_id"] = .text(stopID)
        parameters["limit"] = .integer(Int64(limit))
        parameters["lang"] = language.map { .text($0.lowercased()) } ?? .null
        return try run("next_departures", parameters).map { row throws(ClientError) in
            let serviceDate = try row.int("service_date"), seconds = try row.int("departure")
            return Departure(
                tripID: try row.text("trip_id"), routeID: try row.text("route_id"),
                headsign: try row.optionalText("headsign"),
                time: ServiceTime.instant(serviceDate: serviceDate, seconds: seconds, timeZone: zone),
                serviceDate: serviceDate, serviceSeconds: seconds, directionIndex: try row.int("direction_index"),
                isExact: try row.int("exact") != 0, headway: try row.optionalInt("headway_secs"))
        }
    }

    // MARK: - Running the documented SQL

    /// A documented query's rows, read by column name and type (``ResultRow``).
    func run(_ name: String, _ parameters: [String: SQLValue]) throws(ClientError) -> [ResultRow] {
        try refresh()
        let statement: Statement
        if let prepared = statements[name] {
            statement = prepared
        } else {
            do {
                statement = try connection.prepare(DocumentedQueries.sql(name))
            } catch {
                throw Self.queryError(error, path: path.path)
            }
            statements[name] = statement
        }
        return try connection.resultRows(name, statement, named: parameters)
    }

    func readRows(_ sql: String, _ arguments: [SQLValue]) throws(ClientError) -> [[SQLValue]] {
        try refresh()
        do {
            let statement = try connection.prepare(sql)
            try statement.bind(arguments)
            var rows: [[SQLValue]] = []
            while try statement.step() { rows.append(statement.row()) }
            return rows
        } catch {
            // The app's SQL at fault (syntax, a name, a write): `.badQuery`; the file or the disk:
            // as any query's failure.
            switch error.code & 0xFF {
            case 5, 6, 7, 10, 11, 13, 14, 26: throw Self.queryError(error, path: path.path)
            default: throw .badQuery(reason: error.description)
            }
        }
    }

    /// A query's SQLite failure in the app's terms, by its primary result code: busy or locked
    /// (an update holds the file longer than the wait) is ``ClientError/busy(path:)``, a
    /// transient state; memory, disk and I/O failures are ``ClientError/local(path:reason:)``;
    /// anything else (a damaged file, a table or column missing) is
    /// ``ClientError/notABundle(path:reason:)``, which the next update replaces.
    static func queryError(_ error: SQLiteError, path: String) -> ClientError {
        switch error.code & 0xFF {
        case 5, 6: .busy(path: path)  // SQLITE_BUSY, SQLITE_LOCKED
        case 7, 10, 13, 14: .local(path: path, reason: error.description)  // NOMEM, IOERR, FULL, CANTOPEN
        default: .notABundle(path: path, reason: error.description)
        }
    }

    /// Reopens the file when an update renamed a new one over it.
    private func refresh() throws(ClientError) {
        let now = FileIdentity(path.path)
        guard now != identity else { return }
        statements = [:]
        (connection, identity) = try Self.open(path)
    }

    private static func open(_ path: URL) throws(ClientError) -> (Database, FileIdentity) {
        guard FileManager.default.fileExists(atPath: path.path) else { throw .noDatabase(path: path.path) }
        let identity = FileIdentity(path.path)
        do {
            let database = try Database(path: path.path, mode: .readOnly)
            database.busyTimeout(milliseconds: 2000)
            guard try database.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'")?.int == 1,
                let format = try database.scalar("SELECT value FROM meta WHERE key = 'format'")?.string
            else {
                throw ClientError.notABundle(path: path.path, reason: "not a feedc bundle (no meta table)")
            }
            guard format == String(BundleSchema.formatVersion) else {
                throw ClientError.notABundle(path: path.path, reason: "bundle format \(format); this library reads format \(BundleSchema.formatVersion)")
            }
            return (database, identity)
        } catch let error as ClientError {
            throw error
        } catch {
            throw .notABundle(path: path.path, reason: "\(error)")
        }
    }

    /// A row's `lat` and `lon`; nil when the stop has none (a GTFS-Flex stop may not).
    static func coordinate(_ row: ResultRow) throws(ClientError) -> Coordinate? {
        guard let latitude = try row.optionalReal("lat"), let longitude = try row.optionalReal("lon") else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// A JSON array of strings (display lists such as headsigns), parsed in code; empty when the
    /// column is. Text that is not such an array is a damaged bundle.
    static func strings(_ row: ResultRow, _ column: String) throws(ClientError) -> [String] {
        guard let text = try row.optionalText(column) else { return [] }
        guard let list = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else {
            throw .notABundle(path: row.columns.path, reason: "query \(row.columns.query): \(column) is not a JSON list of strings")
        }
        return list
    }
}

/// Which file a path names now: device and inode, so a file renamed over it is noticed.
struct FileIdentity: Equatable {
    var device: UInt64 = 0
    var inode: UInt64 = 0

    init(_ path: String) {
        var info = stat()
        if stat(path, &info) == 0 {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }
}
