import FeedLegacySources
import FeedModel
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// Kalkati.net dumps: the project's sample compiles to the same timetable as its GTFS twin;
/// values, times past midnight, coordinates and bad input.
@Suite struct KalkatiTests {
    static let sample = SharedData.sample("kalkati/metro.xml")
    static let twin = SharedData.sample("kalkati/metro-gtfs")

    /// A Kalkati document in a temporary file.
    static func dump(_ body: String, folder: TemporaryFolder, name: String = "dump.xml") -> URL {
        folder.feed("k", [name: body]).appendingPathComponent(name)
    }

    static let head = """
        <?xml version="1.0"?>
        <jp_database version="1.0">
          <Delivery Firstday="2026-03-01T00:00:00+02:00" Lastday="2026-03-31T00:00:00+02:00" CompanyId="7"/>
          <Language LanguageId="fi"/>
          <Company CompanyId="7" Code="bus" Name="Bussi Oy"/>
          <Country CountryId="fi"/>
          <Timezone TimezoneId="1"><Period Difference="+02:00" Firstday="2026-01-01T00:00:00+02:00" Lastday="2027-01-01T00:00:00+02:00"/></Timezone>
          <Station StationId="a" Name="A" CountryId="fi" TimezoneId="1" X="3385824" Y="6674929"/>
          <Station StationId="b" Name="B" CountryId="fi" TimezoneId="1" X="3386824" Y="6675929"/>
          <Station StationId="c" Name="C" CountryId="fi" TimezoneId="1" X="3387824" Y="6676929"/>

        """

    @Test func sampleCompilesToTheSameTimetableAsItsGTFSTwin() throws {
        let workspace = LegacyWorkspace()
        let (kReport, kalkati) = try workspace.build(bundle: "k", [.init(id: "m", format: "kalkati", path: Self.sample)])
        let (gReport, gtfs) = try workspace.build(bundle: "g", [.init(id: "m", format: "gtfs", path: Self.twin)])
        let k = try #require(kalkati, "\(kReport.reason ?? "")"), g = try #require(gtfs, "\(gReport.reason ?? "")")
        #expect(kReport.sources[0].errors == 0, "\(kReport.sources[0].samples.map(\.message))")
        for (table, expected) in [("stops", 49), ("routes", 3), ("trips", 359), ("stop_times", 3771), ("agencies", 1)] {
            #expect(try k.int("SELECT count(*) FROM \(table)") == expected, "\(table)")
            #expect(try g.int("SELECT count(*) FROM \(table)") == expected, "\(table)")
        }
        // Same ids and names of stops, routes, agencies; same trips with the same stop sequences and times.
        for sql in [
            "SELECT stop_id || '|' || name FROM stops ORDER BY stop_id",
            "SELECT route_id || '|' || short_name || '|' || long_name || '|' || type FROM routes ORDER BY route_id",
            "SELECT agency_id || '|' || name || '|' || timezone FROM agencies",
            "SELECT trip_id || '|' || route_id || '|' || service_id FROM trips ORDER BY trip_id",
            "SELECT trip_id || '|' || stop_sequence || '|' || stop_id || '|' || arrival_time || '|' || departure_time FROM stop_times ORDER BY trip_id, stop_sequence",
        ] {
            let mine = try k.strings(sql), theirs = try g.strings(sql)
            #expect(mine == theirs, "\(sql): first difference \(zip(mine, theirs).first { $0 != $1 }.map { "\($0)" } ?? "-")")
        }
        // Same days: the footnote bit strings against calendar.txt + calendar_dates.txt.
        #expect(try activeDates(k) == activeDates(g))
        #expect(try activeDates(k)["1"]?.count == 261 - 1)  // weekdays of 2026 less Memorial Day
        #expect(try activeDates(k)["2"]?.count == 104 + 1)  // weekend days plus Thanksgiving
        // Positions: KKJ metres back to WGS84, within 2 m of the twin's.
        let kPositions = try k.database.rows("SELECT stop_id, lat, lon FROM stops ORDER BY stop_id")
        let gPositions = try g.database.rows("SELECT stop_id, lat, lon FROM stops ORDER BY stop_id")
        for (a, b) in zip(kPositions, gPositions) {
            let metres = distance(a[1].double!, a[2].double!, b[1].double!, b[2].double!)
            #expect(metres < 2, "\(a[0].string ?? ""): \(metres) m")
        }
    }

    /// Service id → the set of dates it runs, from a bundle's calendar and calendar_dates.
    private func activeDates(_ bundle: BundleDatabase) throws -> [String: Set<Int>] {
        var out: [String: Set<Int>] = [:]
        for row in try bundle.database.rows("SELECT * FROM calendar") {
            let service = row[0].string!
            let flags = (1...7).map { row[$0].int! }
            var day = Date(yyyymmdd: row[8].int!)
            let end = Date(yyyymmdd: row[9].int!)
            while day <= end {
                let weekday = (Calendar(identifier: .gregorian).component(.weekday, from: day) + 5) % 7  // 0 Monday
                if flags[weekday] == 1 { out[service, default: []].insert(day.yyyymmdd) }
                day = day.addingTimeInterval(86_400)
            }
        }
        for row in try bundle.database.rows("SELECT service_id, date, exception_type FROM calendar_dates") {
            if row[2].int == 1 { out[row[0].string!, default: []].insert(row[1].int!) } else { out[row[0].string!]?.remove(row[1].int!) }
        }
        return out
    }

    private func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let dLat = (lat2 - lat1) * .pi / 180, dLon = (lon2 - lon1) * .pi / 180
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * .pi / 180) * cos(lat2 * .pi / 180) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371_008.8 * asin(h.squareRoot())
    }

    @Test func kkjConversionMatchesReferencePoints() throws {
        // PROJ's EPSG:2393 → WGS84 (as published with laji-map's tests): within 5 cm.
        let proj = try #require(KKJ.wgs84(northing: 6_666_666, easting: 3_333_333))
        #expect(distance(proj.latitude, proj.longitude, 60.077881, 24.002372) < 0.1)
        // Geo::Coordinates::KKJ's zone 2 example (Konalantie 2, Helsinki), a 0.5–2 m method.
        let zone2 = try #require(KKJ.wgs84(northing: 6_679_636.140, easting: 2_547_526.214))
        #expect(distance(zone2.latitude, zone2.longitude, 60.22543759, 24.85437044) < 2)
        #expect(KKJ.wgs84(northing: 42, easting: 3_400_000) == nil)
    }

    @Test func timesPastMidnightValidityAndModes() throws {
        let folder = TemporaryFolder()
        let url = Self.dump(
            Self.head + """
                  <Trnsmode TrnsmodeId="m1" ModeType="22"/>
                  <Footnote FootnoteId="5" Vector="1010001"/>
                  <Timetbls>
                    <Service ServiceId="10">
                      <ServiceNbr CompanyId="7" ServiceNbr="P" Name="Night"/>
                      <ServiceValidity FootnoteId="5"/>
                      <ServiceTrnsmode TrnsmodeId="m1"/>
                      <Stop Ix="1" StationId="a" Departure="2350"/>
                      <Stop Ix="2" StationId="b" Arrival="2358" Departure="0002"/>
                      <Stop Ix="3" StationId="x" Type="P"/>
                      <Stop Ix="4" StationId="c" Arrival="0015"/>
                    </Service>
                  </Timetbls>
                </jp_database>
                """, folder: folder)
        let sink = NoticeSink()
        let feed = try #require(KalkatiReader(url: url).read(into: sink))
        #expect(feed.stopTimes.integers(.arrivalTime) == [85_800, 86_280, 87_300])
        #expect(feed.stopTimes.integers(.departureTime) == [85_800, 86_520, 87_300])
        #expect(feed.stopTimes.texts(.stopId) == ["a", "b", "c"])
        // Firstdate missing: the delivery's first day. Bits 0, 2 and 6 run.
        #expect(feed.calendarDates.integers(.date) == [20_260_301, 20_260_303, 20_260_307])
        #expect(feed.routes.integers(.routeType) == [109])
        #expect(feed.agency.texts(.agencyTimezone) == ["Europe/Helsinki"])
        #expect(feed.agency.texts(.agencyLang) == ["fi"])
        #expect(feed.agency.texts(.agencyUrl)[0]?.hasSuffix(".invalid/agency/7") == true)
        let lat = try #require(feed.stops.reals(.stopLat).first), lon = try #require(feed.stops.reals(.stopLon).first)
        #expect(abs(lat - 60.17) < 0.0001 && abs(lon - 24.94) < 0.0001)
    }

    @Test func wrongRootIsRefused() throws {
        let folder = TemporaryFolder()
        let url = Self.dump("<?xml version=\"1.0\"?>\n<body copyright=\"x\"/>\n", folder: folder)
        let sink = NoticeSink()
        #expect(KalkatiReader(url: url).read(into: sink) == nil)
        let notice = try #require(sink.samples.first { $0.code == "xml_wrong_root" })
        #expect(notice.blocksPublication && notice.line == 2 && notice.message.contains("not a Kalkati.net dump"))
    }

    @Test func truncatedDumpIsRefusedWithItsLine() throws {
        let text = try String(contentsOf: Self.sample, encoding: .utf8)
        let folder = TemporaryFolder()
        let url = Self.dump(String(text.prefix(text.count / 2)), folder: folder)
        let workspace = LegacyWorkspace()
        let (report, bundle) = try workspace.build([.init(id: "k", format: "kalkati", path: url)])
        #expect(report.status == .refused && bundle == nil)
        let notice = try #require(report.sources[0].samples.first { $0.code == "xml_truncated" })
        #expect(notice.blocksPublication && (notice.line ?? 0) > 1000)
        #expect(report.reason?.contains("truncated") == true)
    }

    @Test func externalEntityInADumpNeverReachesTheBundleOrReport() throws {
        let folder = TemporaryFolder()
        let secret = folder.feed("s", ["secret.txt": "KALKATI-SECRET-42"]).appendingPathComponent("secret.txt")
        let url = Self.dump(
            """
            <?xml version="1.0"?>
            <!DOCTYPE jp_database [<!ENTITY e SYSTEM "\(secret.path)">]>
            <jp_database version="1.0"><Company CompanyId="1" Code="c" Name="&e;"/></jp_database>
            """, folder: folder)
        let workspace = LegacyWorkspace()
        let (report, _) = try workspace.build([.init(id: "k", format: "kalkati", path: url)])
        #expect(report.status == .refused)
        #expect(report.sources[0].samples.contains { $0.code == "xml_entity_refused" && $0.blocksPublication })
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(!json.contains("KALKATI-SECRET"))
    }

    @Test func formatIsDetectedFromContent() throws {
        #expect(LegacyFormat.detect(Self.sample) == .kalkati)
        #expect(LegacyFormat.detect(Self.twin) == nil)
        #expect(LegacyFormat.detect(SharedData.sample("metro")) == nil)
        let check = FeedCheck(url: Self.sample, source: "metro.xml", format: nil)
        #expect(check.feed?.trips.count == 359)
    }
}

extension Date {
    init(yyyymmdd: Int) {
        var components = DateComponents()
        components.year = yyyymmdd / 10_000
        components.month = yyyymmdd / 100 % 100
        components.day = yyyymmdd % 100
        components.hour = 12
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        self = calendar.date(from: components)!
    }

    var yyyymmdd: Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: self)
        return c.year! * 10_000 + c.month! * 100 + c.day!
    }
}
