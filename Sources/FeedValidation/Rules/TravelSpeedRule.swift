import FeedModel

/// Vehicles may not travel faster than their mode allows (warnings, reported only), as
/// MobilityData computes it: straight-line distance between the stops (or their parent stations)
/// over the time from departure to arrival, plus a minute when both times are whole minutes
/// (schedules rounded to the minute), a minute when the time is not positive.
///
/// - `fast_travel_between_consecutive_stops`: between two consecutive stops with times, one
///   notice per pair.
/// - `fast_travel_between_far_stops`: between two stops more than 10 km apart along the trip,
///   at most one notice per trip.
///
/// Limits (km/h): light rail 100, subway, bus, trolleybus and monorail 150, rail 500, ferry 80,
/// cable tram 30, aerial lift and funicular 50, other types 200.
struct TravelSpeedRule: ValidationRule {
    /// Kilometres beyond which a too fast trip is `fast_travel_between_far_stops`.
    static let farDistance = 10.0

    init() {}

    static func limit(_ routeType: Int) -> Double {
        switch routeType {
        case 0: 100
        case 2: 500
        case 1, 3, 11, 12: 150
        case 4: 80
        case 5: 30
        case 6, 7: 50
        default: 200
        }
    }

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let stopTimes = feed.stopTimes, stops = feed.stops
        guard !stopTimes.isEmpty else { return }
        // Each stop's position as a number into `positions` (a stop without one takes its parent
        // station's), so that the distance between two stops is computed once, however many
        // trips pass between them (`Legs`).
        var stopNumber: [String: Int] = [:]
        var positions: [(lat: Double, lon: Double)] = []
        let ids = stops.texts(.stopId), lats = stops.reals(.stopLat), lons = stops.reals(.stopLon)
        let parents = stops.texts(.parentStation)
        for row in 0..<stops.count where !lats[row].isNaN && !lons[row].isNaN {
            if let id = ids[row] {
                stopNumber[id] = positions.count
                positions.append((lats[row], lons[row]))
            }
        }
        for row in 0..<stops.count where lats[row].isNaN || lons[row].isNaN {
            if let id = ids[row], let parent = parents[row], let number = stopNumber[parent] { stopNumber[id] = number }
        }
        var legs = Legs(positions: positions)
        var routeType: [String: Int] = [:]
        for case let (id?, type) in zip(feed.routes.texts(.routeId), feed.routes.integers(.routeType)) { routeType[id] = type }
        var tripLimit: [String: Double] = [:]
        tripLimit.reserveCapacity(feed.trips.count)
        for case let (trip?, route?) in zip(feed.trips.texts(.tripId), feed.trips.texts(.routeId)) {
            if let type = routeType[route] { tripLimit[trip] = Self.limit(type) }
        }
        let arrivals = stopTimes.integers(.arrivalTime), departures = stopTimes.integers(.departureTime)
        let stopOfRow = stopTimes.texts(.stopId)
        // Each stop time's position number, through its stop's number (``TextCodes``): each
        // distinct stop id looked up once, not once per stop time.
        let stopCodes = stopTimes.codes(.stopId)
        let numberOfCode = stopCodes.values.map { stopNumber[$0] }
        let codes = stopCodes.codes
        let groups = stopTimes.groups(by: .tripId, orderedBy: .stopSequence)
        let null = Column.nullInteger
        for (g, rows) in groups.rows.enumerated() {
            let trip = groups.keys[g]
            guard let limit = tripLimit[trip], rows.count > 1 else { continue }
            let points = rows.map { codes[$0] == TextCodes.missing ? nil : numberOfCode[Int(codes[$0])] }
            func kph(_ km: Double, from start: Int, to end: Int) -> Double {
                let departure = departures[start], arrival = arrivals[end]
                var seconds = arrival - departure
                if seconds <= 0 {
                    seconds = 60
                } else if arrival % 60 == 0 && departure % 60 == 0 {
                    seconds += 60
                }
                return km / Double(seconds) * 3600
            }
            func report(_ kind: NoticeKind, _ start: Int, _ end: Int, _ speed: Double, _ km: Double) {
                sink.add(kind) {
                    Notice(
                        kind, file: "stop_times.txt", line: Int(stopTimes.lines[end]), field: "arrival_time",
                        value: TimeText.format(arrivals[end]),
                        message:
                            "Trip \(trip): \(Int(speed.rounded())) km/h over \((km * 10).rounded() / 10) km from \(stopOfRow[start] ?? "") to \(stopOfRow[end] ?? ""), above \(Int(limit)) km/h."
                    )
                }
            }
            // Straight-line legs between consecutive stops with a position.
            var tripLegs = Array(repeating: 0.0, count: rows.count - 1)
            var current = points[0]
            for i in 0..<tripLegs.count {
                if let next = points[i + 1] {
                    if let here = current { tripLegs[i] = legs.km(here, next) }
                    current = next
                }
            }
            // Consecutive stops: a stop without position or times is passed over.
            var start = 0
            for i in 1..<rows.count {
                guard let a = points[start], let b = points[i] else { continue }
                guard departures[rows[start]] != null, arrivals[rows[i]] != null else { continue }
                let km = start == i - 1 ? tripLegs[start] : legs.km(a, b)
                let speed = kph(km, from: rows[start], to: rows[i])
                if speed > limit { report(.fastTravelBetweenConsecutiveStops, rows[start], rows[i], speed, km) }
                start = i
            }
            // Far stops: distances summed along the trip; only spans over 10 km can be reported.
            far: for end in 0..<rows.count where arrivals[rows[end]] != null {
                guard points[end] != nil else { break far }
                var km = 0.0
                for begin in stride(from: end - 1, through: 0, by: -1) {
                    km += tripLegs[begin]
                    guard km > Self.farDistance, departures[rows[begin]] != null else { continue }
                    let speed = kph(km, from: rows[begin], to: rows[end])
                    if speed > limit {
                        report(.fastTravelBetweenFarStops, rows[begin], rows[end], speed, km)
                        break far
                    }
                }
            }
        }
    }
}

/// Kilometres between two stops (by their numbers into `positions`), each pair computed once: on
/// Bydgoszcz the rule's 583k legs have few distinct pairs, and the trigonometry was about a third
/// of its time. The same values as computing each leg afresh.
private struct Legs {
    let positions: [(lat: Double, lon: Double)]
    private var known: [Int: Double] = [:]

    init(positions: [(lat: Double, lon: Double)]) {
        self.positions = positions
    }

    mutating func km(_ a: Int, _ b: Int) -> Double {
        let key = a &* positions.count &+ b
        if let km = known[key] { return km }
        let p = positions[a], q = positions[b]
        let km = GreatCircle.metres(p.lat, p.lon, q.lat, q.lon) / 1000
        known[key] = km
        return km
    }
}
