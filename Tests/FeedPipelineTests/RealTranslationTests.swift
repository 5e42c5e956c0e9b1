import BundleFormat
import FeedDiff
import FeedModel
import FeedPipeline
import FeedSQLite
import FeedSources
import Foundation
import TestSupport
import Testing

/// A copy of a real feed (Cairns 2014) given a translations.txt in both forms of the reference:
/// the translated names come through the documented queries, bad rows are reported and dropped,
/// and a renamed, a removed and an added translation travel through a delta and show in
/// `feedc diff`. Needs ../shared (skipped in a clone without it; always run on CI).
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
struct RealTranslationTests {
    static let header = "table_name,field_name,language,translation,record_id,record_sub_id,field_value\n"

    @Test func translatedNamesThroughQueriesDeltasAndDiffs() throws {
        let folder = TemporaryFolder()
        let dump = folder.url.appendingPathComponent("cairns")
        try copy(SharedData.url("gtfs/small/cairns_translink_2014_gtfskit.zip"), to: dump)
        let workspace = Workspace()
        let config = try workspace.config(sources: [("cairns", dump)])

        // Version 1, the feed as published: what to translate.
        _ = try workspace.build(config)
        let (plain, closePlain) = try BundleFile.open(try workspace.latestBundle())
        let busiestDirection = try #require(
            try plain.rows(
                """
                SELECT route_id, direction_index, terminal_stop_ids FROM directions WHERE is_loop = 0
                ORDER BY trip_count DESC, route_id, direction_index LIMIT 1
                """
            ).first)
        let route = try #require(busiestDirection[0].string), directionIndex = try #require(busiestDirection[1].int)
        let terminal = try #require(try JSONDecoder().decode([String].self, from: Data((busiestDirection[2].string ?? "").utf8)).first)
        let busiest = try #require(
            try plain.rows(
                """
                SELECT ps.stop_id, s.name, t.headsign FROM pattern_stops ps JOIN trips t ON t.pattern_id = ps.pattern_id
                JOIN patterns p ON p.pattern_id = ps.pattern_id
                JOIN stops s ON s.stop_id = ps.stop_id WHERE t.headsign IS NOT NULL AND ps.stop_index < p.stop_count - 1
                GROUP BY ps.stop_id ORDER BY count(*) DESC, ps.stop_id LIMIT 1
                """
            ).first)
        let (stop, stopName, headsign) = (busiest[0].string!, busiest[1].string!, busiest[2].string!)
        let namesakes = try plain.scalar("SELECT count(*) FROM stops WHERE name = ?", [.text(stopName)])?.int ?? 0
        closePlain()

        // Version 2: translations in both forms, and two bad rows.
        try write(
            dump,
            """
            stops,stop_name,ja,ターミナル,\(terminal),,
            stops,stop_name,fr,"Arrêt \(stopName)",,,"\(stopName)"
            trips,trip_headsign,ja,ケアンズ行き,,,"\(headsign)"
            routes,route_long_name,ja,ケアンズ線,\(route),,
            stops,stop_name,ja,どこにもない,NO-SUCH-STOP,,
            stops,stop_name,english,Nowhere,\(terminal),,

            """)
        let v2 = try workspace.build(config)
        try #require(v2.status == .published)
        let notices = Dictionary(v2.sources[0].notices.map { ($0.code, $0.count) }) { a, _ in a }
        #expect(notices["translation_foreign_key_violation"] == 1)
        #expect(notices["invalid_language_code"] == 1)
        let v2Bundle = try workspace.latestBundle()
        let (database, close) = try BundleFile.open(v2Bundle)
        defer { close() }
        func translatedName(_ id: String, _ lang: String) throws -> String? {
            try AppQueries.run("stop_in_language", on: database, ["stop_id": .text(id), "lang": .text(lang)]).first?[1].string
        }
        #expect(try translatedName(terminal, "ja") == "ターミナル")
        #expect(try translatedName(terminal, "ja-jp") == "ターミナル")
        #expect(try translatedName(stop, "fr") == "Arrêt \(stopName)")
        #expect(try translatedName(stop, "de") == stopName)
        #expect(
            try database.scalar("SELECT count(*) FROM translations WHERE table_name = 'stops' AND language = 'fr'")?.int == namesakes,
            "the value form reaches every stop of that name")
        let directions = try AppQueries.run("line_directions_in_language", on: database, ["route_id": .text(route), "lang": .text("ja")])
        #expect(directions.first { $0[0].int == directionIndex }?[1] == .text("to ターミナル"))
        #expect(directions.allSatisfy { $0[6] == .text("ケアンズ線") })
        // The headsign of the stop's departures on the busiest date of its services.
        let date = try #require(
            try database.scalar(
                """
                SELECT x.date FROM calendar_dates x WHERE x.exception_type = 1 UNION SELECT start_date FROM calendar ORDER BY 1 LIMIT 1
                """)?.int)
        let departures = try (0..<7).flatMap { offset -> [[SQLValue]] in
            let day = CivilDate.yyyymmdd(CivilDate.day(date)! + offset)
            return try AppQueries.run(
                "next_departures", on: database,
                [
                    "stop_id": .text(stop), "date": .integer(Int64(day)), "after": .integer(0), "previous_after": .integer(86400),
                    "limit": .integer(100_000), "lang": .text("ja"),
                ])
        }
        #expect(departures.contains { $0[2] == .text("ケアンズ行き") })
        #expect(!departures.contains { $0[2] == .text(headsign) }, "every departure showing that headsign shows it in Japanese")

        // Version 3: one translation renamed, one gone, one new; a delta carries them.
        try write(
            dump,
            """
            stops,stop_name,ja,ターミナル駅,\(terminal),,
            trips,trip_headsign,ja,ケアンズ行き,,,"\(headsign)"
            routes,route_long_name,ja,ケアンズ線,\(route),,
            stops,stop_name,de,"Haltestelle \(stopName)",\(stop),,

            """)
        let v3 = try workspace.build(config)
        try #require(v3.status == .published)
        let manifest = try requireManifestValue(workspace.manifest())
        let delta = try #require(manifest.deltas.first { $0.from == 2 && $0.to == 3 })
        let bundleFolder = workspace.output.appendingPathComponent("b")
        let base = workspace.folder.url.appendingPathComponent("v2.sqlite")
        try Data(Gzip.decompress([UInt8](Data(contentsOf: v2Bundle)))).write(to: base)
        let sql = String(decoding: try Gzip.decompress([UInt8](Data(contentsOf: bundleFolder.appendingPathComponent(delta.file)))), as: UTF8.self)
        #expect(sql.contains("INSERT INTO translations") || sql.contains("UPDATE translations"))
        let applied = try Database(path: base.path, mode: .readWrite)
        try DeltaApplier.apply(sql, to: applied, expectedDigest: manifest.latest.digest)
        #expect(
            try applied.scalar("SELECT translation FROM translations WHERE table_name = 'stops' AND record_id = ? AND language = 'ja'", [.text(terminal)])
                == .text("ターミナル駅"))

        let diff = try BundleDiffer().diff(old: v2Bundle, new: try workspace.latestBundle())
        #expect(!diff.identical)
        let changed = diff.translations.changed.map { "\($0.table)/\($0.field)/\($0.recordId ?? "")/\($0.language): \($0.old ?? "") → \($0.new ?? "")" }
        #expect(changed.contains("stops/name/\(terminal)/ja: ターミナル → ターミナル駅"))
        #expect(changed.contains { $0.hasPrefix("directions/name/\(route)/ja: to ターミナル → to ターミナル駅") }, "the derived direction name follows")
        // The French name went, from every stop of that name, and the German came; the names of
        // the directions ending at that stop went and came with them.
        #expect(diff.translations.removed.allSatisfy { $0.language == "fr" })
        #expect(diff.translations.removed.filter { $0.table == "stops" }.count == namesakes)
        #expect(diff.translations.added.filter { $0.table == "stops" }.map(\.label) == ["stops \(stop) name [de]"])
        #expect(diff.translations.added.allSatisfy { $0.language == "de" && ["stops", "directions"].contains($0.table) })
        #expect(diff.counts["translations"]?.changed ?? 0 >= 2)
        let text = DiffText(limit: 0).render(diff)
        #expect(text.contains("Translations") && text.contains("\"ターミナル\" → \"ターミナル駅\""))
    }

    /// Copies the files of a dump (zip or folder) into a folder.
    private func copy(_ dump: URL, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let archive = try DumpArchive(url: dump, sink: NoticeSink())
        for name in archive.files.keys {
            if let bytes = try archive.read(name) { try Data(bytes).write(to: folder.appendingPathComponent(name)) }
        }
    }

    private func write(_ folder: URL, _ rows: String) throws {
        try (Self.header + rows).write(to: folder.appendingPathComponent("translations.txt"), atomically: true, encoding: .utf8)
    }
}
