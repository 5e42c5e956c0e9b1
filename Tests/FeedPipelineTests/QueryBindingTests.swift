import BundleFormat
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// Issue 32: the documented queries bound any way an app binds (`AppQueries.run` runs every
/// query four ways wherever a test runs it), their positional forms, the screens' queries added
/// for the guide, and name search that finds "market st" where the name has no "St".
struct QueryBindingTests {
    /// docs/positional-queries.json is the docs' SQL with each named parameter as `?`: put the
    /// names back in order and the documented query comes out, for every query.
    @Test func positionalFormsAreTheDocumentedQueries() throws {
        #expect(AppQueries.positional.count == AppQueries.all.count, "regenerate with scripts/sync-client-queries.py")
        for (name, sql) in AppQueries.all {
            let form = try #require(AppQueries.positional[name], "\(name) has no positional form")
            var rebuilt = "", names = form.parameters.makeIterator()
            for character in form.sql {
                if character == "?" {
                    rebuilt += ":" + (names.next() ?? "MISSING")
                } else {
                    rebuilt.append(character)
                }
            }
            #expect(names.next() == nil, "\(name): more names than `?`")
            #expect(rebuilt == sql, "\(name): docs/positional-queries.json is stale: run scripts/sync-client-queries.py")
        }
    }

    /// A number bound as text gives the typed answer: on Android every parameter is text.
    @Test func textBindingGivesTheTypedAnswerOnTheSample() throws {
        let (database, cleanup) = try Self.sample()
        defer { cleanup() }
        let parameters: [String: SQLValue] = [
            "stop_id": .text("s101"), "date": .integer(20261130), "after": .integer(8 * 3600),
            "previous_after": .integer(8 * 3600 + 86_400), "limit": .integer(5), "lang": .null,
        ]
        let rows = try AppQueries.run("next_departures", on: database, parameters)
        #expect(rows.count == 5, "AppQueries.run threw had the text binding differed")
    }

    @Test func theGuidesScreensOnTheSample() throws {
        let (database, cleanup) = try Self.sample()
        defer { cleanup() }
        let stop = try AppQueries.run("stop_by_id", on: database, ["stop_id": .text("s101")])
        #expect(stop.count == 1 && stop[0][1].string == "Rockridge Station" && stop[0][2].string == "10101")
        #expect(try AppQueries.run("stop_by_id", on: database, ["stop_id": .text("nowhere")]).isEmpty)
        let range = try AppQueries.run("service_range", on: database, [:])
        #expect(range.first?[0].int == 20260101 && range.first?[1].int == 20261231, "\(range)")
        let shapes = try AppQueries.run("direction_shapes", on: database, ["route_id": .text("51"), "direction_index": .integer(0)])
        #expect(!shapes.isEmpty, "line 51 draws a shape")
        let trips = try database.scalar(
            "SELECT count(*) FROM trips t JOIN patterns p ON p.pattern_id = t.pattern_id WHERE p.route_id = '51' AND p.direction_index = 0 AND p.shape_id IS NOT NULL"
        )?.int
        #expect(shapes.compactMap { $0[2].int }.reduce(0, +) == trips, "every shaped trip of the direction counted once")
        let near = try AppQueries.run("stops_near", on: database, AppQueries.near(lat: 37.7999, lon: -122.2427, delta: 0.002))
        #expect(near.first?[0].string == "s102" && near.first?[5].string == "10102", "nearest first, with its code: \(near.prefix(2))")
        let metres = (near.first?[4].double ?? 1).squareRoot() * 111_320
        #expect(abs(metres - 1.4) < 0.2, "s102 is 1.4 m from the point: \(metres)")
    }

    @Test func streetWordsAreOptionalWhereTheNameHasNone() throws {
        let (database, cleanup) = try Self.sample()
        defer { cleanup() }
        func found(_ text: String) throws -> [String] {
            try AppQueries.run("stops_named", on: database, AppQueries.named(text)).compactMap { $0[0].string }
        }
        #expect(try found("market st") == ["s109", "s110"])
        #expect(try found("college av") == ["s103", "s104"], "the name's own street word is matched")
        #expect(try found("college st").isEmpty, "a name with another street type is not a match")
        #expect(try found("rockridge st") == ["s101", "s102"], "Rockridge Station has no street type")
        #expect(try found("college & broadway") == ["s103", "s104"], "`and` is optional: `&` in one name, `and` in the other")
        #expect(SearchText.query("&").isEmpty && SearchText.query(" and & ").isEmpty && SearchText.query("And") == "and")
        #expect(try AppQueries.run("stops_named", on: database, ["query": .text("and"), "limit": .integer(20)]).isEmpty, "`and` alone matches nothing")
        #expect(
            try AppQueries.run("stops_named", on: database, ["query": .text("st"), "limit": .integer(50)]).count > 5,
            "a street type alone is required, not optional")
    }

    /// Wichita's "Douglas and Market" has no "St": the searches of the issue find it.
    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
    func douglasAndMarketInWichita() throws {
        let built = try BuiltFeeds.bundle(of: SharedData.url("gtfs/versions/wichita/wichita_commit2023-06-15.zip"))
        let database = try Database(path: built.sqlite.path, mode: .readOnly)
        for text in ["market st", "mark st", "market stre", "douglas & market", "Douglas and Market St"] {
            let names = try AppQueries.run("stops_named", on: database, AppQueries.named(text, limit: 50)).compactMap { $0[1].string }
            #expect(names.contains("Douglas and Market IB") && names.contains("Douglas and Market OB"), "\(text): \(names.prefix(5))")
        }
        // A stop that also matches the optional word ranks before one that does not: "central st"
        // puts Central and St Paul before 6555 E Central.
        let central = try AppQueries.run("stops_named", on: database, AppQueries.named("central st", limit: 50)).compactMap { $0[1].string }
        #expect(central.first?.hasPrefix("Central and St") == true && central.contains("6555 E Central IB"), "\(central.prefix(6))")
        #expect(central.firstIndex { $0.contains(" St") } ?? 99 < central.firstIndex(of: "6555 E Central IB") ?? -1)
        // "and" alone finds no name by its word "and" (Wichita has no word starting with "and").
        #expect(try AppQueries.run("stops_named", on: database, AppQueries.named("and", limit: 50)).isEmpty)
        let market = try AppQueries.run("stops_named", on: database, AppQueries.named("market", limit: 50))
        #expect(
            try AppQueries.run("stops_named", on: database, AppQueries.named("market st", limit: 50)).count == market.count,
            "no Wichita stop name has a street type after Market")
    }

    private static func sample() throws -> (Database, () -> Void) {
        let workspace = Workspace()
        _ = try workspace.build(workspace.config(sources: [("metro", SharedData.sample("metro"))]))
        let (database, cleanup) = try BundleFile.open(try workspace.latestBundle())
        return (
            database,
            {
                cleanup()
                _ = workspace
            }
        )
    }
}
