import FeedLegacySources
import FeedModel
import FeedSources
import FeedXML
import Foundation
import TestSupport
import Testing

/// Opt-in scale run (`FEEDC_KALKATI_1M=1`, or scripts/bench-kalkati.sh): a real GTFS feed
/// (Bydgoszcz 2020, 583k stop_times) converted to a Kalkati dump of over a million stop times,
/// then streamed and read. Prints time and memory; asserts only what must hold (every stop time
/// read, parser memory bounded), never timings.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["FEEDC_KALKATI_1M"] != nil, "opt-in: FEEDC_KALKATI_1M=1"))
struct KalkatiScaleTests {
    @Test func millionStopTimesParseInBoundedMemory() throws {
        let folder = TemporaryFolder()
        let out =
            ProcessInfo.processInfo.environment["FEEDC_KALKATI_1M_OUT"].map { URL(fileURLWithPath: $0) }
            ?? folder.url.appendingPathComponent("bydgoszcz-1m.xml")
        let written = try KalkatiDumpWriter.convert(SharedData.url("gtfs/medium/bydgoszcz_2020_otp.zip"), to: out, minimumStopTimes: 1_000_000)
        let bytes = (try FileManager.default.attributesOfItem(atPath: out.path)[.size] as? Int) ?? 0
        print("kalkati-1m: wrote \(written) stop times, \(bytes / 1_000_000) MB, to \(out.path)")

        // 1. The parser alone: stream every element, keep nothing.
        var before = Memory.resident()
        var start = Date()
        let reader = try XMLStreamReader(url: out)
        var stops = 0, peak = before
        while let node = try reader.next() {
            if node.kind == .start && node.name == "Stop" {
                stops += 1
                if stops % 100_000 == 0 { peak = max(peak, Memory.resident()) }
            }
        }
        let streamSeconds = Date().timeIntervalSince(start)
        print(
            String(
                format: "kalkati-1m: streamed %d Stop elements in %.2f s; resident memory grew %.1f MB",
                stops, streamSeconds, Double(peak - before) / 1e6))
        #expect(stops == written)
        #expect(peak - before < 64 << 20, "the streaming parser's memory does not grow with the document")

        // 2. The reader: the whole dump into GTFS tables (which do grow with the feed).
        before = Memory.resident()
        start = Date()
        let sink = NoticeSink()
        let feed = try #require(KalkatiReader(url: out).read(into: sink))
        let readSeconds = Date().timeIntervalSince(start)
        print(
            String(
                format:
                    "kalkati-1m: KalkatiReader read %d stop times, %d trips in %.2f s; resident memory grew %.1f MB (the feed's tables); peak RSS of the process %.0f MB",
                feed.stopTimes.count, feed.trips.count, readSeconds, Double(Memory.resident() - before) / 1e6, Double(Memory.peak()) / 1e6))
        #expect(feed.stopTimes.count == written)
    }
}

/// Writes a GTFS feed as a Kalkati.net dump, repeating its trips until there are enough stop
/// times. Positions are placed in Finland with a rough linear shift (only the parse is measured).
enum KalkatiDumpWriter {
    static func convert(_ gtfs: URL, to out: URL, minimumStopTimes: Int) throws -> Int {
        let feed = try #require(GTFSReader(url: gtfs).read(into: NoticeSink()))
        FileManager.default.createFile(atPath: out.path, contents: nil)
        let handle = try FileHandle(forWritingTo: out)
        defer { try? handle.close() }
        var buffer = ""
        func flush(_ force: Bool = false) throws {
            if force || buffer.utf8.count > 1 << 20 {
                try handle.write(contentsOf: Data(buffer.utf8))
                buffer = ""
            }
        }
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "<", with: "&lt;")
        }
        buffer += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<jp_database version=\"1.0\">\n"
        buffer += "  <Delivery Firstday=\"2020-04-16T00:00:00+02:00\" Lastday=\"2020-10-25T00:00:00+02:00\" CompanyId=\"1\"/>\n"
        buffer += "  <Language LanguageId=\"pl\"/>\n  <Company CompanyId=\"1\" Code=\"zdmikp\" Name=\"ZDMiKP Bydgoszcz\"/>\n"
        buffer +=
            "  <Country CountryId=\"fi\"/>\n  <Timezone TimezoneId=\"1\"><Period Difference=\"+02:00\" Firstday=\"2020-01-01T00:00:00+02:00\" Lastday=\"2021-01-01T00:00:00+02:00\"/></Timezone>\n"
        let stops = feed.stops
        let lats = stops.reals(.stopLat), lons = stops.reals(.stopLon)
        for (row, id) in stops.texts(.stopId).enumerated() {
            guard let id else { continue }
            let north = 6_600_000 + (lats[row] - 53) * 111_000, east = 3_400_000 + (lons[row] - 18) * 67_000
            buffer +=
                "  <Station StationId=\"\(escape(id))\" Name=\"\(escape(stops.texts(.stopName)[row] ?? id))\" CountryId=\"fi\" TimezoneId=\"1\" X=\"\(Int(east))\" Y=\"\(Int(north))\"/>\n"
        }
        buffer += "  <Trnsmode TrnsmodeId=\"1\" ModeType=\"5\"/>\n"
        // One footnote per service, from its calendar_dates (the feed has no calendar.txt).
        var dates: [String: [Int]] = [:]
        let dateValues = feed.calendarDates.integers(.date), types = feed.calendarDates.integers(.exceptionType)
        for (row, service) in feed.calendarDates.texts(.serviceId).enumerated() where types[row] == 1 {
            if let service { dates[service, default: []].append(dateValues[row]) }
        }
        var footnotes: [String: Int] = [:]
        for (index, service) in dates.keys.sorted().enumerated() {
            let days = dates[service]!.sorted()
            let first = Date(yyyymmdd: days[0])
            let offsets = Set(days.map { Int((Date(yyyymmdd: $0).timeIntervalSince(first) / 86_400).rounded()) })
            let vector = String((0...(offsets.max() ?? 0)).map { offsets.contains($0) ? "1" : "0" })
            let firstText = String(format: "%04d-%02d-%02d", days[0] / 10_000, days[0] / 100 % 100, days[0] % 100)
            buffer += "  <Footnote FootnoteId=\"\(index + 1)\" Firstdate=\"\(firstText)\" Vector=\"\(vector)\"/>\n"
            footnotes[service] = index + 1
        }
        buffer += "  <Timetbls>\n"
        let trips = feed.trips, groups = RowGroups(feed.stopTimes, by: .tripId, orderedBy: .stopSequence)
        var tripRow: [String: Int] = [:]
        for (row, id) in trips.texts(.tripId).enumerated() { if let id { tripRow[id] = row } }
        let routeIds = trips.texts(.routeId), services = trips.texts(.serviceId)
        let stopIds = feed.stopTimes.texts(.stopId), sequences = feed.stopTimes.integers(.stopSequence)
        let arrivals = feed.stopTimes.integers(.arrivalTime), departures = feed.stopTimes.integers(.departureTime)
        func hhmm(_ seconds: Int) -> String { seconds == Column.nullInteger ? "" : String(format: "%02d%02d", seconds / 3600, seconds / 60 % 60) }
        var written = 0, copy = 0
        while written < minimumStopTimes {
            for (g, rows) in groups.rows.enumerated() {
                guard let row = tripRow[groups.keys[g]], let footnote = services[row].flatMap({ footnotes[$0] }) else { continue }
                buffer += "    <Service ServiceId=\"\(copy * 10_000_000 + g + 1)\">\n"
                buffer += "      <ServiceNbr CompanyId=\"1\" ServiceNbr=\"\(escape(routeIds[row] ?? "?"))\"/>\n"
                buffer += "      <ServiceValidity FootnoteId=\"\(footnote)\"/>\n      <ServiceTrnsmode TrnsmodeId=\"1\"/>\n"
                for r in rows {
                    let a = hhmm(arrivals[r]), d = hhmm(departures[r])
                    buffer += "      <Stop Ix=\"\(sequences[r] + 1)\" StationId=\"\(escape(stopIds[r] ?? ""))\""
                    buffer += (a.isEmpty ? "" : " Arrival=\"\(a)\"") + (d.isEmpty ? "" : " Departure=\"\(d)\"") + "/>\n"
                    written += 1
                }
                buffer += "    </Service>\n"
                try flush()
            }
            copy += 1
        }
        buffer += "  </Timetbls>\n</jp_database>\n"
        try flush(true)
        return written
    }
}

/// Resident and peak memory of this process (Linux /proc).
enum Memory {
    static func resident() -> Int { status("VmRSS:") }
    static func peak() -> Int { status("VmHWM:") }

    private static func status(_ key: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(key) {
            return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
        }
        return 0
    }
}
