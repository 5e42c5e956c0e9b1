import FeedModel
import FeedSources
import Foundation

/// A GTFS dump read the plain way, for checking the diff's figures independently of the
/// compiler: every file as rows of text by column name (own CSV parsing; only the zip reading
/// is shared with feedc).
struct RawGTFS {
    private var files: [String: [[String: String]]] = [:]
    /// Stop times per trip id.
    private var stopTimes: [String: Int] = [:]
    private var exceptions: [String: [Int: String]] = [:]
    private var frequencies: [String: [[String: String]]] = [:]

    init(_ url: URL) throws {
        let archive = try DumpArchive(url: url, sink: NoticeSink())
        for name in ["routes.txt", "stops.txt", "trips.txt", "calendar.txt", "calendar_dates.txt", "frequencies.txt"] {
            if let bytes = try archive.read(name) { files[name] = RawGTFS.parse(bytes) }
        }
        if let bytes = try archive.read("stop_times.txt") {
            for row in RawGTFS.parse(bytes) { stopTimes[row["trip_id"] ?? "", default: 0] += 1 }
        }
        for row in files["calendar_dates.txt"] ?? [] {
            if let service = row["service_id"], let date = Int(row["date"] ?? "") { exceptions[service, default: [:]][date] = row["exception_type"] }
        }
        for row in files["frequencies.txt"] ?? [] { frequencies[row["trip_id"] ?? "", default: []].append(row) }
    }

    func rows(_ file: String) -> [[String: String]] { files[file] ?? [] }

    func ids(_ file: String, _ column: String) -> Set<String> { Set(rows(file).compactMap { $0[column] }) }

    /// Trips running on `date`, all lines together.
    func trips(on date: Int) -> Int {
        Set(rows("trips.txt").compactMap { $0["route_id"] }).reduce(0) { $0 + trips(route: $1, on: date) }
    }

    /// Whether `service` runs on `date` (YYYYMMDD), by the GTFS rules.
    func runs(_ service: String, on date: Int) -> Bool {
        if let exception = exceptions[service]?[date] { return exception == "1" }
        guard let row = rows("calendar.txt").first(where: { $0["service_id"] == service }),
              let start = Int(row["start_date"] ?? ""), let end = Int(row["end_date"] ?? ""), start <= date, date <= end else { return false }
        let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        return row[names[RawGTFS.weekday(date)]] == "1"
    }

    /// Trips of `route` running on `date`: trips with at least two stop times whose service runs
    /// that day; a frequency-based trip counts once per run.
    func trips(route: String, on date: Int) -> Int {
        var runsByService: [String: Bool] = [:]
        var total = 0
        for trip in rows("trips.txt") where trip["route_id"] == route {
            guard let id = trip["trip_id"], let service = trip["service_id"], stopTimes[id, default: 0] >= 2 else { continue }
            if runsByService[service] == nil { runsByService[service] = runs(service, on: date) }
            guard runsByService[service]! else { continue }
            let frequencies = self.frequencies[id] ?? []
            if frequencies.isEmpty {
                total += 1
            } else {
                for f in frequencies {
                    let start = RawGTFS.seconds(f["start_time"]), end = RawGTFS.seconds(f["end_time"]), headway = Int(f["headway_secs"] ?? "") ?? 0
                    if headway > 0 && end > start { total += (end - start + headway - 1) / headway }
                }
            }
        }
        return total
    }

    /// 0 Monday … 6 Sunday.
    static func weekday(_ date: Int) -> Int {
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
    static func date(_ iso: String) -> Int { Int(iso.replacingOccurrences(of: "-", with: ""))! }

    static func seconds(_ time: String?) -> Int {
        let parts = (time ?? "").trimmingCharacters(in: .whitespaces).split(separator: ":").compactMap { Int($0) }
        return parts.count == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : 0
    }

    /// RFC 4180 CSV with a header row; a UTF-8 BOM and CRLF are accepted.
    static func parse(_ bytes: [UInt8]) -> [[String: String]] {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var records: [[String]] = []
        var record: [String] = [], field = "", quoted = false, afterQuote = false
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? { if let p = pending { pending = nil; return p }; return iterator.next() }
        while let c = next() {
            if quoted {
                if c == "\"" {
                    if let n = iterator.next() {
                        if n == "\"" { field.unicodeScalars.append("\"") } else { quoted = false; afterQuote = true; pending = n }
                    } else { quoted = false }
                } else { field.unicodeScalars.append(c) }
                continue
            }
            switch c {
            case "\"" where field.isEmpty && !afterQuote: quoted = true
            case ",": record.append(field); field = ""; afterQuote = false
            case "\r": break
            case "\n":
                record.append(field); field = ""; afterQuote = false
                if !(record.count == 1 && record[0].isEmpty) { records.append(record) }
                record = []
            default: field.unicodeScalars.append(c)
            }
        }
        if !field.isEmpty || !record.isEmpty { record.append(field); records.append(record) }
        guard let header = records.first?.map({ $0.trimmingCharacters(in: .whitespaces) }) else { return [] }
        return records.dropFirst().map { values in
            var row: [String: String] = [:]
            for (i, name) in header.enumerated() where i < values.count { row[name] = values[i].trimmingCharacters(in: .whitespaces) }
            return row
        }
    }
}
