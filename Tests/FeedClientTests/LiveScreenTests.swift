import FeedClient
import Foundation
import TestSupport
import Testing

@testable import FeedRealtime

/// Docs/live.md sections 2, 3 and 5 on the written fixture (``LiveFixture``): a stop's live
/// departures with cancelled, added and duplicated trips; differential messages; staleness;
/// vehicles on their line; alerts by what they name.
@Suite struct LiveScreenTests {
    typealias F = LiveFixture

    private func departures(_ feed: LiveFeed, at stop: String = "S2", moment: Date = F.at(7, 55), limit: Int = 4) async throws -> [LiveDeparture] {
        try await FeedDatabase(path: F.bundle).liveDepartures(at: stop, feeds: [feed], moment: moment, limit: limit).departures
    }

    @Test func cancelledAddedAndDuplicatedTripsAtAStop() async throws {
        var added = F.trip("X9", [F.update(stop: "S2", departure: F.posix(8, 2)), F.update(stop: "S3", arrival: F.posix(8, 7))], relationship: .added)
        added.tripUpdate.trip.routeID = "R1"
        var duplicate = F.trip("T1", [], relationship: .duplicated, entity: "dup")
        duplicate.tripUpdate.tripProperties.tripID = "T1-extra"
        duplicate.tripUpdate.tripProperties.startDate = "20260303"
        duplicate.tripUpdate.tripProperties.startTime = "08:30:00"
        let feed = try F.feed(F.message([F.trip("T2", [], relationship: .canceled), added, duplicate], at: F.posix(7, 55)))
        let listed = try await departures(feed)
        #expect(listed.map(\.tripID) == ["X9", "T1", "T1", "T2"])
        #expect(listed.map(\.trip) == [.added, .scheduled, .duplicated, .canceled])
        #expect(listed.map(\.status) == [.added, .scheduled, .scheduled, .canceled])
        #expect(listed.map(\.time) == [F.at(8, 2), F.at(8, 5), F.at(8, 35), F.at(9, 5)])
        #expect(listed[0].scheduled == nil && listed[0].routeID == "R1" && listed[3].predicted == nil)
        #expect(listed.map(\.stopSequence) == [nil, 2, 2, 2])
    }

    /// A trip an hour late is still listed, after the trips it now follows; one that left
    /// early is gone.
    @Test func lateAndEarlyTripsMoveInTheList() async throws {
        let feed = try F.feed(
            F.message(
                [F.trip("T1", [F.update(sequence: 1, departureDelay: 3000)]), F.trip("T2", [F.update(sequence: 1, departureDelay: -3900)])], at: F.posix(8, 1)))
        let listed = try await departures(feed, moment: F.at(8, 1))
        #expect(listed.first?.tripID == "T1" && listed.first?.predicted == F.at(8, 55) && listed.first?.delay == 3000)
        #expect(!listed.contains { $0.tripID == "T2" })
    }

    @Test func aDifferentialMessageReplacesAndDeletesByEntity() async throws {
        var feed = try F.feed(F.message([F.trip("T1", [F.update(sequence: 1, departureDelay: 60)], entity: "e1")], at: F.posix(7, 50)))
        #expect(try await departures(feed).first?.delay == 60)
        try feed.apply(F.message([F.trip("T1", [F.update(sequence: 1, departureDelay: 120)], entity: "e1")], at: F.posix(7, 51), differential: true))
        #expect(try await departures(feed).first?.delay == 120 && feed.entities.count == 1)
        var gone = F.Entity()
        gone.id = "e1"
        gone.isDeleted = true
        try feed.apply(F.message([gone], at: F.posix(7, 52), differential: true))
        #expect(try await departures(feed).first?.status == .scheduled && feed.entities.isEmpty)
        // A full dataset replaces everything.
        try feed.apply(F.message([F.trip("T2", [F.update(sequence: 2, departureDelay: 30)], entity: "e2")], at: F.posix(7, 53)))
        #expect(feed.entities.map(\.id) == ["e2"] && feed.timestamp == F.posix(7, 53) && feed.messages == 4)
    }

    @Test func aMessageOlderThanItsMaximumAgeIsStale() async throws {
        let database = try FeedDatabase(path: F.bundle)
        let old = F.message([F.trip("T1", [F.update(sequence: 2, arrivalDelay: 60)])], at: F.posix(7, 53))
        #expect(try await database.liveDepartures(at: "S2", feeds: [F.feed(old)], moment: F.at(7, 55)).stale)
        #expect(try await !database.liveDepartures(at: "S2", feeds: [F.feed(old, maxAge: 300)], moment: F.at(7, 55)).stale)
        let undated = F.message([F.trip("T1", [F.update(sequence: 2, arrivalDelay: 60)])])
        #expect(try await database.liveDepartures(at: "S2", feeds: [F.feed(undated, maxAge: 300)], moment: F.at(7, 55)).stale)
        // Stale predictions still apply.
        #expect(try await database.liveDepartures(at: "S2", feeds: [F.feed(old)], moment: F.at(7, 55)).departures.first?.delay == 60)
    }

    /// An enum value the schema does not know reads as the field's default (proto2).
    @Test func anUnknownEnumValueReadsAsTheDefault() async throws {
        var bytes: [UInt8] = [UInt8](F.message([F.trip("T1", [F.update(sequence: 2, arrivalDelay: 60)])], at: F.posix(7, 55)))
        // TripDescriptor.schedule_relationship (field 4, varint) = 0 appended as 99: the trip
        // descriptor is re-encoded with the unknown value after its known fields.
        var m = try F.Message(serializedBytes: bytes)
        var trip = m.entity[0].tripUpdate.trip
        trip.clearScheduleRelationship()
        var raw: [UInt8] = try trip.serializedBytes()
        raw += [0x20, 99]
        m.entity[0].tripUpdate.trip = try TransitRealtime_TripDescriptor(serializedBytes: raw)
        bytes = try m.serializedBytes()
        let read = try RealtimeReader.read(Data(bytes))
        #expect(read.entities[0].tripUpdate?.trip.relationship == .scheduled)
        let listed = try await departures(try F.feed(Data(bytes)))
        #expect(listed.first?.tripID == "T1" && listed.first?.delay == 60)
    }

    @Test func vehiclesArePlacedOnTheirLine() async throws {
        func vehicle(
            _ id: String, trip: String, lat: Float? = nil, lon: Float? = nil, stop: String? = nil, sequence: UInt32? = nil,
            status: TransitRealtime_VehiclePosition.VehicleStopStatus? = nil
        ) -> F.Entity {
            var e = F.Entity()
            e.id = id
            e.vehicle.trip.tripID = trip
            e.vehicle.trip.startDate = "20260303"
            e.vehicle.vehicle.id = "bus-\(id)"
            if let lat, let lon {
                e.vehicle.position.latitude = lat
                e.vehicle.position.longitude = lon
            }
            if let stop { e.vehicle.stopID = stop }
            if let sequence { e.vehicle.currentStopSequence = sequence }
            if let status { e.vehicle.currentStatus = status }
            return e
        }
        let feed = try F.feed(
            F.message(
                [
                    vehicle("a", trip: "T1", lat: 53.1003, lon: 18.025),
                    vehicle("b", trip: "T1", stop: "S3", status: .stoppedAt),
                    vehicle("c", trip: "T2", sequence: 3),
                    vehicle("d", trip: "nope", stop: "S1"),
                ], at: F.posix(8, 12)))
        let answer = try await FeedDatabase(path: F.bundle).vehicles(feeds: [feed], moment: F.at(8, 12))
        #expect(answer.vehicles.map(\.vehicleID) == ["bus-a", "bus-b", "bus-c"])
        let metresPerStop = 0.01 * 111_320 * cos(53.1 * .pi / 180)
        let a = answer.vehicles[0], b = answer.vehicles[1], c = answer.vehicles[2]
        #expect(abs((a.distanceAlong ?? 0) - 2.5 * metresPerStop) < 0.5 && a.nextStopID == "S4" && abs((a.share ?? 0) - 0.625) < 1e-3)
        #expect(abs((a.latitude ?? 0) - 53.1) < 1e-6, "snapped onto the line")
        #expect(abs((b.distanceAlong ?? 0) - 2 * metresPerStop) < 0.5 && b.nextStopID == "S4" && b.stopID == "S3")
        #expect(abs((c.distanceAlong ?? 0) - 2 * metresPerStop) < 0.5 && c.nextStopID == "S3" && c.status == "IN_TRANSIT_TO")
        let r2 = try await FeedDatabase(path: F.bundle).vehicles(feeds: [feed], route: "R2", moment: F.at(8, 12))
        #expect(r2.vehicles.isEmpty)
    }

    @Test func alertsApplyToWhatTheyName() async throws {
        func alert(_ id: String, _ entities: [TransitRealtime_EntitySelector], periods: [(UInt64?, UInt64?)] = []) -> F.Entity {
            var e = F.Entity()
            e.id = id
            e.alert.informedEntity = entities
            e.alert.activePeriod = periods.map { p in
                var r = TransitRealtime_TimeRange()
                if let s = p.0 { r.start = s }
                if let e = p.1 { r.end = e }
                return r
            }
            var en = TransitRealtime_TranslatedString.Translation()
            en.text = "Works at \(id)"
            en.language = "en"
            var pl = TransitRealtime_TranslatedString.Translation()
            pl.text = "Roboty: \(id)"
            pl.language = "pl"
            e.alert.headerText.translation = [en, pl]
            e.alert.effect = .detour
            return e
        }
        func selector(stop: String? = nil, route: String? = nil, agency: String? = nil) -> TransitRealtime_EntitySelector {
            var s = TransitRealtime_EntitySelector()
            if let stop { s.stopID = stop }
            if let route { s.routeID = route }
            if let agency { s.agencyID = agency }
            return s
        }
        let now = UInt64(F.posix(8, 0))
        let feed = try F.feed(
            F.message(
                [
                    alert("at-P2", [selector(stop: "P2")]),
                    alert("line-2", [selector(route: "R2")]),
                    alert("agency", [selector(agency: "A")], periods: [(now + 3600, nil)]),
                    alert("S4-on-1", [selector(stop: "S4", route: "R1")]),
                    alert("ghost", [selector(stop: "Z9")]),
                ], at: F.posix(8, 0)))
        let database = try FeedDatabase(path: F.bundle)
        let atS2 = try await database.alerts(feeds: [feed], stop: "S2", moment: F.at(8, 0), language: "pl-PL")
        #expect(atS2.alerts.map(\.id) == ["at-P2", "agency"])
        #expect(atS2.alerts.map(\.active) == [true, false] && atS2.alerts[0].header == "Roboty: at-P2" && atS2.alerts[0].effect == "DETOUR")
        #expect(atS2.alerts[0].stops == ["P2"])
        let atS1 = try await database.alerts(feeds: [feed], stop: "S1", moment: F.at(8, 0), language: "de")
        #expect(atS1.alerts.map(\.id) == ["line-2", "agency"] && atS1.alerts[0].header == "Works at line-2")
        let r1 = try await database.alerts(feeds: [feed], route: "R1", moment: F.at(8, 0))
        #expect(r1.alerts.map(\.id) == ["agency", "S4-on-1"] && r1.alerts[1].routes == ["R1"] && r1.alerts[1].stops == ["S4"])
        let all = try await database.alerts(feeds: [feed], moment: F.at(8, 0))
        #expect(all.alerts.count == 5)
        let report = try await database.liveReport(feeds: [feed], moment: F.at(8, 0))
        #expect(report.alerts.total == 5 && report.alerts.joined == 4 && report.reasons.counts[.unknownInformedEntity]?.examples == ["ghost"])
    }
}
