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
    public nonisolated let path: URL
    private var connection: Database
    private var identity: FileIdentity

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
            return Int(try query("SELECT value FROM meta WHERE key = 'version'", [:]).first?[0].string ?? "") ?? 0
        }
    }

    /// Stops within `radius` metres (a square box) of `point`, nearest first, each with its
    /// distance. Empty when none is that near.
    public func stops(near point: Coordinate, radius: Double = 500, limit: Int = 20) throws(ClientError) -> [Stop] {
        let dlat = radius / 111_320
        let scale = cos(point.latitude * .pi / 180)
        let dlon = scale > 1e-9 ? min(180, dlat / scale) : 180
        return try run("stops_near", ["lat": .real(point.latitude), "lon": .real(point.longitude), "dlat": .real(dlat),
                                      "dlon": .real(dlon), "lon_scale": .real(scale), "limit": .integer(Int64(limit))])
            .map {
                Stop(id: $0[0].string ?? "", name: $0[1].string, code: $0[5].string, coordinate: Self.coordinate($0[2], $0[3]),
                     distanceMetres: ($0[4].double ?? 0).squareRoot() * 111_320)
            }
    }

    /// Stops whose name or code has words starting with every word of `text` (any case,
    /// accents, punctuation). Empty or punctuation-only text finds nothing.
    public func searchStops(_ text: String, limit: Int = 20) throws(ClientError) -> [Stop] {
        let query = SearchText.query(text)
        guard !query.isEmpty else { return [] }
        return try run("stops_named", ["query": .text(query), "limit": .integer(Int64(limit))])
            .map { Stop(id: $0[0].string ?? "", name: $0[1].string, code: $0[2].string, coordinate: Self.coordinate($0[4], $0[5])) }
    }

    /// The lines calling at a stop (at a station: at any of its platforms).
    public func lines(at stopID: String) throws(ClientError) -> [Line] {
        try run("lines_at_stop", ["stop_id": .text(stopID)]).map {
            Line(id: $0[0].string ?? "", shortName: $0[1].string, longName: $0[2].string, type: $0[3].int ?? 3,
                 color: $0[4].string, textColor: $0[5].string, trips: $0[6].int ?? 0)
        }
    }

    /// A line's user-facing directions, in index order.
    public func directions(of routeID: String) throws(ClientError) -> [LineDirection] {
        try run("line_directions", ["route_id": .text(routeID)]).map {
            LineDirection(index: $0[0].int ?? 0, name: $0[1].string ?? "", headsign: $0[2].string ?? "",
                          terminalStopIDs: Self.strings($0[3]), isLoop: $0[4].int == 1)
        }
    }

    /// A line's stops in order, in one direction.
    public func stops(of routeID: String, direction: Int) throws(ClientError) -> [Stop] {
        try run("direction_stops", ["route_id": .text(routeID), "direction_index": .integer(Int64(direction))])
            .map { Stop(id: $0[1].string ?? "", name: $0[2].string, code: nil, coordinate: Self.coordinate($0[3], $0[4])) }
    }

    /// Every (line, direction) serving a stop, with the headsigns seen there.
    public func stopLines(at stopID: String) throws(ClientError) -> [StopLine] {
        try run("stop_lines", ["stop_id": .text(stopID)]).map {
            StopLine(routeID: $0[0].string ?? "", shortName: $0[1].string, directionIndex: $0[2].int ?? 0,
                     directionName: $0[3].string ?? "", headsigns: Self.strings($0[4]))
        }
    }

    /// The stop across the street, best first; for one line when `line` is given.
    public func oppositeStop(of stopID: String, line: String? = nil) throws(ClientError) -> [OppositeStop] {
        let rows = if let line {
            try run("opposite_stop_on_line", ["stop_id": .text(stopID), "route_id": .text(line)])
        } else {
            try run("opposite_stop", ["stop_id": .text(stopID)])
        }
        return rows.map {
            OppositeStop(stopID: $0[0].string ?? "", name: $0[1].string, distanceMetres: $0[2].double ?? 0,
                         confidence: $0[3].double ?? 0, routeIDs: Self.strings($0[4]))
        }
    }

    /// The next departures from a stop at `moment`, soonest first: both service days that
    /// overlap it (a rider at 00:15 sees the previous day's 24:18 trains), every run of
    /// frequency-based trips, the service calendar and the agency's time zone handled here.
    /// `language` (BCP 47, e.g. `sv`) picks translated headsigns where the feed has them.
    public func departures(at stopID: String, after moment: Date = Date(), limit: Int = 20,
                           language: String? = nil) throws(ClientError) -> [Departure] {
        let zoneName = try run("stop_timezone", ["stop_id": .text(stopID)]).first?[0].string ?? "UTC"
        guard let zone = TimeZone(identifier: zoneName) else { throw .notABundle(path: path.path, reason: "unknown agency time zone `\(zoneName)`") }
        var parameters = ServiceTime(moment, timeZone: zone).parameters
        parameters["stop_id"] = .text(stopID)
        parameters["limit"] = .integer(Int64(limit))
        parameters["lang"] = language.map { .text($0.lowercased()) } ?? .null
        return try run("next_departures", parameters).map { row in
            let serviceDate = row[5].int ?? 0, seconds = row[3].int ?? 0
            return Departure(tripID: row[0].string ?? "", routeID: row[1].string ?? "", headsign: row[2].string,
                             time: ServiceTime.instant(serviceDate: serviceDate, seconds: seconds, timeZone: zone),
                             serviceDate: serviceDate, serviceSeconds: seconds, directionIndex: row[4].int ?? 0,
                             isExact: row[7].int != 0, headway: row[8].int)
        }
    }

    // MARK: - Running the documented SQL

    func run(_ name: String, _ parameters: [String: SQLValue]) throws(ClientError) -> [[SQLValue]] {
        try refresh()
        return try query(DocumentedQueries.sql(name), parameters)
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

    private func query(_ sql: String, _ parameters: [String: SQLValue]) throws(ClientError) -> [[SQLValue]] {
        do {
            let statement = try connection.prepare(sql)
            try statement.bind(named: parameters)
            var rows: [[SQLValue]] = []
            while try statement.step() { rows.append(statement.row()) }
            return rows
        } catch {
            throw Self.queryError(error, path: path.path)
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
        (connection, identity) = try Self.open(path)
    }

    private static func open(_ path: URL) throws(ClientError) -> (Database, FileIdentity) {
        guard FileManager.default.fileExists(atPath: path.path) else { throw .noDatabase(path: path.path) }
        let identity = FileIdentity(path.path)
        do {
            let database = try Database(path: path.path, mode: .readOnly)
            database.busyTimeout(milliseconds: 2000)
            guard try database.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'")?.int == 1,
                  let format = try database.scalar("SELECT value FROM meta WHERE key = 'format'")?.string else {
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

    static func coordinate(_ lat: SQLValue, _ lon: SQLValue) -> Coordinate? {
        guard let latitude = lat.double, let longitude = lon.double else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// A JSON array of strings (display lists such as headsigns), parsed in code.
    static func strings(_ value: SQLValue) -> [String] {
        guard let text = value.string else { return [] }
        return (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
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
