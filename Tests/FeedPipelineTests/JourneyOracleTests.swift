import BundleFormat
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// The journey planner (issue 29) against an independent oracle: a connection scan over the raw
/// GTFS files (Tests/TestSupport/Fixtures/csa_oracle.py), 1,000 random stop-to-stop queries per
/// bundle on one service day (Bydgoszcz, New York's subway, Washington, BART and Caltrain
/// joined), through `feedc plan --batch`. The planner's earliest arrival must equal the
/// oracle's on every query (the same transfer model on both sides, at most 8 rides), and no
/// journey of an answer may be dominated by another (arrival and transfers).
@Suite(.serialized, .enabled(if: SharedData.isAvailable && FeedcBinary.suitesRun, "needs ../shared/data and the feedc binary"))
struct JourneyOracleTests {
    struct Summary: Decodable {
        var queries: Int
        var answers: Int
        var agree: Int
        var found: Int
        var frequency_rides: Int
        var dominated: Int
        var delayed: Int
        var delayed_agree: Int
        var delayed_changed: Int
    }

    private func oracle(_ sqlite: URL, date: Int, queries: Int, seed: Int, sources: [(prefix: String, dump: String)], delays: Int = 0) throws -> Summary {
        let python = try #require(Subprocess.python3)
        let feedc = try #require(FeedcBinary.url)
        let script = SharedData.projectRoot.appendingPathComponent("Tests/TestSupport/Fixtures/csa_oracle.py")
        let arguments =
            [script.path, sqlite.path, String(date), String(queries), String(seed)]
            + sources.map { "\($0.prefix)=\(SharedData.url($0.dump).path)" }
        let run = try Subprocess.run(python, arguments, environment: ["FEEDC_BINARY": feedc.path, "ORACLE_DELAYS": String(delays)], timeout: 900)
        try #require(run.status == 0, "\(run.error)")
        print("journey oracle \(sqlite.lastPathComponent): \(run.output)")
        return try JSONDecoder().decode(Summary.self, from: Data(run.output.utf8))
    }

    private func expectAgreement(_ summary: Summary, _ label: String) {
        #expect(summary.answers == summary.queries, "\(label)")
        #expect(summary.agree == summary.queries, "\(label): \(summary.queries - summary.agree) earliest arrivals differ")
        #expect(summary.dominated == 0, "\(label)")
        #expect(summary.found > summary.queries / 2, "\(label): most random pairs of a network are connected")
    }

    /// With live delays too: 25 answered queries re-planned with their first ride's trip
    /// cancelled, and with it 10 minutes late from where it is boarded; the oracle scans the
    /// same changed timetable.
    @Test func bydgoszcz() throws {
        let built = try BuiltFeeds.bundle(of: SharedData.url("gtfs/medium/bydgoszcz_2020_otp.zip"))
        let summary = try oracle(built.sqlite, date: 20200430, queries: 1_000, seed: 3, sources: [("", "gtfs/medium/bydgoszcz_2020_otp.zip")], delays: 25)
        expectAgreement(summary, "Bydgoszcz")
        #expect(summary.delayed == 50)
        #expect(summary.delayed_agree == summary.delayed, "\(summary.delayed - summary.delayed_agree) re-planned arrivals differ")
        #expect(summary.delayed_changed > 25, "a cancelled first ride changes the journey")
    }

    @Test func newYorkSubway() throws {
        let built = try BuiltFeeds.bundle(of: SharedData.url("gtfs/medium/nyct_subway_2023_oba.zip"))
        expectAgreement(
            try oracle(built.sqlite, date: 20230509, queries: 1_000, seed: 4, sources: [("", "gtfs/medium/nyct_subway_2023_oba.zip")]), "NYC subway")
    }

    /// Washington's Metrorail and Metrobus of 2026, with live delays.
    @Test func washington() throws {
        let built = try BuiltFeeds.bundle(of: SharedData.url("gtfs/medium/wmata_2026_tlib.zip"))
        let summary = try oracle(built.sqlite, date: 20260513, queries: 1_000, seed: 7, sources: [("", "gtfs/medium/wmata_2026_tlib.zip")], delays: 25)
        expectAgreement(summary, "WMATA")
        #expect(summary.delayed == 50 && summary.delayed_agree == summary.delayed, "\(summary)")
    }

    /// Two sources joined by the network stage: BART and Caltrain of June 2018.
    @Test func bartAndCaltrain() throws {
        let built = try NetworkRegions.bundle("bay2018", NetworkRegions.bay2018)
        let summary = try oracle(
            built.sqlite, date: 20180613, queries: 1_000, seed: 5,
            sources: [
                ("bart:", "gtfs/versions/bart/bart_2018-05_v47_tlib.zip"), ("caltrain:", "gtfs/versions/caltrain/caltrain_2018-06-12_tlib.zip"),
            ], delays: 25)
        expectAgreement(summary, "BART + Caltrain")
        #expect(summary.delayed == 50 && summary.delayed_agree == summary.delayed, "\(summary)")
    }

    /// São Paulo's sample runs on frequencies.txt: journeys ride its headway runs, as the oracle
    /// expands them.
    @Test func frequencyRunsAreRidden() throws {
        let built = try BuiltFeeds.bundle(of: SharedData.url("gtfs/small/sptrans_subset_r5py.zip"))
        let summary = try oracle(
            built.sqlite, date: try Self.busiestDate(built.sqlite), queries: 300, seed: 6,
            sources: [("", "gtfs/small/sptrans_subset_r5py.zip")])
        #expect(summary.agree == summary.queries)
        #expect(summary.frequency_rides > 50, "journeys ride headway runs")
    }

    /// Mexico City's corridors and Metrobús run on frequencies.txt too. Some of its fastest
    /// journeys take more than 8 rides: the oracle keeps the planner's cap.
    @Test func mexicoCityFrequencyRuns() throws {
        let built = try BuiltFeeds.bundle(of: SharedData.url("gtfs/small/cdmx_2018_tlib.zip"))
        let summary = try oracle(
            built.sqlite, date: try Self.busiestDate(built.sqlite), queries: 300, seed: 8,
            sources: [("", "gtfs/small/cdmx_2018_tlib.zip")])
        #expect(summary.agree == summary.queries)
        #expect(summary.dominated == 0)
        #expect(summary.frequency_rides > 300, "journeys ride headway runs")
    }

    static func busiestDate(_ sqlite: URL) throws -> Int {
        let run = try Subprocess.run(
            try #require(Subprocess.python3),
            [
                "-c",
                """
                import sqlite3, sys
                db = sqlite3.connect(sys.argv[1])
                print(db.execute("SELECT d FROM (SELECT c.start_date AS d, count(*) AS n FROM calendar c JOIN trips t ON t.service_id = c.service_id GROUP BY c.start_date UNION ALL SELECT x.date, count(*) FROM calendar_dates x JOIN trips t ON t.service_id = x.service_id WHERE x.exception_type = 1 GROUP BY x.date) GROUP BY d ORDER BY sum(n) DESC, d LIMIT 1").fetchone()[0])
                """, sqlite.path,
            ])
        return try #require(Int(run.output.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
}
