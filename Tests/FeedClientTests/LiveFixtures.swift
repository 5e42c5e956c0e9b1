import FeedClient
import Foundation
import TestSupport

@testable import FeedRealtime

/// A small feed written for the live layer's rules (docs/live.md), in Warsaw: line R1 runs T1
/// (S1 08:00 … S5 08:20, five minutes apart) and T2 an hour later, the loop L (S1, S2, S3, S2
/// again, S5 from 10:00; stop_sequence 10 to 50) and the night trip N (S1 24:30, S2 24:35, S3
/// 24:40); line R2 the frequency-based F (S1 → S3 in ten minutes, every ten minutes 06:00–10:00).
/// The stops lie 0.01° of longitude apart on one parallel.
enum LiveFixture {
    static let files: [String: String] = TinyFeed.with([
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
        P2,Two station,53.1,18.01,1,
        S1,One,53.1,18.0,0,
        S2,Two,53.1,18.01,0,P2
        S3,Three,53.1,18.02,0,
        S4,Four,53.1,18.03,0,
        S5,Five,53.1,18.04,0,

        """,
        "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\nR2,A,2,0\n",
        "trips.txt": "route_id,service_id,trip_id,direction_id\nR1,WK,T1,0\nR1,WK,T2,0\nR1,WK,L,0\nR1,WK,N,0\nR2,WK,F,0\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        T1,08:00:00,08:00:00,S1,1
        T1,08:05:00,08:05:00,S2,2
        T1,08:10:00,08:10:00,S3,3
        T1,08:15:00,08:15:00,S4,4
        T1,08:20:00,08:20:00,S5,5
        T2,09:00:00,09:00:00,S1,1
        T2,09:05:00,09:05:00,S2,2
        T2,09:10:00,09:10:00,S3,3
        T2,09:15:00,09:15:00,S4,4
        T2,09:20:00,09:20:00,S5,5
        L,10:00:00,10:00:00,S1,10
        L,10:05:00,10:05:00,S2,20
        L,10:10:00,10:10:00,S3,30
        L,10:15:00,10:15:00,S2,40
        L,10:20:00,10:20:00,S5,50
        N,24:30:00,24:30:00,S1,1
        N,24:35:00,24:35:00,S2,2
        N,24:40:00,24:40:00,S3,3
        F,00:00:00,00:00:00,S1,1
        F,00:10:00,00:10:00,S3,2

        """,
        "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nF,06:00:00,10:00:00,600\n",
    ])

    /// The fixture compiled once per process.
    static let bundle: URL = {
        let folder = TemporaryFolder()
        keep.append(folder)
        return try! TinyBundle.compile(files, in: folder)
    }()
    nonisolated(unsafe) private static var keep: [TemporaryFolder] = []

    static let zone = TimeZone(identifier: "Europe/Warsaw")!

    /// Tuesday 3 March 2026 at `h:m` in Warsaw (hours past 24 run into Wednesday).
    static func at(_ h: Int, _ m: Int, _ s: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: 2026, month: 3, day: 3, hour: 0))!.addingTimeInterval(TimeInterval(h * 3600 + m * 60 + s))
    }

    static func posix(_ h: Int, _ m: Int, _ s: Int = 0) -> Int64 { Int64(at(h, m, s).timeIntervalSince1970) }

    // MARK: - Messages, written with the generated types

    typealias Message = TransitRealtime_FeedMessage
    typealias Entity = TransitRealtime_FeedEntity
    typealias Update = TransitRealtime_TripUpdate.StopTimeUpdate

    static func message(_ entities: [Entity], at stamp: Int64? = nil, differential: Bool = false, version: String = "2.0") -> Data {
        var m = Message()
        m.header.gtfsRealtimeVersion = version
        if let stamp { m.header.timestamp = UInt64(stamp) }
        if differential { m.header.incrementality = .differential }
        m.entity = entities
        return try! m.serializedBytes()
    }

    static func trip(
        _ id: String, _ updates: [Update], date: String? = "20260303", start: String? = nil,
        relationship: TransitRealtime_TripDescriptor.ScheduleRelationship = .scheduled,
        delay: Int32? = nil, entity: String? = nil
    ) -> Entity {
        var e = Entity()
        e.id = entity ?? id
        e.tripUpdate.trip.tripID = id
        if let date { e.tripUpdate.trip.startDate = date }
        if let start { e.tripUpdate.trip.startTime = start }
        e.tripUpdate.trip.scheduleRelationship = relationship
        if let delay { e.tripUpdate.delay = delay }
        e.tripUpdate.stopTimeUpdate = updates
        return e
    }

    static func update(
        sequence: UInt32? = nil, stop: String? = nil, arrivalDelay: Int32? = nil, departureDelay: Int32? = nil, arrival: Int64? = nil, departure: Int64? = nil,
        relationship: Update.ScheduleRelationship = .scheduled
    ) -> Update {
        var u = Update()
        if let sequence { u.stopSequence = sequence }
        if let stop { u.stopID = stop }
        if let arrivalDelay { u.arrival.delay = arrivalDelay }
        if let arrival { u.arrival.time = arrival }
        if let departureDelay { u.departure.delay = departureDelay }
        if let departure { u.departure.time = departure }
        u.scheduleRelationship = relationship
        return u
    }

    static func feed(_ data: Data..., maxAge: TimeInterval = 90) throws -> LiveFeed {
        var feed = LiveFeed(source: "t", maxAge: maxAge)
        for d in data { try feed.apply(d) }
        return feed
    }
}
