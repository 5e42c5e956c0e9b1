import BundleFormat
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// The portable search tables (`stop_grid`, `stop_tokens`) answer as a brute-force search does,
/// and as the optional R-tree and FTS5 do, on every real feed; across the antimeridian and a pole;
/// and rider text of any shape gives ranked results, never an error.
@Suite struct PortableIndexTests {
    /// A bundle of `sources` built with the optional modules too, opened.
    private static func bundle(_ sources: [(String, URL)]) throws -> (Database, () -> Void, Workspace) {
        let workspace = Workspace()
        let report = try workspace.build(workspace.config(sources: sources, extra: "    sqlite_modules: [rtree, fts5]\n"))
        try #require(report.status == .published, "\(report.reason ?? "")")
        let (database, cleanup) = try BundleFile.open(try workspace.latestBundle())
        return (database, cleanup, workspace)
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data"), arguments: RealFeedTests.feeds)
    func nearbyAndNameSearchOnARealFeed(_ dump: URL) throws {
        let built = try BuiltFeeds.bundle(of: dump, extra: "    sqlite_modules: [rtree, fts5]\n")
        try #require(built.report.status == .published, "\(built.report.reason ?? "")")
        let database = try Database(path: built.sqlite.path, mode: .readOnly)
        let stops = try BruteForceStops(database)
        let name = dump.lastPathComponent
        // Up to 25 stops spread over the feed as search centres, two box sizes each.
        let step = max(1, stops.all.count / 25)
        for stop in stride(from: 0, to: stops.all.count, by: step).map({ stops.all[$0] }) {
            for delta in [0.003, 0.02] {
                let parameters = AppQueries.near(lat: stop.lat, lon: stop.lon, delta: delta, limit: 50)
                let portable = try AppQueries.run("stops_near", on: database, parameters)
                #expect(portable.compactMap { $0[0].string } == stops.near(parameters), "\(name): near \(stop.id) ±\(delta)")
                #expect(try AppQueries.run("stops_near_rtree", on: database, parameters) == portable, "\(name): R-tree near \(stop.id)")
            }
        }
        // Every FTS5 hit for a whole word of a stop's name is a hit of the portable search.
        for stop in stride(from: 0, to: stops.all.count, by: step).map({ stops.all[$0] }) {
            for word in SearchText.words(stop.name).prefix(3) {
                let fts = try database.rows(
                    "SELECT s.stop_id FROM stop_search f JOIN stops s ON s.rowid = f.rowid WHERE stop_search MATCH ?",
                    [.text("\"\(word)\"")]
                ).compactMap { $0[0].string }
                let portable = try AppQueries.run("stops_named", on: database, AppQueries.named(word, limit: 100_000)).compactMap { $0[0].string }
                // "and" alone never matches the word "and", only longer words starting with it
                // (docs: "Stops by name").
                if word == "and" {
                    let names = try AppQueries.run("stops_named", on: database, AppQueries.named(word, limit: 100_000)).map { $0[1].string ?? "" }
                    #expect(
                        names.allSatisfy { SearchText.words($0).contains { $0.hasPrefix("and") && $0 != "and" } },
                        "\(name): `and` alone finds \(names.prefix(3))")
                    continue
                }
                #expect(
                    Set(fts).isSubset(of: portable),
                    "\(name): `\(word)` FTS5 finds \(Set(fts).subtracting(portable).sorted().prefix(5)) the token table does not")
                #expect(portable.contains(stop.id), "\(name): `\(word)` does not find \(stop.id) \(stop.name)")
            }
        }
    }

    /// A stop is found by its translated names too (the rail sample's Spanish names), as by its own.
    @Test func translatedNamesAreSearchable() throws {
        let (database, cleanup, _) = try Self.bundle([("rail", SharedData.sample("rail"))])
        defer { cleanup() }
        let northgate = try #require(try database.scalar("SELECT stop_id FROM stops WHERE name = 'Northgate'")?.string)
        #expect(try AppQueries.run("stops_named", on: database, AppQueries.named("Aeropuerto")).compactMap { $0[0].string } == ["AP"])
        #expect(try AppQueries.run("stops_named", on: database, AppQueries.named("puerta nor")).compactMap { $0[0].string }.contains(northgate))
        #expect(try AppQueries.run("stops_named", on: database, AppQueries.named("northgate")).compactMap { $0[0].string }.contains(northgate))
    }

    /// Stops on both sides of the antimeridian and around the North Pole.
    @Test func theAntimeridianAndAPole() throws {
        let folder = TemporaryFolder()
        var stops = "stop_id,stop_name,stop_lat,stop_lon\n"
        let places: [(String, Double, Double)] = [
            ("east1", -16.5, 179.995), ("east2", -16.5, 179.9), ("west1", -16.5, -179.995), ("west2", -16.5, -179.8),
            ("far", -16.5, 170.0), ("pole1", 89.995, 0.0), ("pole2", 89.995, 180.0), ("pole3", 89.99, -90.0), ("pole4", 89.9, 45.0),
        ]
        for (id, lat, lon) in places { stops += "\(id),Stop \(id),\(lat),\(lon)\n" }
        let feed = folder.feed(
            "edges",
            [
                "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\na,Edge,https://example.org,Pacific/Fiji\n",
                "stops.txt": stops,
                "routes.txt": "route_id,agency_id,route_short_name,route_type\nr,a,1,3\n",
                "trips.txt": "route_id,service_id,trip_id\nr,s,t\n",
                "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt,08:00:00,08:00:00,east1,1\nt,08:05:00,08:05:00,west1,2\n",
                "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\ns,1,1,1,1,1,1,1,20260101,20261231\n",
            ])
        let (database, cleanup, _) = try Self.bundle([("edges", feed)])
        defer { cleanup() }
        let brute = try BruteForceStops(database)
        func ids(_ lat: Double, _ lon: Double, _ dlat: Double, _ dlon: Double) throws -> [String] {
            let parameters: [String: SQLValue] = [
                "lat": .real(lat), "lon": .real(lon), "dlat": .real(dlat), "dlon": .real(dlon),
                "lon_scale": .real(cos(lat * .pi / 180)), "limit": .integer(50),
            ]
            let portable = try AppQueries.run("stops_near", on: database, parameters)
            #expect(portable.compactMap { $0[0].string } == brute.near(parameters), "box \(lat) \(lon) ±\(dlat) ±\(dlon)")
            #expect(try AppQueries.run("stops_near_rtree", on: database, parameters) == portable)
            return portable.compactMap { $0[0].string }
        }
        // East of the antimeridian, the box reaches west of it, and the other way round.
        #expect(try ids(-16.5, 179.99, 0.01, 0.05) == ["east1", "west1"])
        #expect(try ids(-16.5, -179.99, 0.01, 0.25) == ["west1", "east1", "east2", "west2"])
        #expect(try ids(-16.5, 175, 0.01, 4.8).isEmpty)
        #expect(try ids(-16.5, 175, 0.01, 4.9) == ["east2"], "the box's edge is inside")
        // At the pole every longitude is near: `:dlon` 180.
        #expect(try Set(ids(90, 0, 0.02, 180)) == ["pole1", "pole2", "pole3"])
        #expect(try ids(90, 0, 0.2, 180).count == 4)
        #expect(try ids(-90, 0, 1, 180).isEmpty)
    }

    /// Rider text straight from a search box, on Wichita's stop names: operators, quotes, hyphens,
    /// `&`, a partial last word give ranked results and never an error; text that folds to
    /// nothing gives nothing.
    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
    func riderTextNeverFails() throws {
        let dump = try #require(SharedData.zips(in: "versions/wichita").last)
        let (database, cleanup, _) = try Self.bundle([("w", dump)])
        defer { cleanup() }
        let names = try Dictionary(
            uniqueKeysWithValues: database.rows("SELECT stop_id, coalesce(name, '') || ' ' || coalesce(code, '') FROM stops").map {
                ($0[0].string!, $0[1].string!)
            })
        for text in [
            "Main & 2nd", "Kellogg-Rock", "OR", "broadw", "\"Kellogg\"", "kellogg NOT rock", "NEAR(a b)", "o'", "21st*", "Douglas/Broadway", "ÉAST kellogg",
            "  kellogg  ",
        ] {
            let query = SearchText.query(text)
            #expect(!query.isEmpty, "`\(text)`")
            let rows = try AppQueries.run("stops_named", on: database, AppQueries.named(text, limit: 1000))
            for row in rows {
                // Every word of the query starts a word of the stop's name or code (or its alias).
                let tokens = SearchText.indexTokens(names[row[0].string!]!)
                for word in query.split(separator: " ") {
                    #expect(tokens.contains { $0.hasPrefix(word) }, "`\(text)`: \(names[row[0].string!]!) lacks `\(word)`")
                }
            }
            // FTS5 with the same words, as the optional query builds them, never throws either.
            _ = try AppQueries.run("stops_named_fts5", on: database, ["match": .text(SearchText.fts5Match(text)), "limit": .integer(1000)])
        }
        #expect(try AppQueries.run("stops_named", on: database, AppQueries.named("Kellogg-Rock")).first?[1].string == "Kellogg Dr & Rock OB")
        #expect(
            try AppQueries.run("stops_named", on: database, AppQueries.named("broadw")).allSatisfy { ($0[1].string ?? "").lowercased().contains("broadway") })
        #expect(try !AppQueries.run("stops_named", on: database, AppQueries.named("broadw")).isEmpty)
        for text in ["", "   ", "-", "\"\"", "*", "()"] {
            #expect(SearchText.query(text).isEmpty, "`\(text)`")
            #expect(try AppQueries.run("stops_named", on: database, AppQueries.named(text)).isEmpty, "`\(text)`")
        }
    }
}

/// Every stop with a position, searched the slow way with the documented box and order.
struct BruteForceStops {
    struct Stop {
        var id: String
        var name: String
        var lat: Double
        var lon: Double
    }
    let all: [Stop]

    init(_ database: Database) throws {
        all = try database.rows("SELECT stop_id, coalesce(name, ''), lat, lon FROM stops WHERE lat IS NOT NULL AND lon IS NOT NULL ORDER BY stop_id")
            .map { Stop(id: $0[0].string!, name: $0[1].string!, lat: $0[2].double!, lon: $0[3].double!) }
    }

    /// The ids `stops_near` must return for these parameters.
    func near(_ p: [String: SQLValue]) -> [String] {
        let (lat, lon, dlat, dlon, scale) = (p["lat"]!.double!, p["lon"]!.double!, p["dlat"]!.double!, p["dlon"]!.double!, p["lon_scale"]!.double!)
        let limit = Int(p["limit"]!.int!)
        let (latLo, latHi) = (max(lat - dlat, -90), min(lat + dlat, 90))
        let (lonLo, lonHi) = (lon - min(dlon, 180), lon + min(dlon, 180))
        var spans = [(max(lonLo, -180), min(lonHi, 180))]
        if lonLo < -180 { spans.append((lonLo + 360, 180)) }
        if lonHi > 180 { spans.append((-180, lonHi - 360)) }
        let inside = all.filter { stop in
            stop.lat >= latLo && stop.lat <= latHi && spans.contains { stop.lon >= $0.0 && stop.lon <= $0.1 }
        }
        func distance(_ s: Stop) -> Double {
            let d = min(abs(s.lon - lon), 360 - abs(s.lon - lon)) * scale
            return (s.lat - lat) * (s.lat - lat) + d * d
        }
        let ranked: [(id: String, distance: Double)] = inside.map { ($0.id, distance($0)) }
        let sorted = ranked.sorted { a, b in a.distance != b.distance ? a.distance < b.distance : a.id < b.id }
        return sorted.prefix(limit).map(\.id)
    }
}
