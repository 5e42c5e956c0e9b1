import FeedSQLite
import Foundation

/// Plans journeys on a bundle, offline: round-based public transit routing (RAPTOR: Delling,
/// Pajor and Werneck, "Round-Based Public Transit Routing", 2012), as docs/client.md ("Plan a
/// journey") describes it. For a departure time it gives the Pareto set over arrival time and
/// number of transfers: the earliest arrival with no transfer, then each later round's journey
/// that arrives earlier still, earliest arrival first in the result.
///
/// Round k rides at most k trips: each route (trips of one stop pattern and one timing, so none
/// overtakes another) is scanned once from the first stop reached in the round before, boarding
/// the earliest run that can be caught (`pickup_type` 1 stops are not boarded, `drop_off_type` 1
/// stops not alighted at); then one footpath (the bundle's `stop_transfers`) from every stop a
/// ride reached. Arrivals no better than the best at the destination are pruned. The network of a
/// service date is built at its first query and kept, the last four dates planned on, until
/// the file changes (``follow()``: a delta committed, a new file renamed over it)
/// (``TransitNetwork``; ``networksKept``).
///
/// `@unchecked Sendable`: the kept networks and the database connection are only used under
/// `lock` (the connection is opened without SQLite's own mutex); `maxRides` is meant to be set
/// before the planner is shared.
public final class JourneyPlanner: @unchecked Sendable {
    private var database: Database
    /// The file opened, followed (``follow()``); nil for a planner given an open database.
    private let path: URL?
    private var identity: FileIdentity?
    /// `PRAGMA data_version` when the kept networks were built: another connection's commit (a
    /// delta) changes it.
    private var dataVersion: Int?
    private let lock = NSLock()
    private var networks: [Int: TransitNetwork] = [:]
    /// The dates of `networks`, the most recently planned last.
    private var recent: [Int] = []
    /// The days' networks kept: an app that plans on many dates holds this many at most.
    static let networksKept = 4
    /// The most trips a journey rides.
    public var maxRides = 8
    /// The most work a search does (route positions scanned plus footpaths tried): past it, at
    /// the end of a round, ``plan(from:to:date:departure:delays:live:)`` throws
    /// ``ClientError/searchLimit(steps:)``.
    public var maxSteps = 20_000_000

    /// A planner over the bundle at `path` (a `.sqlite` file), read only. It follows the file:
    /// after a delta (a commit of another connection) or a new file renamed over it, the next
    /// query plans on the new content (the networks built on the old are dropped).
    public init(bundle path: URL) throws(ClientError) {
        self.path = path
        identity = FileIdentity(path.path)
        database = try Self.open(path)
    }

    /// A planner over an open bundle, which it then owns; it sees commits made through other
    /// connections, not a file renamed over the one opened.
    public init(database: Database) {
        self.database = database
        path = nil
    }

    private static func open(_ path: URL) throws(ClientError) -> Database {
        do {
            return try Database(path: path.path, mode: .readOnly)
        } catch {
            throw .notABundle(path: path.path, reason: "\(error)")
        }
    }

    /// Under `lock`: reopens a file renamed over the one opened, and drops the kept networks when
    /// the content changed (a new file, or `PRAGMA data_version` moved: another connection
    /// committed a delta).
    private func follow() throws(ClientError) {
        if let path, FileIdentity(path.path) != identity {
            database = try Self.open(path)
            identity = FileIdentity(path.path)
            dataVersion = nil
        }
        let version: Int?
        do {
            version = try database.scalar("PRAGMA data_version")?.int
        } catch {
            throw .notABundle(path: database.path, reason: "\(error)")
        }
        guard version != dataVersion else { return }
        dataVersion = version
        networks = [:]
        recent = []
    }

    /// The stops of the place a stop id names: the stop, its station, every stop or station
    /// `same_places` links to either, and the stops of those stations. A journey to a platform
    /// ends at whichever of its place's stops it reaches first; one from it may leave from any.
    static let placeStops = """
        WITH RECURSIVE
          asked(id) AS (SELECT ?),
          roots(id) AS (
            SELECT id FROM asked
            UNION SELECT s.parent_station FROM stops s, asked WHERE s.stop_id = asked.id AND s.parent_station IS NOT NULL),
          place(id) AS (
            SELECT id FROM roots
            UNION SELECT sp.other_stop_id FROM same_places sp JOIN roots r ON sp.stop_id = r.id)
        SELECT DISTINCT s.stop_id FROM stops s JOIN place p ON s.stop_id = p.id OR s.parent_station = p.id ORDER BY s.stop_id
        """

    /// How far a rider walks to or from a stop when the journey starts or ends at a position.
    public static let accessRadius = 800.0

    /// How far a rider walks to or from a stop from a position with `maxWalk` (metres) as the
    /// rider's limit: the smaller of the two, ``accessRadius`` without a limit.
    public static func accessRadius(maxWalk: Double?) -> Double { min(accessRadius, maxWalk ?? accessRadius) }

    /// Where a journey can start or end for `place`: a stop id (its place's stops, ``placeStops``), or
    /// `LAT,LON` (the stops within ``accessRadius``, with the walk: the straight line times 1.3
    /// at 1.2 m/s, as the bundle's walks are timed by default). Empty when nothing matches.
    /// `maxWalk`: from or to a position, only stops within it (metres) as well.
    public func accesses(for place: String, maxWalk: Double? = nil) throws(ClientError) -> [StopAccess] {
        let radius = Self.accessRadius(maxWalk: maxWalk)
        let parts = place.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        lock.lock()
        defer { lock.unlock() }
        try follow()
        do {
            if parts.count == 2, let lat = parts[0], let lon = parts[1], (-90...90).contains(lat), (-180...180).contains(lon) {
                let dlat = radius / 111_195, dlon = dlat / max(0.01, cos(lat * .pi / 180))
                let rows = try database.rows(
                    """
                    SELECT s.stop_id, s.lat, s.lon FROM stops s
                    WHERE s.lat BETWEEN ? AND ? AND s.lon BETWEEN ? AND ?
                      AND EXISTS (SELECT 1 FROM pattern_stops ps WHERE ps.stop_id = s.stop_id)
                    ORDER BY s.stop_id
                    """, [.real(lat - dlat), .real(lat + dlat), .real(lon - dlon), .real(lon + dlon)])
                return rows.compactMap { row in
                    guard let id = row[0].string, let a = row[1].double, let b = row[2].double else { return nil }
                    let x = (b - lon) * cos((a + lat) * .pi / 360), y = a - lat
                    let metres = (x * x + y * y).squareRoot() * 111_195
                    guard metres <= radius else { return nil }
                    return StopAccess(stopId: id, walkSeconds: Int((metres * 1.3 / 1.2).rounded(.up)))
                }
            }
            let rows = try database.rows(Self.placeStops, [.text(place)])
            return rows.compactMap { $0[0].string.map { StopAccess(stopId: $0) } }
        } catch {
            throw .notABundle(path: database.path, reason: "\(error)")
        }
    }

    /// The agency time zone of a stop's journeys (as the documented `stop_timezone` query).
    public func timeZone(of stopId: String) -> TimeZone {
        lock.lock()
        defer { lock.unlock() }
        var name: String?
        if let statement = try? database.prepare(DocumentedQueries.sql("stop_timezone")),
            (try? statement.bind(named: ["stop_id": .text(stopId)])) != nil, (try? statement.step()) == true
        {
            name = statement.row().first?.string
        }
        return name.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
    }

    private enum Label {
        case none
        case origin(walk: Int)
        /// Same as the round before.
        case kept
        case ride(route: Int, board: Int, alight: Int, run: Int)
        case walk(from: Int, seconds: Int)
    }

    /// The journeys from `origins` to `destinations` leaving at `departure` (seconds from the
    /// start of service date `date`, YYYYMMDD). Unknown stops are left out; none known: no journey.
    ///
    /// A walk follows a ride (or the start), never another walk. So each round keeps two labels a
    /// stop: the earliest arrival by any means (what boarding needs) and the earliest by a ride
    /// (what a walk may start from); a ride is pruned only by an earlier ride, since an earlier
    /// arrival on foot cannot walk on.
    ///
    /// `live`: runs as GTFS-Realtime messages predict them (``FeedDatabase/liveRuns(feeds:moment:)``):
    /// each taken out of its route and run at its live times, never boarded or alighted at a
    /// skipped call; a canceled one taken out. `delays` apply to the trips `live` leaves alone.
    public func plan(
        from origins: [StopAccess], to destinations: [StopAccess], date: Int, departure: Int,
        options: PlanOptions = PlanOptions(), delays: [String: TripDelay] = [:], live: [LiveRun] = []
    ) throws(ClientError) -> [Journey] {
        if let problem = options.problem { throw .badQuery(reason: problem) }
        if let (trip, delay) = delays.sorted(by: { $0.key < $1.key }).first(where: { $0.value.seconds.magnitude > UInt(TripDelay.maxSeconds) }) {
            throw .badQuery(reason: "the delay of trip `\(trip)`, \(delay.seconds) s, is beyond ±\(TripDelay.maxSeconds) s (a day)")
        }
        let network = try self.network(date)
        let live = LiveTimetable(network, delays: delays, live: live, date: date)
        let starts = origins.compactMap { access in network.stopIndex[access.stopId].map { ($0, access.walkSeconds) } }
        let ends = destinations.compactMap { access in network.stopIndex[access.stopId].map { ($0, access.walkSeconds) } }
        guard !starts.isEmpty, !ends.isEmpty else { return [] }
        let count = network.stopIds.count
        let never = Int.max
        var search = Search(count: count, options: options)
        // Step-free: the stops that may be boarded or alighted at, the trips that may be ridden.
        let stopAllowed = options.wheelchair ? network.stopWheelchair.map { options.allows($0) } : nil
        func runAllowed(_ r: TransitNetwork.Route, _ run: Int) -> Bool {
            !options.wheelchair || options.allows(network.tripWheelchair[r.runs.trip(run)])
        }
        for (stop, walk) in ends { search.egress[stop] = min(search.egress[stop] ?? never, walk) }
        for (stop, walk) in starts.sorted(by: { ($0.1, $0.0) < ($1.1, $1.0) }) where search.rideReach(stop, departure + walk) {
            search.arrival[0][stop] = min(search.arrival[0][stop], departure + walk)
            search.label[0][stop] = .origin(walk: walk)
            search.rideArrival[0][stop] = departure + walk
            search.rideLabel[0][stop] = .origin(walk: walk)
            search.ready[0][stop] = departure + walk
            search.readyLabel[0][stop] = .origin(walk: walk)
        }
        var sources = (0..<count).filter { search.rideArrival[0][$0] != never }
        var marked = StopMarks(count: count)
        for stop in sources { marked.insert(stop) }
        search.walk(from: sources, round: 0, network, into: &marked)
        var round = 0
        if search.steps > maxSteps { throw .searchLimit(steps: maxSteps) }
        // Per route, the first position marked in the round (Int.max: none), and the routes so.
        var firstAt = [Int](repeating: Int.max, count: network.routes.count + live.extra.count)
        var queued: [Int] = []
        while !marked.isEmpty && round < maxRides {
            round += 1
            search.newRound()
            // Each route once, from its first marked stop.
            queued.removeAll(keepingCapacity: true)
            for stop in marked.stops {
                for (route, position) in network.routesAt[stop] {
                    if firstAt[route] == Int.max { queued.append(route) }
                    if position < firstAt[route] { firstAt[route] = position }
                }
                for (route, position) in live.routesAt[stop] ?? [] {
                    if firstAt[route] == Int.max { queued.append(route) }
                    if position < firstAt[route] { firstAt[route] = position }
                }
            }
            marked.clear()
            sources = []
            queued.sort()
            for route in queued {
                let first = firstAt[route]
                firstAt[route] = Int.max
                let r = live.route(route)
                var run: Int?
                var boarded = 0
                search.steps += r.stops.count - first
                var excluded = live.skippedTrips[route] ?? []
                if options.wheelchair { excluded.formUnion(r.runs.windowTrips.filter { !options.allows(network.tripWheelchair[$0]) }) }
                for position in first..<r.stops.count {
                    let stop = r.stops[position]
                    let stepFree = stopAllowed?[stop] ?? true
                    if let current = run, r.canAlight[position], stepFree {
                        let time = r.runs.start(current) + r.arrivals[position]
                        if time < search.rideArrival[round][stop], search.rideReach(stop, time) {
                            let ride = Label.ride(route: route, board: boarded, alight: position, run: current)
                            search.rideArrival[round][stop] = time
                            search.rideLabel[round][stop] = ride
                            sources.append(stop)
                            if time < search.arrival[round][stop] {
                                search.arrival[round][stop] = time
                                search.label[round][stop] = ride
                            }
                            let change = network.change[stop]
                            if change != TransitNetwork.forbidden, search.boardAt(round, stop, time + max(change, options.minChangeSeconds), ride) {
                                marked.insert(stop)
                            }
                        }
                    }
                    let ready = search.ready[round - 1][stop]
                    guard r.canBoard[position], stepFree, ready != never else { continue }
                    // The earliest run leaving here at `ready` (the change made) or later.
                    // A run late or cancelled runs as its own route, or not at all.
                    let value = ready - r.departures[position]
                    var earliest = r.runs.first(atLeast: value, excluding: excluded)
                    while let found = earliest, (!live.skipped.isEmpty && live.skipped.contains(Int64(route) << 32 | Int64(found))) || !runAllowed(r, found) {
                        search.steps += 1
                        earliest = r.runs.first(atLeast: value, after: r.runs.key(found), excluding: excluded)
                    }
                    if let earliest, run.map({ r.runs.precedes(earliest, $0) }) ?? true {
                        run = earliest
                        boarded = position
                    }
                }
            }
            sources.sort()
            var unique = sources
            unique.removeAll(keepingCapacity: true)
            for stop in sources where unique.last != stop { unique.append(stop) }
            search.walk(from: unique, round: round, network, into: &marked)
            if search.steps > maxSteps { throw .searchLimit(steps: maxSteps) }
        }
        // The Pareto set: each round's best at the destination, when better than fewer rides'.
        var journeys: [Journey] = []
        var bestSoFar = never
        for k in 0..<search.arrival.count {
            var end: (stop: Int, time: Int)?
            for (stop, walk) in ends.sorted(by: { $0.0 < $1.0 }) where search.arrival[k][stop] != never {
                let time = search.arrival[k][stop] + walk
                if time < (end?.time ?? never) { end = (stop, time) }
            }
            guard let end, end.time < bestSoFar else { continue }
            bestSoFar = end.time
            journeys.append(journey(network, live, search, round: k, stop: end.stop, departure: departure, egress: search.egress[end.stop] ?? 0))
        }
        return journeys.sorted { ($0.arrival, $0.transfers) < ($1.arrival, $1.transfers) }
    }

    /// The labels of one search, round by round: per stop the earliest arrival by any means (what
    /// the destination takes), by a ride (what a walk may start from), and the earliest time a
    /// vehicle can be boarded there (`ready`: a walk's or the start's arrival, or a ride's plus
    /// the stop's change time).
    private struct Search {
        var arrival: [[Int]]
        var label: [[Label]]
        var rideArrival: [[Int]]
        var rideLabel: [[Label]]
        var ready: [[Int]]
        var readyLabel: [[Label]]
        /// The earliest arrival at each stop by any means, and by a ride, over all rounds.
        var best: [Int]
        var bestRide: [Int]
        var egress: [Int: Int] = [:]
        /// The earliest arrival at the destination so far.
        var target = Int.max
        /// The work done: route positions scanned, footpaths tried.
        var steps = 0

        /// The rider's minimum change, and longest walk (metres).
        let minChange: Int
        let maxWalk: Double?

        init(count: Int, options: PlanOptions) {
            minChange = options.minChangeSeconds
            maxWalk = options.maxWalkMetres
            arrival = [Array(repeating: Int.max, count: count)]
            label = [Array(repeating: .none, count: count)]
            rideArrival = [Array(repeating: Int.max, count: count)]
            rideLabel = [Array(repeating: .none, count: count)]
            ready = [Array(repeating: Int.max, count: count)]
            readyLabel = [Array(repeating: .none, count: count)]
            best = Array(repeating: Int.max, count: count)
            bestRide = best
        }

        mutating func newRound() {
            arrival.append(arrival[arrival.count - 1])
            label.append(Array(repeating: .kept, count: label[0].count))
            rideArrival.append(Array(repeating: Int.max, count: label[0].count))
            rideLabel.append(Array(repeating: .none, count: label[0].count))
            ready.append(ready[ready.count - 1])
            readyLabel.append(Array(repeating: .kept, count: label[0].count))
        }

        /// Whether a vehicle can be boarded at `stop` from `time` on sooner than before in
        /// `round` (then recorded with `label`).
        mutating func boardAt(_ round: Int, _ stop: Int, _ time: Int, _ label: Label) -> Bool {
            guard time < ready[round][stop], time < target else { return false }
            ready[round][stop] = time
            readyLabel[round][stop] = label
            return true
        }

        private mutating func reached(_ stop: Int, _ time: Int) {
            if time < best[stop] { best[stop] = time }
            if let walk = egress[stop] { target = min(target, time + walk) }
        }

        /// Whether a ride (or the start) reaching `stop` at `time` may lead anywhere better.
        mutating func rideReach(_ stop: Int, _ time: Int) -> Bool {
            guard time < bestRide[stop], time < target else { return false }
            bestRide[stop] = time
            reached(stop, time)
            return true
        }

        /// One footpath from each of `sources` (reached by a ride, or the start, in `round`):
        /// the stops where a vehicle can be boarded sooner.
        mutating func walk(from sources: [Int], round: Int, _ network: TransitNetwork, into improved: inout StopMarks) {
            for stop in sources {
                steps += network.footpaths[stop].count
                for path in network.footpaths[stop] {
                    if let maxWalk, let distance = path.distance, distance > maxWalk { continue }
                    // After a ride a walk is a change: at least the rider's minimum.
                    let seconds = round > 0 ? max(path.seconds, minChange) : path.seconds
                    let time = rideArrival[round][stop] + seconds
                    guard time < target else { continue }
                    let walk = Label.walk(from: stop, seconds: seconds)
                    if time < arrival[round][path.to], time < best[path.to] {
                        arrival[round][path.to] = time
                        label[round][path.to] = walk
                        reached(path.to, time)
                    }
                    if boardAt(round, path.to, time, walk) { improved.insert(path.to) }
                }
            }
        }
    }

    /// The stops marked in a round: each once, in the order marked.
    private struct StopMarks {
        private var marked: [Bool]
        private(set) var stops: [Int] = []

        init(count: Int) { marked = Array(repeating: false, count: count) }

        var isEmpty: Bool { stops.isEmpty }

        mutating func insert(_ stop: Int) {
            guard !marked[stop] else { return }
            marked[stop] = true
            stops.append(stop)
        }

        mutating func clear() {
            for stop in stops { marked[stop] = false }
            stops.removeAll(keepingCapacity: true)
        }
    }

    /// The legs that lead to `stop` in `round`, walked back through the labels.
    private func journey(
        _ network: TransitNetwork, _ live: LiveTimetable, _ search: Search, round: Int, stop: Int,
        departure: Int, egress: Int
    ) -> Journey {
        var legs: [Journey.Leg] = []
        var (k, here) = (round, stop)
        // The chain of labels followed: the arrival's at the destination, then, before each
        // ride, the boarding time's at the stop it was boarded at.
        var labels = search.label
        var current = labels[k][here]
        var access = 0
        loop: while true {
            switch current {
            case .kept:
                k -= 1
                current = labels[k][here]
            case .ride(let route, let board, let alight, let run):
                let r = live.route(route)
                legs.append(
                    Journey.Leg(
                        mode: .ride, fromStopId: network.stopIds[r.stops[board]], toStopId: network.stopIds[here],
                        departure: r.runs.start(run) + r.departures[board], arrival: r.runs.start(run) + r.arrivals[alight],
                        tripId: r.runs.trip(run), routeId: r.routeId))
                here = r.stops[board]
                k -= 1
                labels = search.readyLabel
                current = labels[k][here]
            case .walk(let from, let seconds):
                legs.append(
                    Journey.Leg(
                        mode: .walk, fromStopId: network.stopIds[from], toStopId: network.stopIds[here],
                        departure: search.rideArrival[k][from], arrival: search.rideArrival[k][from] + seconds,
                        tripId: nil, routeId: nil))
                here = from
                current = search.rideLabel[k][here]
            case .origin(let walk):
                access = walk
                break loop
            case .none:
                break loop
            }
        }
        legs.reverse()
        // A walk before the first ride is made as late as the ride allows: it ends as the ride
        // leaves (and the rider leaves then less the walk).
        if legs.count > 1, legs[0].mode == .walk, legs[1].mode == .ride {
            let seconds = legs[0].arrival - legs[0].departure
            legs[0].arrival = legs[1].departure
            legs[0].departure = legs[1].departure - seconds
        }
        let rides = legs.filter { $0.mode == .ride }.count
        // The rider leaves as late as the first leg allows, walking to the first stop.
        let start = (legs.first?.departure ?? departure + access) - access
        return Journey(
            departure: start, arrival: search.arrival[round][stop] + egress, transfers: max(0, rides - 1), legs: legs,
            accessSeconds: access, egressSeconds: egress, accessStopId: network.stopIds[here])
    }

    /// The day's timetable with live delays: each late run taken out of its route and run as a
    /// route of its own at its new times (a late run may be overtaken, which a route's runs never
    /// are), each cancelled run taken out.
    private struct LiveTimetable {
        let network: TransitNetwork
        var extra: [TransitNetwork.Route] = []
        var routesAt: [Int: [(route: Int, position: Int)]] = [:]
        /// Runs not to board, as route << 32 | run.
        var skipped: Set<Int64> = []
        /// Per route, the frequency-based trips whose windows are not to be boarded (delayed).
        var skippedTrips: [Int: Set<String>] = [:]

        init(_ network: TransitNetwork, delays: [String: TripDelay], live: [LiveRun], date: Int) {
            self.network = network
            let yesterday = TransitNetwork.dayBefore(date)
            var changed: Set<String> = []
            for run in live {
                let shift: Int? = run.serviceDate == date ? 0 : run.serviceDate == yesterday ? -86_400 : nil
                guard let shift else { continue }
                let calls = Dictionary(run.calls.map { ($0.stopIndex, $0) }, uniquingKeysWith: { first, _ in first })
                for route in network.routesOf[run.tripID] ?? [] {
                    for number in network.routes[route].runs.runs(of: run.tripID, startingAt: run.start + shift) {
                        skipped.insert(Int64(route) << 32 | Int64(number))
                        changed.insert(run.tripID)
                        guard !run.canceled else { continue }
                        let base = network.routes[route]
                        var late = base
                        late.runs = RouteRuns(fixed: [(base.runs.start(number), run.tripID)])
                        for position in base.stops.indices {
                            guard let call = calls[base.stopIndexes[position]] else { continue }
                            if call.skipped {
                                late.canBoard[position] = false
                                late.canAlight[position] = false
                            }
                            // Offsets from the run's start: the live time less the start.
                            if let arrival = call.arrival { late.arrivals[position] = arrival - run.start }
                            if let departure = call.departure { late.departures[position] = departure - run.start }
                            late.departures[position] = max(late.departures[position], late.arrivals[position])
                        }
                        let index = network.routes.count + extra.count
                        for (position, stop) in late.stops.enumerated() { routesAt[stop, default: []].append((index, position)) }
                        extra.append(late)
                    }
                }
            }
            for (trip, delay) in delays.sorted(by: { $0.key < $1.key }) where !changed.contains(trip) {
                for route in network.routesOf[trip] ?? [] {
                    let base = network.routes[route]
                    // The trip's runs on this route (fixed, and its windows) as one late route.
                    for run in base.runs.fixedRuns(of: trip) { skipped.insert(Int64(route) << 32 | Int64(run)) }
                    skippedTrips[route, default: []].insert(trip)
                    guard !delay.cancelled else { continue }
                    let from = delay.fromStopId.flatMap { id in base.stops.firstIndex { network.stopIds[$0] == id } } ?? 0
                    var late = base
                    late.runs = base.runs.runs(of: trip)
                    for position in from..<base.stops.count {
                        late.arrivals[position] += delay.seconds
                        late.departures[position] += delay.seconds
                    }
                    let number = network.routes.count + extra.count
                    for (position, stop) in late.stops.enumerated() { routesAt[stop, default: []].append((number, position)) }
                    extra.append(late)
                }
            }
        }

        func route(_ number: Int) -> TransitNetwork.Route {
            number < network.routes.count ? network.routes[number] : extra[number - network.routes.count]
        }
    }

    private func network(_ date: Int) throws(ClientError) -> TransitNetwork {
        lock.lock()
        defer { lock.unlock() }
        try follow()
        recent.removeAll { $0 == date }
        recent.append(date)
        if let built = networks[date] { return built }
        let built = try TransitNetwork(database, date: date)
        networks[date] = built
        while recent.count > Self.networksKept { networks[recent.removeFirst()] = nil }
        return built
    }
}
