import BundleFormat
import Foundation

/// A planning request in words and its answer as `feedc plan --json` prints it: places as stop
/// ids or `LAT,LON`, the departure as local `YYYY-MM-DDTHH:MM`, times answered as ISO 8601 with
/// the agency's UTC offset (docs/client.md, "Plan a journey").
public struct JourneyPlanning: Sendable {
    /// The planner the queries run on.
    public let planner: JourneyPlanner

    /// Planning in words over a planner opened on a bundle.
    public init(planner: JourneyPlanner) {
        self.planner = planner
    }

    /// A request as `feedc plan --json` reads it.
    public struct Query: Codable, Sendable {
        /// The origin: a stop id or `LAT,LON`.
        public var from: String
        /// The destination: a stop id or `LAT,LON`.
        public var to: String
        /// The departure, local time `YYYY-MM-DDTHH:MM`; nil with `arrive`.
        public var depart: String?
        /// Arrive by this local time instead (the latest departure that does).
        public var arrive: String?
        /// Minutes of departures from `depart`: every journey leaving within them.
        public var window: Int?
        /// Live changes by trip id (a GTFS-Realtime TripUpdate's): `{"seconds": 600,
        /// "from_stop_id": "S2"}` late from a stop on, or `{"cancelled": true}`.
        public var delays: [String: Delay]?
        /// The rider's choices (``PlanOptions``): seconds, metres, step-free.
        public var minChange: Int?
        public var maxWalk: Double?
        public var wheelchair: Bool?
        public var unknownAccessible: Bool?

        enum CodingKeys: String, CodingKey {
            case from, to, depart, arrive, window, delays, wheelchair
            case minChange = "min_change", maxWalk = "max_walk", unknownAccessible = "unknown_accessible"
        }

        /// A request; `delays` nil for the timetable as published.
        public init(
            from: String, to: String, depart: String? = nil, arrive: String? = nil, window: Int? = nil, delays: [String: Delay]? = nil,
            options: PlanOptions = PlanOptions()
        ) {
            self.from = from
            self.to = to
            self.depart = depart
            self.arrive = arrive
            self.window = window
            self.delays = delays
            if options.minChangeSeconds != 0 { minChange = options.minChangeSeconds }
            maxWalk = options.maxWalkMetres
            if options.wheelchair { wheelchair = true }
            if options.unknownAccessible { unknownAccessible = true }
        }

        /// The rider's choices asked.
        public var options: PlanOptions {
            PlanOptions(
                minChangeSeconds: minChange ?? 0, maxWalkMetres: maxWalk, wheelchair: wheelchair ?? false,
                unknownAccessible: unknownAccessible ?? false)
        }
    }

    /// A live change to one trip, in JSON: the fields of ``TripDelay``, each optional.
    public struct Delay: Codable, Sendable {
        /// Seconds late; nil for 0.
        public var seconds: Int?
        /// The stop from which the delay applies; nil for the whole trip.
        public var fromStopId: String?
        /// True when the trip does not run; nil for false.
        public var cancelled: Bool?

        enum CodingKeys: String, CodingKey {
            case seconds, cancelled
            case fromStopId = "from_stop_id"
        }

        var tripDelay: TripDelay { TripDelay(seconds: seconds ?? 0, fromStopId: fromStopId, cancelled: cancelled ?? false) }
    }

    /// One walk or ride of an answered journey.
    public struct Leg: Codable, Sendable, Equatable {
        /// `walk` or `ride`.
        public var mode: String
        /// Where the leg starts (`stop_id`); nil for a walk from a position.
        public var fromStopId: String?
        /// Where the leg ends (`stop_id`); nil for a walk to a position.
        public var toStopId: String?
        /// ISO 8601 with the agency's UTC offset.
        public var departure: String
        /// ISO 8601 with the agency's UTC offset.
        public var arrival: String
        /// The trip ridden (a ride only).
        public var tripId: String?
        /// The trip's line (a ride only).
        public var routeId: String?

        enum CodingKeys: String, CodingKey {
            case mode, departure, arrival
            case fromStopId = "from_stop_id", toStopId = "to_stop_id", tripId = "trip_id", routeId = "route_id"
        }

        /// Every key the README lists, `null` where a leg has no value (a walk's trip, a
        /// position's stop), so a script reads each leg the same way.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(mode, forKey: .mode)
            try container.encode(fromStopId, forKey: .fromStopId)
            try container.encode(toStopId, forKey: .toStopId)
            try container.encode(departure, forKey: .departure)
            try container.encode(arrival, forKey: .arrival)
            try container.encode(tripId, forKey: .tripId)
            try container.encode(routeId, forKey: .routeId)
        }
    }

    /// One answered journey.
    public struct Trip: Codable, Sendable, Equatable {
        /// When the rider sets off, ISO 8601 with the agency's UTC offset.
        public var departure: String
        /// When the rider arrives, ISO 8601 with the agency's UTC offset.
        public var arrival: String
        /// Rides less one.
        public var transfers: Int
        /// Walks and rides, in order.
        public var legs: [Leg]
    }

    /// What `feedc plan --json` prints.
    public struct Answer: Codable, Sendable {
        /// The journeys found (each with fewer transfers or an earlier arrival than the others), earliest arrival first; empty with a `reason` or `problem`.
        public var journeys: [Trip]
        /// Why there is no journey, in words (nil when there are journeys).
        public var reason: String?
        /// A query that cannot be answered (an unknown stop, a malformed time): exit status 2.
        public var problem: String?

        /// An answer; `reason` and `problem` nil when there are journeys.
        public init(journeys: [Trip], reason: String? = nil, problem: String? = nil) {
            self.journeys = journeys
            self.reason = reason
            self.problem = problem
        }
    }

    /// Plans the query; a query that cannot be read is answered with a `problem`, not thrown.
    /// `live`: runs as GTFS-Realtime messages predict them, for each service date asked
    /// (``FeedDatabase/liveRuns(feeds:moment:)``; docs/live.md).
    public func answer(_ query: Query, live: (_ date: Int, _ seconds: Int) throws(ClientError) -> [LiveRun] = { _, _ in [] }) throws(ClientError)
        -> Answer
    {
        guard (query.depart == nil) != (query.arrive == nil) else {
            return Answer(journeys: [], problem: "give one of `depart` and `arrive`")
        }
        if query.window != nil && query.arrive != nil { return Answer(journeys: [], problem: "`window` goes with `depart`, not `arrive`") }
        if let window = query.window, !(1...JourneyPlanner.maxWindowMinutes).contains(window) {
            return Answer(journeys: [], problem: "`window` must be 1–\(JourneyPlanner.maxWindowMinutes) minutes")
        }
        let options = query.options
        if let problem = options.problem { return Answer(journeys: [], problem: problem) }
        let when = query.depart ?? query.arrive ?? ""
        guard let (date, seconds) = Self.parse(when) else {
            return Answer(journeys: [], problem: "`\(when)` is not a local time YYYY-MM-DDTHH:MM")
        }
        if let (trip, delay) = (query.delays ?? [:]).sorted(by: { $0.key < $1.key }).first(where: {
            ($0.value.seconds ?? 0).magnitude > UInt(TripDelay.maxSeconds)
        }) {
            return Answer(journeys: [], problem: "the delay of trip `\(trip)`, \(delay.seconds ?? 0) s, is beyond ±\(TripDelay.maxSeconds) s (a day)")
        }
        let origins = try planner.accesses(for: query.from, maxWalk: options.maxWalkMetres)
        let destinations = try planner.accesses(for: query.to, maxWalk: options.maxWalkMetres)
        let radius = Int(JourneyPlanner.accessRadius(maxWalk: options.maxWalkMetres).rounded(.down))
        if origins.isEmpty {
            let position = query.from.contains(",")
            return Answer(
                journeys: [], reason: position ? "no stop within \(radius) m of \(query.from)" : nil,
                problem: position ? nil : "no stop `\(query.from)` in the bundle")
        }
        if destinations.isEmpty {
            let position = query.to.contains(",")
            return Answer(
                journeys: [], reason: position ? "no stop within \(radius) m of \(query.to)" : nil,
                problem: position ? nil : "no stop `\(query.to)` in the bundle")
        }
        let zone = planner.timeZone(of: origins[0].stopId)
        let journeys: [Journey]
        do {
            let delays = (query.delays ?? [:]).mapValues(\.tripDelay), runs = try live(date, seconds)
            if query.arrive != nil {
                journeys = try planner.plan(from: origins, to: destinations, date: date, arrivingBy: seconds, options: options, delays: delays, live: runs)
            } else if let window = query.window {
                journeys = try planner.plan(
                    from: origins, to: destinations, date: date, departure: seconds, window: window, options: options, delays: delays, live: runs)
            } else {
                journeys = try planner.plan(from: origins, to: destinations, date: date, departure: seconds, options: options, delays: delays, live: runs)
            }
        } catch .searchLimit(let steps) {
            return Answer(journeys: [], reason: ClientError.searchLimit(steps: steps).description)
        }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        formatter.formatOptions = [.withInternetDateTime]
        func time(_ value: Int) -> String { formatter.string(from: ServiceTime.instant(serviceDate: date, seconds: value, timeZone: zone)) }
        let trips = journeys.map { journey in
            var legs = journey.legs.map { leg in
                Leg(
                    mode: leg.mode.rawValue, fromStopId: leg.fromStopId, toStopId: leg.toStopId, departure: time(leg.departure),
                    arrival: time(leg.arrival), tripId: leg.tripId, routeId: leg.routeId)
            }
            if journey.legs.isEmpty {
                // On foot all the way: one walk, from the stop it starts at when the origin is that
                // stop, to it when the destination is (else from or to the position).
                let stop = journey.accessStopId
                legs.append(
                    Leg(
                        mode: "walk", fromStopId: journey.accessSeconds == 0 ? stop : nil, toStopId: journey.egressSeconds == 0 ? stop : nil,
                        departure: time(journey.departure), arrival: time(journey.arrival), tripId: nil, routeId: nil))
            }
            let first = journey.legs.first, last = journey.legs.last
            if journey.accessSeconds > 0, let first {
                legs.insert(
                    Leg(
                        mode: "walk", fromStopId: nil, toStopId: first.fromStopId, departure: time(journey.departure),
                        arrival: time(first.departure), tripId: nil, routeId: nil), at: 0)
            }
            if journey.egressSeconds > 0, let last {
                legs.append(
                    Leg(
                        mode: "walk", fromStopId: last.toStopId, toStopId: nil, departure: time(last.arrival),
                        arrival: time(journey.arrival), tripId: nil, routeId: nil))
            }
            return Trip(departure: time(journey.departure), arrival: time(journey.arrival), transfers: journey.transfers, legs: legs)
        }
        let asked = query.arrive.map { "arriving by \($0)" } ?? "leaving \(when)"
        return Answer(journeys: trips, reason: trips.isEmpty ? "no journey from \(query.from) to \(query.to) \(asked) within the timetable" : nil)
    }

    /// Lines for people: one journey per paragraph.
    public func text(_ answer: Answer) -> String {
        guard !answer.journeys.isEmpty else { return answer.reason ?? "no journey" }
        return answer.journeys.map { trip in
            "\(trip.departure) → \(trip.arrival), \(trip.transfers) transfer\(trip.transfers == 1 ? "" : "s")\n"
                + trip.legs.map { leg in
                    let what = leg.mode == "ride" ? "ride \(leg.routeId ?? "") (trip \(leg.tripId ?? ""))" : "walk"
                    return "  \(leg.departure) \(what) from \(leg.fromStopId ?? "start") to \(leg.toStopId ?? "destination"), arriving \(leg.arrival)"
                }.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    /// `YYYY-MM-DDTHH:MM` → (service date YYYYMMDD, seconds after its start).
    static func parse(_ text: String) -> (Int, Int)? {
        guard let match = text.wholeMatch(of: /(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/),
            let year = Int(match.1), let month = Int(match.2), let day = Int(match.3), let hour = Int(match.4), let minute = Int(match.5),
            (1...12).contains(month), (1...31).contains(day), hour < 48, minute < 60
        else { return nil }
        let second = match.6.flatMap { Int($0) } ?? 0
        guard second < 60, Self.isDay(year: year, month: month, day: day) else { return nil }
        return (year * 10000 + month * 100 + day, hour * 3600 + minute * 60 + second)
    }

    /// Whether the date exists (not 2018-02-31).
    static func isDay(year: Int, month: Int, day: Int) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard year >= 1, let date = calendar.date(from: DateComponents(year: year, month: month, day: day)) else { return false }
        let back = calendar.dateComponents([.year, .month, .day], from: date)
        return back.year == year && back.month == month && back.day == day
    }
}
