import FeedModel
import FeedSources
import Foundation

/// A GTFS dump read the plain way, for checking feedc's figures independently of the compiler:
/// every file as rows of text by column name (own CSV parsing; only the zip reading is shared
/// with feedc).
public struct RawGTFS {
    private var files: [String: [[String: String]]] = [:]
    /// Stop times per trip id.
    private var stopTimes: [String: Int] = [:]
    private var exceptions: [String: [Int: String]] = [:]
    private var frequencies: [String: [[String: String]]] = [:]

    /// Reads `url` (zip or folder); `keepingStopTimes` also keeps stop_times.txt's rows, and
    /// `also` names further files to keep.
    public init(_ url: URL, keepingStopTimes: Bool = false, also: [String] = []) throws {
        let archive = try DumpArchive(url: url, sink: NoticeSink())
        for name in ["routes.txt", "stops.txt", "trips.txt", "calendar.txt", "calendar_dates.txt", "frequencies.txt"] + also {
            if let bytes = try archive.read(name) { files[name] = RawGTFS.parse(bytes) }
        }
        if let bytes = try archive.read("stop_times.txt") {
            let rows = RawGTFS.parse(bytes)
            for row in rows { stopTimes[row["trip_id"] ?? "", default: 0] += 1 }
            if keepingStopTimes { files["stop_times.txt"] = rows }
        }
        for row in files["calendar_dates.txt"] ?? [] {
            if let service = row["service_id"], let date = Int(row["date"] ?? "") { exceptions[service, default: [:]][date] = row["exception_type"] }
        }
        for row in files["frequencies.txt"] ?? [] { frequencies[row["trip_id"] ?? "", default: []].append(row) }
    }

    public func rows(_ file: String) -> [[String: String]] { files[file] ?? [] }

    public func ids(_ file: String, _ column: String) -> Set<String> { Set(rows(file).compactMap { $0[column] }) }

    /// The frequencies.txt windows of `trip` (none for a scheduled trip).
    public func windows(of trip: String) -> [[String: String]] { frequencies[trip] ?? [] }

    /// How many stop times `trip` has.
    public func stopTimeCount(of trip: String) -> Int { stopTimes[trip, default: 0] }

    /// Trips running on `date`, all lines together.
    public func trips(on date: Int) -> Int {
        Set(rows("trips.txt").compactMap { $0["route_id"] }).reduce(0) { $0 + trips(route: $1, on: date) }
    }

    /// Whether `service` runs on `date` (YYYYMMDD), by the GTFS rules.
    public func runs(_ service: String, on date: Int) -> Bool {
        if let exception = exceptions[service]?[date] { return exception == "1" }
        guard let row = rows("calendar.txt").first(where: { $0["service_id"] == service }),
            let start = Int(row["start_date"] ?? ""), let end = Int(row["end_date"] ?? ""), start <= date, date <= end
        else { return false }
        let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        return row[names[RawGTFS.weekday(date)]] == "1"
    }

    /// Trips of `route` running on `date`: trips with at least two stop times whose service runs
    /// that day; a frequency-based trip counts once per run.
    public func trips(route: String, on date: Int) -> Int {
        var runsByService: [String: Bool] = [:]
        var total = 0
        for trip in rows("trips.txt") where trip["route_id"] == route {
            guard let id = trip["trip_id"], let service = trip["service_id"], stopTimes[id, default: 0] >= 2 else { continue }
            if runsByService[service] == nil { runsByService[service] = runs(service, on: date) }
            guard runsByService[service]! else { continue }
            total += runs(of: id)
        }
        return total
    }

    /// Runs of a trip on a day it runs: 1, or for a trip in frequencies.txt one per departure
    /// `start_time + k × headway_secs` before `end_time` of each window.
    public func runs(of trip: String) -> Int {
        let windows = frequencies[trip] ?? []
        guard !windows.isEmpty else { return 1 }
        var total = 0
        for f in windows {
            let start = RawGTFS.seconds(f["start_time"]), end = RawGTFS.seconds(f["end_time"]), headway = Int(f["headway_secs"] ?? "") ?? 0
            if headway > 0 && end > start { total += (end - start + headway - 1) / headway }
        }
        return total
    }

    /// 0 Monday … 6 Sunday.
    public static func weekday(_ date: Int) -> Int {
        var components = DateComponents()
        components.year = date / 10000
        components.month = date / 100 % 100
        components.day = date % 100
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let weekday = calendar.component(.weekday, from: calendar.date(from: components)!)  // 1 Sunday … 7 Saturday
        return (weekday + 5) % 7
    }

    /// `YYYY-MM-DD` → YYYYMMDD.
    public static func date(_ iso: String) -> Int { Int(iso.replacingOccurrences(of: "-", with: ""))! }

    public static func seconds(_ time: String?) -> Int { RawCSV.seconds(time) }

    public static func parse(_ bytes: [UInt8]) -> [[String: String]] { RawCSV.parse(bytes) }
}
