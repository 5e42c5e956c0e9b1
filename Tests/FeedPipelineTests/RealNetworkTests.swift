import BundleFormat
import FeedPipeline
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// One network out of many agencies (issue 28), on real feeds: the interchanges of the Bay Area
/// and the Northeast are one place and their near neighbours are not; every linked pair has a
/// walk; a station's departures span its agencies; `transfers_from` gives a feed's own
/// transfers back. The evidence for each pair is in the comments (from the agencies' maps and
/// station pages, and the distances between the feeds' own coordinates).
@Suite(.serialized, .enabled(if: SharedData.isAvailable, "needs ../shared/data"))
struct RealNetworkTests {
    /// The links of `stop`: the other stop's id, name and the evidence.
    private func links(_ db: Database, _ stop: String) throws -> [(id: String, name: String, evidence: String)] {
        try AppQueries.run("same_station", on: db, ["stop_id": .text(stop)]).map { ($0[0].string ?? "", $0[1].string ?? "", $0[5].string ?? "") }
    }

    /// Whether `stop` is one place with a stop of `source` named `name` (PATH lists a station
    /// under several ids).
    private func linked(_ db: Database, _ stop: String, _ source: String, named name: String) throws -> Bool {
        try links(db, stop).contains { $0.id.hasPrefix(source + ":") && $0.name == name }
    }

    @Test func bayAreaInterchangesAreOnePlace() throws {
        let db = try NetworkRegions.bundle("bay", NetworkRegions.bay2023).open()
        // Millbrae: BART's terminal and Caltrain share one station building (cross-platform
        // transfer); both feeds call it place_MLBR, 38 m apart.
        #expect(try links(db, "bart:place_MLBR").map(\.id) == ["caltrain:place_MLBR"])
        // A platform is looked up by its station.
        #expect(try links(db, "bart:MLBR").map(\.id) == ["caltrain:place_MLBR"])
        // San Jose Diridon: Caltrain and Amtrak (Capitol Corridor, Coast Starlight), 77 m; names
        // share "San Jose".
        #expect(try links(db, "caltrain:sj_diridon").contains { $0.id == "amtrak:SJC" })
        // Santa Clara: Caltrain and Capitol Corridor share the platforms, 21 m.
        #expect(try links(db, "caltrain:santa_clara").contains { $0.id == "amtrak:SCC" })
        // Richmond: BART and Amtrak's Capitol Corridor side by side, 95 m.
        #expect(try links(db, "bart:place_RICH").contains { $0.id == "amtrak:RIC" })
        // Oakland Coliseum: BART and the Capitol Corridor's Coliseum/Airport station joined by a
        // footbridge, 174 m: beyond 120 m, linked by the shared name.
        let coliseum = try links(db, "bart:place_COLS")
        #expect(coliseum.map(\.id) == ["amtrak:OAC"])
        #expect(coliseum.first?.evidence.contains("names share `coliseum`") == true)
        // Not one place: BART's Montgomery Street and Embarcadero and the Amtrak bus stop "San
        // Francisco" (246 and 485 m, names unalike).
        #expect(try links(db, "bart:place_MONT").isEmpty)
        #expect(try links(db, "bart:place_EMBR").isEmpty)
    }

    @Test func northeastInterchangesAreOnePlaceAndNeighboursAreNot() throws {
        let db = try NetworkRegions.bundle("northeast", NetworkRegions.northeast).open()
        // Washington Union Station: Amtrak and Metro's Red Line, 106 m.
        #expect(try links(db, "amtrak:WAS").contains { $0.id == "wmata:STN_B03" })
        // New Carrollton and Rockville: Amtrak stops beside the Metro stations, 34 and 35 m.
        #expect(try links(db, "amtrak:NCR").contains { $0.id == "wmata:STN_D13" })
        #expect(try links(db, "amtrak:RKV").contains { $0.id == "wmata:STN_A14" })
        // Newark Penn Station: Amtrak and PATH, 86 m.
        #expect(try linked(db, "amtrak:NWK", "path", named: "Newark"))
        // New York Penn Station: Amtrak (at Moynihan Train Hall) and the A/C/E's 34 St-Penn
        // Station under Eighth Avenue, 236 m, names share "Penn".
        #expect(try links(db, "amtrak:NYP").contains { $0.id == "nyct:A28" })
        // Herald Square: the B/D/F/M and N/Q/R/W platforms and PATH's 33rd Street, 57 and 77 m.
        #expect(try linked(db, "nyct:R17", "path", named: "33rd Street"))
        #expect(try linked(db, "nyct:D17", "path", named: "33rd Street"))
        // World Trade Center: the 1's WTC Cortlandt (100 m) and the E's World Trade Center
        // (182 m, same name) with PATH's terminal.
        #expect(try linked(db, "nyct:138", "path", named: "World Trade Center"))
        #expect(try linked(db, "nyct:E01", "path", named: "World Trade Center"))
        // 14th Street and 23rd Street on Sixth Avenue: PATH runs under the F/M there (111 and
        // 4 m); the L's 6 Av is at the 14th Street PATH entrance (5 m).
        #expect(try linked(db, "nyct:D19", "path", named: "14th Street"))
        #expect(try linked(db, "nyct:L02", "path", named: "14th Street"))
        #expect(try linked(db, "nyct:D18", "path", named: "23rd Street"))
        // New York's own complexes the feed leaves ungrouped: Times Sq-42 St's platforms.
        #expect(try links(db, "nyct:127").contains { $0.id == "nyct:725" })

        // Different places a few hundred metres apart:
        // Seventh Avenue's 23 St and 14 St (the 1) and PATH on Sixth (276 and 288 m; alike names).
        #expect(try !linked(db, "nyct:130", "path", named: "23rd Street"))
        #expect(try !linked(db, "nyct:132", "path", named: "14th Street"))
        // Cortlandt St (the R) and PATH's World Trade Center, 239 m; W 4 St and PATH's 9th
        // Street, 242 m; Christopher St-Sheridan Sq and PATH's Christopher Street, 355 m.
        #expect(try !linked(db, "nyct:R25", "path", named: "World Trade Center"))
        #expect(try !linked(db, "nyct:A32", "path", named: "9th Street"))
        #expect(try !linked(db, "nyct:133", "path", named: "Christopher Street"))
        // 28 St and Amtrak's Penn Station, 358 m.
        #expect(try !links(db, "nyct:129").contains { $0.id == "amtrak:NYP" })
    }

    /// The nearby list and the search box, one row per place: Herald Square is one row with
    /// the subway's and PATH's lines; Millbrae one row with BART's and Caltrain's.
    @Test func nearbyAndSearchGiveOneRowPerPlace() throws {
        let east = try NetworkRegions.bundle("northeast", NetworkRegions.northeast).open()
        let near = try AppQueries.run("places_near", on: east, AppQueries.near(lat: 40.7497, lon: -73.9882, delta: 0.003, limit: 10))
        let herald = try #require(near.first)
        #expect(herald[1].string == "34 St-Herald Sq")
        #expect(herald[5].string == "MTA New York City Transit, PATH")
        let lines = Set((herald[6].string ?? "").split(separator: " ").map(String.init))
        #expect(lines.isSuperset(of: ["B", "D", "F", "M", "N", "Q", "R", "W"]), "\(lines)")
        // One row for the place: neither of its subway stations comes again.
        #expect(near.filter { ["nyct:R17", "nyct:D17"].contains($0[0].string) }.count == 1)
        let stops = try AppQueries.run("stops_near", on: east, AppQueries.near(lat: 40.7497, lon: -73.9882, delta: 0.003, limit: 50))
        #expect(stops.count > near.count)

        let bay = try NetworkRegions.bundle("bay", NetworkRegions.bay2023).open()
        let statement = try bay.prepare(try #require(AppQueries.all["places_named"]))
        try statement.bind(named: ["query": .text(SearchText.query("Millbrae")), "limit": .integer(10)])
        var rows: [[SQLValue]] = []
        while try statement.step() { rows.append(statement.row()) }
        #expect(rows.count == 1)
        #expect(rows.first?[5].string == "Bay Area Rapid Transit, Caltrain")
    }

    /// Every link across sources has a walk from a platform of one place to a platform of the
    /// other, both ways; walks are timed at 1.2 m/s with a 1.3 detour and at least 60 s.
    @Test func everyLinkedPairHasAWalk() throws {
        for (name, sources) in [("bay", NetworkRegions.bay2023), ("northeast", NetworkRegions.northeast)] {
            let db = try NetworkRegions.bundle(name, sources).open()
            let pairs = try db.rows("SELECT stop_id, other_stop_id FROM same_places")
            #expect(pairs.count > 6, "\(name)")
            for pair in pairs {
                let (a, b) = (pair[0].string!, pair[1].string!)
                let walks =
                    try db.scalar(
                        """
                        SELECT count(*) FROM stop_transfers st
                        JOIN stops f ON f.stop_id = st.from_stop_id JOIN stops t ON t.stop_id = st.to_stop_id
                        WHERE coalesce(f.parent_station, f.stop_id) = ? AND coalesce(t.parent_station, t.stop_id) = ?
                        """, [.text(a), .text(b)])?.int ?? 0
                #expect(walks > 0, "\(name): no walk from \(a) to \(b)")
            }
            let wrong = try db.scalar(
                """
                SELECT count(*) FROM stop_transfers WHERE kind IN ('station', 'walk')
                  AND (seconds < 60 OR (distance_m IS NOT NULL AND seconds < CAST(distance_m * 1.3 / 1.2 AS INTEGER)))
                """)?.int
            #expect(wrong == 0, "\(name)")
        }
    }

    /// New York's two-route cut carries a transfers.txt of its station complexes (minimum
    /// times between stations): `transfers_from` gives each of its rows back.
    @Test func transfersFromGivesTheFeedsOwnTransfersBack() throws {
        let dump = SharedData.url("gtfs/small/nyct_subway_2routes_2024_gtfskit.zip")
        let built = try BuiltFeeds.bundle(of: dump)
        let db = try Database(path: built.sqlite.path, mode: .readOnly)
        let rows = try Self.csv(dump, "transfers.txt")
        #expect(rows.count > 10)
        for row in rows where ["0", "1", "2"].contains(row["transfer_type"] ?? "") {
            let from = try #require(row["from_stop_id"]), to = try #require(row["to_stop_id"])
            let answer = try AppQueries.run("transfers_from", on: db, ["stop_id": .text(from)])
            let match = answer.first { $0[0].string == to && $0[5].string == from && $0[2].string == "feed" }
            #expect(match != nil, "\(from) → \(to)")
            if let time = row["min_transfer_time"].flatMap(Int.init) { #expect(match?[3].int == time, "\(from) → \(to)") }
        }
    }

    /// Millbrae in June 2018, when BART's and Caltrain's timetables overlap, asked at 23:20 on
    /// Tuesday 12 June: the evening's last trains of both agencies, soonest first, and none that
    /// ends there (BART's trains that terminate at Millbrae after midnight are arrivals, not
    /// departures: issue 42). The previous service day's late trains at 00:10 on the 13th, at
    /// 12th St Oakland, where they run on.
    @Test func millbraeDeparturesSpanBothAgenciesAndBothServiceDays() throws {
        let db = try NetworkRegions.bundle("bay2018", NetworkRegions.bay2018).open()
        #expect(try links(db, "bart:MLBR").contains { $0.id.hasPrefix("caltrain:") })
        let rows = try AppQueries.run(
            "place_departures", on: db,
            [
                "stop_id": .text("bart:MLBR"), "date": .integer(20180612), "after": .integer(84_000), "previous_after": .integer(170_400),
                "limit": .integer(60),
            ])
        let waits = rows.map { $0[9].int ?? -1 }
        #expect(waits == waits.sorted())
        let agencies = Set(rows.compactMap { $0[3].string })
        #expect(agencies.count == 2, "\(agencies)")
        #expect(rows.contains { $0[0].string?.hasPrefix("bart:") == true && $0[8].int == 20180612 })
        #expect(rows.contains { $0[0].string?.hasPrefix("caltrain:") == true && $0[8].int == 20180612 })
        // No trip ends here: not one row is its pattern's last call.
        let ending = try db.rows(
            """
            SELECT t.trip_id FROM trips t JOIN patterns p ON p.pattern_id = t.pattern_id
            JOIN pattern_stops ps ON ps.pattern_id = p.pattern_id AND ps.stop_index = p.stop_count - 1
            WHERE ps.stop_id IN ('bart:MLBR', 'caltrain:70061', 'caltrain:70062')
            """
        ).compactMap { $0[0].string }
        #expect(!ending.isEmpty && rows.allSatisfy { !Set(ending).contains($0[0].string ?? "") }, "a train ending at Millbrae listed as a departure")
        // Listed once each: no two rows are one run.
        let runs = rows.map { "\($0[2].string ?? "")|\($0[6].int ?? 0)|\($0[8].int ?? 0)|\($0[7].int ?? 0)" }
        #expect(Set(runs).count == runs.count)
        let late = try AppQueries.run(
            "place_departures", on: db,
            [
                "stop_id": .text("bart:12TH"), "date": .integer(20180613), "after": .integer(600), "previous_after": .integer(87_000),
                "limit": .integer(60),
            ])
        #expect(late.contains { $0[8].int == 20180612 }, "the previous service day's late trains")
        #expect(late.contains { $0[8].int == 20180613 })
    }

    /// The rows of a CSV file of a zip, by column name (small files only).
    static func csv(_ zip: URL, _ name: String) throws -> [[String: String]] {
        let python = try #require(Subprocess.python3)
        let script =
            "import csv,io,json,sys,zipfile; z=zipfile.ZipFile(sys.argv[1]); print(json.dumps(list(csv.DictReader(io.TextIOWrapper(z.open(sys.argv[2]),'utf-8-sig')))))"
        let run = try Subprocess.run(python, ["-c", script, zip.path, name], timeout: 60)
        try #require(run.status == 0, "\(run.error)")
        return try JSONDecoder().decode([[String: String]].self, from: Data(run.output.utf8))
    }
}
