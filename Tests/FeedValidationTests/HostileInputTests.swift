import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// Every rule against feeds made to break them: every file the schema knows (compiled and
/// checked-only, fares v2 and booking rules included) empty, with a header and no rows, or full
/// of rows whose values are hostile (wrong kinds, huge numbers, times past any day, ids that refer
/// to each other or to nothing). The reader and every rule must finish, and a feed left with no
/// usable row must be blocked, never crash the validator.
@Suite struct HostileInputTests {
    private static let tables = GTFSSchema.tables

    private func validate(_ files: [String: String]) throws -> (Feed, NoticeSink) {
        try RuleFixture.validate(files)
    }

    private func header(_ table: TableSchema) -> String {
        table.fields.map(\.name).joined(separator: ",")
    }

    @Test func everyFileEmpty() throws {
        let files = Dictionary(uniqueKeysWithValues: Self.tables.map { ($0.fileName, "") })
        let (_, sink) = try validate(files)
        #expect(sink.count(of: "empty_file") == Self.tables.count)
        #expect(sink.hasBlocking)
    }

    @Test func everyFileHeaderOnly() throws {
        let files = Dictionary(uniqueKeysWithValues: Self.tables.map { ($0.fileName, header($0) + "\n") })
        let (feed, sink) = try validate(files)
        #expect(feed.stopTimes.isEmpty)
        #expect(sink.blocking.contains { $0.code == "no_usable_rows" })
        #expect(sink.count(of: "empty_file") == 0)
    }

    /// Values no field accepts, or accepts only at its edges.
    private static let hostile = [
        "A", "", "B", "0", "-1", "2147483648", "99999999999999999999", "1e308", "NaN", "-0", "24:00:00",
        "99:59:59", "-01:00:00", "20260230", "00000000", "x", "\"", "A,B", " A ", "\u{FEFF}A", "é", "1.5",
        "180.000001", "-90", "#FFFFFF", "http://", "not an email", "Mars/Olympus", "zz-ZZZZ-999", "2", "3",
    ]

    private func quoted(_ value: String) -> String {
        "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Each table gets `rows` rows cycling through the hostile values, shifted per field and per
    /// table, so that ids often match across files (rules that join files run deep) and often do not.
    private func hostileFiles(rows: Int, shift: Int) -> [String: String] {
        var files: [String: String] = [:]
        for (t, table) in Self.tables.enumerated() {
            var text = header(table) + "\n"
            for r in 0..<rows {
                let values = table.fields.indices.map { f in Self.hostile[(r * 7 + f * 3 + t * shift) % Self.hostile.count] }
                text += values.map(quoted).joined(separator: ",") + "\n"
            }
            files[table.fileName] = text
        }
        return files
    }

    @Test(arguments: [0, 1, 5]) func everyValueHostile(shift: Int) throws {
        let (feed, sink) = try validate(hostileFiles(rows: 60, shift: shift))
        // Whatever survives is consistent: every stop time's trip is a trip of the feed.
        let trips = Set(feed.trips.texts(.tripId).compactMap { $0 })
        #expect(feed.stopTimes.texts(.tripId).allSatisfy { $0.map(trips.contains) ?? false })
        #expect(sink.count(severity: .error) > 0)
    }

    /// A valid feed that gives every rule something to work on: shapes with distances,
    /// frequencies, blocks, calendar dates, transfers, fares.
    private static let base: [String: String] = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://example.org,Europe/Warsaw\n",
        "stops.txt":
            "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,zone_id\nS1,One,53.1,18.0,0,,Z\nS2,Two,53.2,18.1,0,,Z\nS3,Three,53.3,18.2,0,,Z\n",
        "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type,route_color,route_text_color\nR1,A,1,Long,2,FF0000,FFFFFF\n",
        "trips.txt": "route_id,service_id,trip_id,direction_id,shape_id,block_id,trip_headsign\nR1,WK,T1,0,SH,B1,North\nR1,WK,T2,1,SH,B1,South\n",
        "stop_times.txt":
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled,pickup_type,drop_off_type,timepoint\nT1,08:00:00,08:00:00,S1,1,0,0,0,1\nT1,08:05:00,08:05:00,S2,2,12,0,0,1\nT1,08:10:00,08:10:00,S3,3,25,0,0,1\nT2,09:00:00,09:00:00,S3,1,0,0,0,1\nT2,09:05:00,09:05:00,S2,2,13,0,0,1\nT2,09:10:00,09:10:00,S1,3,25,0,0,1\n",
        "shapes.txt": "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled\nSH,53.1,18.0,1,0\nSH,53.2,18.1,2,12.5\nSH,53.3,18.2,3,25\n",
        "frequencies.txt": "trip_id,start_time,end_time,headway_secs,exact_times\nT1,06:00:00,08:00:00,600,0\n",
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260101,20261231\n",
        "calendar_dates.txt": "service_id,date,exception_type\nWK,20260105,2\n",
        "transfers.txt": "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nS1,S2,2,120\n",
        "feed_info.txt": "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date\nP,https://example.org,pl,20260101,20261231\n",
        "fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers,agency_id\nF,2.50,PLN,0,,A\n",
        "fare_rules.txt": "fare_id,route_id,origin_id,destination_id\nF,R1,Z,Z\n",
    ]

    /// The base feed, plus, in every file, one row per (field, hostile value): the file's first
    /// row with that one field changed. Most rows stay usable, so every rule meets them.
    @Test func oneHostileFieldPerRow() throws {
        var files = Self.base
        for (name, text) in Self.base {
            let lines = text.split(separator: "\n").map(String.init)
            let fields = lines[0].split(separator: ",", omittingEmptySubsequences: false).count
            let first = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            var extra = ""
            for f in 0..<fields {
                for value in Self.hostile {
                    var row = first
                    row[f] = value
                    extra += row.map(quoted).joined(separator: ",") + "\n"
                }
            }
            files[name] = text + extra
        }
        let (clean, cleanSink) = try validate(Self.base)
        #expect(clean.stopTimes.count == 6 && clean.shapes.count == 3)
        #expect(!cleanSink.hasBlocking)
        let (feed, sink) = try validate(files)
        // Repairs cascade (a bad agency id, a trip's only shape), but the feed stays usable.
        #expect(!feed.trips.isEmpty && feed.stopTimes.count >= 2 && feed.shapes.count > 3)
        #expect(!sink.hasBlocking, "single bad values are repaired, not blocking: \(sink.blocking.map(\.code))")
    }

    @Test func everyRowInvalidInEveryFile() throws {
        var files: [String: String] = [:]
        for table in Self.tables {
            let bad = table.fields.map { _ in quoted("\u{1}") }.joined(separator: ",")
            files[table.fileName] = header(table) + "\n" + bad + "\n" + bad + "\n"
        }
        let (feed, sink) = try validate(files)
        #expect(feed.stopTimes.isEmpty)
        #expect(sink.hasBlocking)
    }
}
