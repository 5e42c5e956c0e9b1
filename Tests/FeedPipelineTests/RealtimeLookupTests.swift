import FeedPipeline
import Foundation
import TestSupport
import Testing

/// Real GTFS-Realtime messages joined to bundles of their static feeds with the documented
/// `realtime_trip` query (issue 28), decoded by Google's gtfs-realtime-bindings (PyPI; `.ci/run`
/// installs it into `.build/venv`): Tests/TestSupport/Fixtures/realtime_lookup.py.
@Suite(
    .serialized,
    .enabled(
        if: SharedData.isAvailable && RealtimePython.url != nil,
        "needs ../shared/data and .build/venv with gtfs-realtime-bindings (.ci/run installs it)"))
struct RealtimeLookupTests {
    static var python: URL? { RealtimePython.url }

    struct Message: Decodable {
        struct Lookup: Decodable {
            struct Found: Decodable {
                var trip_id: String
                var service_date: Int
                var runs: Int
                var start_time: Int
            }
            var trip_id: String
            var start_date: String
            var route_in_bundle: Bool
            var trip_in_bundle: Bool
            var conventional_id: Bool
            var found: Found?
        }
        var file: String
        var lookups: [Lookup]
    }

    private func lookups(_ sqlite: URL, source: String, messages folder: String) throws -> [Message] {
        let python = try #require(Self.python)
        let files = try FileManager.default.contentsOfDirectory(atPath: SharedData.url(folder).path).filter { $0.hasSuffix(".pb") }.sorted()
        let script = SharedData.projectRoot.appendingPathComponent("Tests/TestSupport/Fixtures/realtime_lookup.py")
        let run = try Subprocess.run(
            python,
            [
                script.path, SharedData.projectRoot.appendingPathComponent("docs/bundle-format.md").path,
                sqlite.path, source,
            ] + files.map { SharedData.url(folder + "/" + $0).path }, timeout: 300)
        try #require(run.status == 0, "\(run.error)")
        return try run.output.split(separator: "\n").map { try JSONDecoder().decode(Message.self, from: Data($0.utf8)) }
    }

    /// WMATA, four messages from 23:45 to 00:09 on the night of Friday 9 February 2024: every
    /// TripUpdate of a trip the static subset holds is found, on its service date, Friday's,
    /// whether the message names it (trips before midnight) or the calendar date (trips past
    /// 24:00:00 of Friday's service, dated 20240210 by WMATA). The subset holds about 10 of each message's
    /// 40 trips on its 14 lines (and none of the other lines'): the others are unknown, not
    /// errors.
    @Test func wmataTripsAreFoundOnTheirServiceDate() throws {
        let built = try BuiltFeeds.bundle(of: SharedData.url("gtfs/medium/wmata_2023_subset_oba.zip"))
        let messages = try lookups(built.sqlite, source: "feed", messages: "gtfs-rt/wmata_2023_subset")
        #expect(messages.count == 4)
        var found = 0, unknown = 0, pastMidnight = 0, dates: Set<Int> = []
        for message in messages {
            for lookup in message.lookups {
                guard lookup.trip_in_bundle else {
                    #expect(lookup.found == nil, "\(message.file): \(lookup.trip_id)")
                    unknown += 1
                    continue
                }
                let hit = try #require(lookup.found, "\(message.file): \(lookup.trip_id) not found")
                #expect(hit.runs == 1, "\(message.file): \(lookup.trip_id)")
                // WMATA dates a trip that starts at 24:00 or later by the calendar: its service
                // date is the day before.
                let expected = hit.start_time >= 86_400 && lookup.start_date == "20240210" ? 20240209 : Int(lookup.start_date)
                #expect(hit.service_date == expected, "\(message.file): \(lookup.trip_id) starting at \(hit.start_time)")
                if hit.start_time >= 86_400 { pastMidnight += 1 }
                found += 1
                dates.insert(hit.service_date)
            }
        }
        #expect(found == 38, "9, 9, 10 and 10 trips of the subset in the four messages")
        #expect(unknown > 1_000)
        #expect(pastMidnight > 10)
        #expect(dates == [20240209])
    }

    /// New York: real-time trip ids are the origin time and `mta_trip_id` (`036050_2..S07R`).
    /// With `realtime_trip_ids: nyct`, every TripUpdate whose id the static cut holds is found on
    /// its date (201 of the 257 of the May message; the rest name trips or paths the static cut
    /// does not have, as do all of Staten Island's, whose static ids are written `SI.S03R`).
    @Test func newYorkTripsAreFoundThroughTheConvention() throws {
        let built = try NetworkRegions.bundle("northeast", NetworkRegions.northeast)
        #expect(built.report.network?.realtimeTrips ?? 0 > 8_000)
        let messages = try lookups(built.sqlite, source: "nyct", messages: "gtfs-rt/nyct_subway_2023")
        var found = 0
        for message in messages {
            for lookup in message.lookups {
                if lookup.conventional_id {
                    let hit = try #require(lookup.found, "\(lookup.trip_id)")
                    #expect(hit.runs == 1 && String(hit.service_date) == lookup.start_date, "\(lookup.trip_id)")
                    found += 1
                } else {
                    #expect(lookup.found == nil, "\(lookup.trip_id)")
                }
            }
        }
        #expect(found >= 200)
    }
}
