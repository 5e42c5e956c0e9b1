import FeedClient
import Foundation
import TestSupport
import Testing

/// The live layer on real messages beside their static feeds (../shared/data/gtfs-rt), against
/// an oracle written apart from it: Tests/TestSupport/Fixtures/live_oracle.py reads the raw GTFS
/// zip and decodes the messages with Google's gtfs-realtime-bindings (`.ci/run` installs it).
@Suite(
    .serialized,
    .enabled(
        if: SharedData.isAvailable && RealtimePython.url != nil,
        "needs ../shared/data and .build/venv with gtfs-realtime-bindings (.ci/run installs it)"))
struct LiveRealFeedTests {
    struct Expected: Decodable {
        struct Trip: Decodable {
            struct Call: Decodable {
                var stop_sequence: Int
                var stop_id: String
                var arrival: Int64?
                var departure: Int64?
            }
            var trip_id: String
            var service_date: Int
            var calls: [Call]
        }
        var file: String
        var timestamp: Int64
        var unknown: Int
        var trips: [Trip]
    }

    private static let wmataMessages = ["wmata-2345.pb", "wmata-2354.pb", "wmata-0004.pb", "wmata-0009.pb"]

    private func oracle(_ dump: String, _ messages: [URL]) throws -> [Expected] {
        try oracleLines(dump, messages).split(separator: "\n").map { try JSONDecoder().decode(Expected.self, from: Data($0.utf8)) }
    }

    /// live_oracle.py's output: a JSON line per message.
    private func oracleLines(_ dump: String, _ messages: [URL]) throws -> String {
        let python = try #require(RealtimePython.url)
        let script = SharedData.projectRoot.appendingPathComponent("Tests/TestSupport/Fixtures/live_oracle.py")
        let run = try Subprocess.run(python, [script.path, SharedData.url(dump).path] + messages.map(\.path), timeout: 300)
        try #require(run.status == 0, "\(run.error)")
        return run.output
    }

    /// WMATA, four TripUpdates messages from 23:45 to 00:09 on the night of 9–10 February 2024,
    /// each read alone at its own timestamp: at every call of every trip the bundle knows, the
    /// predicted arrival and departure are the oracle's — the message's own time where it gives
    /// one, the scheduled time plus the last earlier delay where it does not, none before the
    /// first update — on the right service date; the trips the subset lacks are counted unknown.
    @Test func wmataPredictionsAreTheReferences() async throws {
        let dump = "gtfs/medium/wmata_2023_subset_oba.zip"
        let built = try BuiltFeeds.bundle(of: SharedData.url(dump))
        let files = Self.wmataMessages.map { SharedData.url("gtfs-rt/wmata_2023_subset/" + $0) }
        let expected = try oracle(dump, files)
        #expect(expected.count == 4)
        let database = try FeedDatabase(path: built.sqlite)
        var compared = 0, predicted = 0, propagated = 0, trips = 0
        for (file, message) in zip(files, expected) {
            var feed = LiveFeed(source: "feed")
            try feed.apply(try Data(contentsOf: file))
            let moment = Date(timeIntervalSince1970: TimeInterval(message.timestamp))
            let report = try await database.liveReport(feeds: [feed], moment: moment)
            #expect(report.reasons.counts[.unknownTrip]?.count == message.unknown, "\(message.file)")
            #expect(report.tripUpdates.joined == message.trips.count, "\(message.file)")
            for trip in message.trips {
                trips += 1
                let progress = try #require(
                    try await database.tripProgress(tripID: trip.trip_id, serviceDate: trip.service_date, feeds: [feed], moment: moment), "\(trip.trip_id)")
                #expect(progress.calls.count == trip.calls.count)
                for (call, want) in zip(progress.calls, trip.calls) {
                    #expect(call.stopSequence == want.stop_sequence && call.stopID == want.stop_id)
                    let arrival = call.predictedArrival.map { Int64($0.timeIntervalSince1970) }
                    let departure = call.predictedDeparture.map { Int64($0.timeIntervalSince1970) }
                    #expect(arrival == want.arrival, "\(message.file) \(trip.trip_id) #\(want.stop_sequence) arrival")
                    #expect(departure == want.departure, "\(message.file) \(trip.trip_id) #\(want.stop_sequence) departure")
                    compared += 1
                    if call.status == .predicted { predicted += 1 }
                    if call.status == .propagated { propagated += 1 }
                }
            }
        }
        #expect(trips == 38, "9, 9, 10 and 10 trips of the subset in the four messages")
        #expect(compared > 1_500 && predicted > 1_000 && propagated > 10, "\(compared) calls, \(predicted) predicted, \(propagated) propagated")
    }

    /// A stop's live departures at 23:50: each departure of a trip the 23:45 message predicts is
    /// at the message's time for that stop where it gives one (arrival only, with no dwell in
    /// WMATA's schedule: the departure is the arrival).
    @Test func wmataLiveDeparturesAtABusyStop() async throws {
        let dump = "gtfs/medium/wmata_2023_subset_oba.zip"
        let built = try BuiltFeeds.bundle(of: SharedData.url(dump))
        let file = SharedData.url("gtfs-rt/wmata_2023_subset/wmata-2345.pb")
        let expected = try #require(try oracle(dump, [file]).first)
        var feed = LiveFeed(source: "feed")
        try feed.apply(try Data(contentsOf: file))
        let database = try FeedDatabase(path: built.sqlite)
        let moment = Date(timeIntervalSince1970: TimeInterval(expected.timestamp + 300))
        var checked = 0
        // The stops the most predicted trips call at after the moment.
        var counts: [String: Int] = [:]
        for trip in expected.trips {
            for call in trip.calls.dropLast() where (call.departure ?? 0) > expected.timestamp + 300 { counts[call.stop_id, default: 0] += 1 }
        }
        for (stop, _) in counts.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }).prefix(5) {
            let answer = try await database.liveDepartures(at: stop, feeds: [feed], moment: moment, limit: 30)
            #expect(answer.stale, "read 5 minutes after the message's 90 s")
            #expect(zip(answer.departures, answer.departures.dropFirst()).allSatisfy { $0.time <= $1.time })
            for departure in answer.departures {
                guard let trip = expected.trips.first(where: { $0.trip_id == departure.tripID && $0.service_date == departure.serviceDate }),
                    let want = trip.calls.first(where: { $0.stop_sequence == departure.stopSequence })
                else {
                    #expect(departure.status == .scheduled && departure.predicted == nil, "\(departure)")
                    continue
                }
                #expect(departure.predicted.map { Int64($0.timeIntervalSince1970) } == want.departure, "\(stop) \(departure.tripID)")
                checked += 1
            }
        }
        #expect(checked >= 5, "\(checked) predicted departures checked")
    }

    /// A journey re-planned on a message (`feedc plan --live`) arrives when a connection scan
    /// over the raw GTFS arrives once the reference's predictions change those trips' calls
    /// (csa_oracle.py with ORACLE_LIVE, the predictions from live_oracle.py: both written apart
    /// from feedc): WMATA's 23:45 and 00:04 messages, 300 random queries each in the hour after.
    @Test func wmataJourneysReplannedOnTheMessagesAreTheOracles() throws {
        let dump = "gtfs/medium/wmata_2023_subset_oba.zip"
        let built = try BuiltFeeds.bundle(of: SharedData.url(dump))
        let feedc = try #require(FeedcBinary.url)
        let python = try #require(Subprocess.python3)
        let folder = TemporaryFolder()
        var changed = 0
        for (name, window) in [("wmata-2345.pb", "85500-88800"), ("wmata-0004.pb", "86640-89940")] {
            let file = SharedData.url("gtfs-rt/wmata_2023_subset/" + name)
            let times = folder.url.appendingPathComponent(name + ".json")
            try Data(try oracleLines(dump, [file]).utf8).write(to: times)
            let script = SharedData.projectRoot.appendingPathComponent("Tests/TestSupport/Fixtures/csa_oracle.py")
            let run = try Subprocess.run(
                python, [script.path, built.sqlite.path, "20240209", "300", "11", "=" + SharedData.url(dump).path],
                environment: [
                    "FEEDC_BINARY": feedc.path, "ORACLE_LIVE": times.path, "ORACLE_WINDOW": window,
                    "ORACLE_PLAN_ARGS": "--live \(file.path) --source feed",
                ], timeout: 900)
            try #require(run.status == 0, "\(run.error)")
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            #expect(summary["answers"] as? Int == 300 && summary["agree"] as? Int == 300, "\(name): \(run.output)")
            changed += summary["live_changed"] as? Int ?? 0
        }
        #expect(changed > 0, "the predictions change some earliest arrivals")
    }

    /// New York's subway: every vehicle of a trip the bundle knows (real-time ids by MTA's
    /// convention, `realtime_trip_ids: nyct`) is placed at its message's stop with a distance
    /// along its line (its position's share of the line between 0 and 1); its one alert names no
    /// entity.
    @Test func newYorkVehiclesAndTheAlert() async throws {
        let nyct = try NYCBundle.sqlite()
        let file = SharedData.url("gtfs-rt/nyct_subway_2023/nyct_subways_gtfs_rt.pb")
        var feed = LiveFeed(source: "nyct")
        try feed.apply(try Data(contentsOf: file))
        let database = try FeedDatabase(path: nyct)
        let moment = Date(timeIntervalSince1970: TimeInterval(feed.timestamp ?? 0))
        let answer = try await database.vehicles(feeds: [feed], moment: moment)
        let report = try await database.liveReport(feeds: [feed], moment: moment)
        #expect(answer.vehicles.count == report.vehicles.joined && answer.vehicles.count > 80, "\(answer.vehicles.count) of \(report.vehicles.total)")
        var placed = 0
        for vehicle in answer.vehicles {
            guard let stop = vehicle.stopID else { continue }
            placed += 1
            let here = try #require(try await database.stop(id: stop))
            #expect(here.stop.coordinate?.latitude == vehicle.latitude && here.stop.coordinate?.longitude == vehicle.longitude)
            let along = try #require(vehicle.distanceAlong, "\(vehicle.vehicleID)")
            #expect(along >= 0 && (vehicle.share ?? 2) <= 1.000_001, "\(vehicle)")
        }
        #expect(placed == answer.vehicles.count)
        // Its one alert names no entity (the reference requires one): listed with no selector,
        // never for a stop or a line, and counted.
        let alerts = try await database.alerts(feeds: [feed], moment: moment)
        let alert = try #require(alerts.alerts.first)
        #expect(alerts.alerts.count == 1 && alert.header == "Train delayed" && alert.active && alert.stops.isEmpty && alert.routes.isEmpty)
        let busiest = try #require(answer.vehicles.first)
        #expect(try await database.alerts(feeds: [feed], stop: try #require(busiest.stopID), moment: moment).alerts.isEmpty)
        #expect(try await database.alerts(feeds: [feed], route: busiest.routeID, moment: moment).alerts.isEmpty)
        #expect(report.alerts.total == 1 && report.alerts.joined == 0 && report.reasons.counts[.unknownInformedEntity]?.examples == [alert.id])
    }
}

/// New York's subway compiled with MTA's real-time trip ids (`realtime_trip_ids: nyct`), source
/// `nyct`, once per process.
enum NYCBundle {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var built: URL?
    nonisolated(unsafe) private static var folder: TemporaryFolder?

    static func sqlite() throws -> URL {
        lock.lock()
        defer { lock.unlock() }
        if let built { return built }
        let folder = TemporaryFolder()
        let yaml = folder.url.appendingPathComponent("pipeline.yaml")
        let zip = SharedData.url("gtfs/medium/nyct_subway_2023_oba.zip").path
        try
            "output: out\nbundles:\n  - name: nyct\n    sources:\n      - id: nyct\n        format: gtfs\n        path: \(zip)\n        realtime_trip_ids: nyct\n"
            .write(to: yaml, atomically: true, encoding: .utf8)
        let url = try TinyBundle.build(pipeline: yaml, bundle: "nyct", in: folder)
        self.folder = folder
        built = url
        return url
    }
}
