import BundleFormat
import FeedPipeline
import FeedSQLite
import Foundation
import TestSupport
import Testing

@testable import FeedClient

/// The typed query API: it runs the documented SQL word for word, answers the sample's known
/// questions, and refuses what is not a bundle with a typed error.
@Suite struct FeedDatabaseTests {
    /// The sample metro bundle, unpacked to a file.
    private static func sample(_ folder: TemporaryFolder) throws -> URL {
        let yaml = folder.url.appendingPathComponent("pipeline.yaml")
        try "output: out\nbundles:\n  - name: m\n    sources:\n      - id: m\n        path: \(SharedData.sample("metro").path)\n".write(
            to: yaml, atomically: true, encoding: .utf8)
        _ = try BuildRunner(config: PipelineConfigParser().parse(contentsOf: yaml)).run()
        let manifest = try Manifest.decode(Data(contentsOf: folder.url.appendingPathComponent("out/m/manifest.json")))
        let db = folder.url.appendingPathComponent("m.sqlite")
        try Data(Gzip.decompress([UInt8](Data(contentsOf: folder.url.appendingPathComponent("out/m").appendingPathComponent(manifest.latest.file))))).write(
            to: db)
        return db
    }

    @Test func theCodeRunsTheDocumentedSQL() throws {
        let docs = try String(contentsOf: SharedData.projectRoot.appendingPathComponent("docs/bundle-format.md"), encoding: .utf8)
        var documented: [String: String] = [:]
        for block in docs.components(separatedBy: "```sql\n").dropFirst() {
            guard let end = block.range(of: "\n```") else { continue }
            let sql = String(block[..<end.lowerBound])
            guard sql.hasPrefix("-- query: ") else { continue }
            documented[String(sql.dropFirst("-- query: ".count).prefix { $0 != "\n" })] = sql
        }
        #expect(documented.count >= 11)
        #expect(DocumentedQueries.all == documented, "run scripts/sync-client-queries.py after changing a query in docs/bundle-format.md")
    }

    @Test func eachScreensQuestionOnTheSample() async throws {
        let folder = TemporaryFolder()
        let app = try FeedDatabase(path: Self.sample(folder))
        #expect(try await app.version == 1)
        let near = try await app.stops(near: Coordinate(latitude: 37.800099, longitude: -122.242684), radius: 100)
        #expect(near.map(\.id) == ["s101", "s102"])
        #expect(near.first?.coordinate == Coordinate(latitude: 37.800099, longitude: -122.242684))
        #expect(try await Set(app.searchStops("College & Broadway").map(\.id)) == ["s103", "s104"])
        #expect(try await app.searchStops(" -*- ").isEmpty)
        #expect(try await app.lines(at: "s101").map(\.id) == ["51"])
        let directions = try await app.directions(of: "51")
        #expect(directions.map(\.name) == ["to Marina", "to Rockridge Station"])
        #expect(directions[0].terminalStopIDs == ["s130", "s147"])
        #expect(
            try await app.stops(of: "51", direction: 0).map(\.id) == [
                "s101", "s103", "s105", "s107", "s109", "s111", "s113", "s121", "s123", "s125", "s130", "s141", "s143", "s145", "s147",
            ])
        let stopLines = try await app.stopLines(at: "s105")
        #expect(stopLines.count == 1 && Set(stopLines[0].headsigns).isSuperset(of: ["Marina", "University Ave & 3rd St"]))
        #expect(try await app.oppositeStop(of: "s105").map(\.stopID) == ["s106"])
        #expect(try await app.oppositeStop(of: "s105", line: "51").first?.routeIDs == ["51"])
        #expect(try await app.oppositeStop(of: "s105", line: "8").isEmpty)
    }

    /// Departures in the agency's time zone (America/Chicago; the machine runs on another): a
    /// weekday morning, the previous service day's 24:00 trip just before and at midnight, and
    /// the day clocks go forward, when service-day seconds still read as the local clock.
    @Test func departuresAcrossMidnightAndAClockChange() async throws {
        let folder = TemporaryFolder()
        let app = try FeedDatabase(path: Self.sample(folder))
        let chicago = TimeZone(identifier: "America/Chicago")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = chicago
        func local(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ min: Int, _ s: Int = 0) -> Date {
            calendar.date(from: DateComponents(year: y, month: m, day: d, hour: h, minute: min, second: s))!
        }
        #expect(TimeZone.current.identifier != "America/Chicago")
        // Wednesday 2026-03-04 from 06:00: route 51 leaves Rockridge every 15 minutes.
        let morning = try await app.departures(at: "s101", after: local(2026, 3, 4, 6, 0), limit: 3)
        #expect(morning.map(\.time) == [local(2026, 3, 4, 6, 0), local(2026, 3, 4, 6, 15), local(2026, 3, 4, 6, 30)])
        #expect(morning.allSatisfy { $0.serviceDate == 20260304 && $0.isExact && $0.headway == nil })
        // Just before and at midnight, Wednesday's 24:00 trip is the next one, on Wednesday's service.
        for moment in [local(2026, 3, 4, 23, 59, 30), local(2026, 3, 5, 0, 0)] {
            let late = try #require(try await app.departures(at: "s101", after: moment, limit: 1).first)
            #expect(late.tripID == "51_WKDY_OM_2400" && late.serviceDate == 20260304 && late.serviceSeconds == 86400)
            #expect(late.time == local(2026, 3, 5, 0, 0))
        }
        // Sunday 2026-03-08, clocks go forward at 02:00: a day trip's GTFS time is the local clock.
        let sunday = try await app.departures(at: "s101", after: local(2026, 3, 8, 7, 0), limit: 5)
        #expect(!sunday.isEmpty)
        for departure in sunday {
            let parts = calendar.dateComponents([.hour, .minute, .second], from: departure.time)
            #expect(parts.hour! * 3600 + parts.minute! * 60 + parts.second! == departure.serviceSeconds, "\(departure)")
            #expect(departure.serviceDate == 20260308)
        }
    }

    @Test func whatIsNotABundleIsATypedError() async throws {
        let folder = TemporaryFolder()
        func refused(_ url: URL, _ words: String) {
            #expect {
                _ = try FeedDatabase(path: url)
            } throws: { error in
                guard case .notABundle(_, let reason) = error as? ClientError else { return false }
                return reason.contains(words)
            }
        }
        // First launch: no file yet is a state of its own, not a damaged database.
        #expect {
            _ = try FeedDatabase(path: folder.url.appendingPathComponent("missing.sqlite"))
        } throws: { error in
            guard case .noDatabase = error as? ClientError else { return false }
            return (error as? ClientError)?.errorDescription == "No timetable on this device yet. It is downloaded on the first update."
        }
        let text = folder.url.appendingPathComponent("text.sqlite")
        try Data("this is not a database, just some text long enough to be read".utf8).write(to: text)
        refused(text, "not a database")
        let other = folder.url.appendingPathComponent("other.sqlite")
        try Database(path: other.path, mode: .create).execute("CREATE TABLE t (a)")
        refused(other, "no meta table")
        let old = try Self.sample(folder)
        try Database(path: old.path, mode: .readWrite).execute("UPDATE meta SET value = '1' WHERE key = 'format'")
        refused(old, "bundle format 1")
    }

    /// What the guide's screens need beyond the first questions (issue 32).
    @Test func theRestOfTheScreensOnTheSample() async throws {
        let folder = TemporaryFolder()
        let app = try FeedDatabase(path: Self.sample(folder))
        let near = try await app.stops(near: Coordinate(latitude: 37.7999, longitude: -122.2427), radius: 100)
        #expect(near.map(\.id) == ["s102", "s101"] && near.map(\.code) == ["10102", "10101"])
        let metres = near.compactMap(\.distanceMetres)
        #expect(metres.count == 2 && abs(metres[0] - 1.4) < 0.2 && abs(metres[1] - 22.2) < 0.5, "\(metres)")
        let found = try await app.searchStops("market st")
        #expect(found.map(\.id) == ["s109", "s110"])
        #expect(found.first?.coordinate == Coordinate(latitude: 37.800099, longitude: -122.262033))
        #expect(try await app.searchStops("&").isEmpty)

        let stop = try #require(try await app.stop(id: "s101"))
        #expect(stop.stop.name == "Rockridge Station" && stop.stop.code == "10101" && stop.locationType == 0 && stop.wheelchairBoarding == 1)
        #expect(try await app.stop(id: "nowhere") == nil)

        let shapes = try await app.shapes(of: "51", direction: 0)
        let first = try #require(shapes.first)
        #expect(first.points.count > 10 && first.trips > 0)
        // The shape starts at Rockridge, where direction 0 starts (within 100 m).
        let start = try #require(first.points.first)
        #expect(abs(start.latitude - 37.8) < 0.001 && abs(start.longitude + 122.2427) < 0.001, "\(start)")
        #expect(try await app.shapes(of: "51", direction: 7).isEmpty)

        #expect(try await app.serviceRange() == ServiceRange(first: 20260101, last: 20261231))
        func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
        #expect(try await app.timetableStatus(at: at("2026-06-01T12:00:00Z")) == .current(lastDate: 20261231))
        #expect(try await app.timetableStatus(at: at("2026-12-28T12:00:00Z")) == .expiring(lastDate: 20261231, daysLeft: 3))
        // The morning after the last date still runs its trips past midnight.
        #expect(try await app.timetableStatus(at: at("2027-01-01T12:00:00Z")) == .expiring(lastDate: 20261231, daysLeft: 0))
        #expect(try await app.timetableStatus(at: at("2027-01-02T12:00:00Z")) == .expired(lastDate: 20261231))
        #expect(try await app.timetableStatus(at: at("2025-12-30T12:00:00Z")) == .notYetValid(firstDate: 20260101))
        // Bytes outside the format end the points where they start.
        #expect(
            EncodedPolyline.decode("_p~iF~ps|U_ulLnnqC") == [Coordinate(latitude: 38.5, longitude: -120.2), Coordinate(latitude: 40.7, longitude: -120.95)],
            "Google's example")
        #expect(EncodedPolyline.decode("_p~iF~ps|U\u{80}?").count == 1)

        #expect(try await app.read("SELECT count(*) FROM stops WHERE code = ?", [.text("10101")]).first?.first?.int == 1)
        await #expect {
            try await app.read("DELETE FROM stops")
        } throws: { error in
            guard case .badQuery(let reason) = error as? ClientError else { return false }
            return reason.contains("readonly") || reason.contains("read-only") || reason.contains("read only")
        }
        #expect(try await app.read("SELECT count(*) FROM stops").first?.first?.int ?? 0 > 20, "the write changed nothing")
    }

    /// A query that cannot get at the file while another connection holds it is `.busy` (try
    /// again), not `.notABundle` (which would have the app download everything again).
    /// A value of the wrong type where the bundle format declares another is a damaged bundle,
    /// said as such, naming the query and column: the screens no longer default it (a route type
    /// of text read as 3, a bus) and the planner no longer skips the row.
    @Test func aWrongTypeInTheBundleIsNotADefault() async throws {
        let folder = TemporaryFolder()
        let file = try Self.sample(folder)
        let fine = try await FeedDatabase(path: file).lines(at: "s101")
        #expect(fine.map(\.type) == [3])
        try Database(path: file.path, mode: .readWrite).execute("UPDATE routes SET type = 'bus' WHERE route_id = '51'")
        do {
            _ = try await FeedDatabase(path: file).lines(at: "s101")
            Issue.record("a text route type was read")
        } catch {
            #expect(error == .notABundle(path: file.path, reason: "query lines_at_stop: type holds text where the bundle format has an integer"))
            #expect(!error.isTransient)
        }
        let planner = try JourneyPlanner(bundle: file)
        let date = try #require(try await FeedDatabase(path: file).serviceRange()).first
        #expect(try !planner.plan(from: [StopAccess(stopId: "s101")], to: [StopAccess(stopId: "s130")], date: date, departure: 6 * 3600).isEmpty)
        try Database(path: file.path, mode: .readWrite).execute("UPDATE trips SET start_time = 'late' WHERE trip_id = (SELECT min(trip_id) FROM trips)")
        do {
            _ = try JourneyPlanner(bundle: file).plan(from: [StopAccess(stopId: "s101")], to: [StopAccess(stopId: "s130")], date: date, departure: 6 * 3600)
            Issue.record("a trip with a text start time was skipped")
        } catch {
            #expect(error == .notABundle(path: file.path, reason: "query planner trips: start_time holds text where the bundle format has an integer"))
        }
    }

    @Test func aLockedFileIsBusyNotBroken() async throws {
        let folder = TemporaryFolder()
        let file = try Self.sample(folder)
        let app = try FeedDatabase(path: file)
        let writer = try Database(path: file.path, mode: .readWrite)
        #expect(try writer.scalar("PRAGMA journal_mode")?.string != "wal", "a rollback-journal file: a writer's lock shuts readers out")
        try writer.execute("BEGIN EXCLUSIVE")
        do {
            _ = try await app.stop(id: "s101")
            Issue.record("read through an exclusive lock")
        } catch {
            guard case .busy = error else {
                Issue.record("a locked file reported as \(error)")
                return
            }
            #expect(error.isTransient)
        }
        try writer.execute("ROLLBACK")
        #expect(try await app.stop(id: "s101") != nil, "readable again once the lock is gone")
        // A bundle missing a table is not a bundle this library reads.
        try writer.execute("DROP TABLE stop_opposites")
        await #expect {
            _ = try await app.oppositeStop(of: "s101")
        } throws: { error in
            guard case .notABundle(_, let reason) = error as? ClientError else { return false }
            return reason.contains("stop_opposites")
        }
    }

    /// Why a full download happened, in the result and its words.
    @Test func fullDownloadReasonsAreWorded() {
        #expect("\(UpdateResult.downloadedFull(version: 3, bytes: 10))" == "downloaded full bundle (version 3), 10 bytes; first download")
        #expect(
            "\(UpdateResult.downloadedFull(version: 3, bytes: 10, reason: .noDeltaPublished(from: 1)))"
                == "downloaded full bundle (version 3), 10 bytes; no delta from version 1 is published")
        #expect("\(FullDownloadReason.deltaFailed(from: 2, reason: "x: bad"))" == "the delta from version 2 was not used: x: bad")
    }
}
