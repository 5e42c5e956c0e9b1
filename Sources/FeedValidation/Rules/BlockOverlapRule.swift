import FeedModel

/// Trips of one block are run by one vehicle in turn, so two of them running on a same date may
/// not overlap in time (`block_trips_with_overlapping_stop_times`, error, one per overlapping
/// pair), as MobilityData checks them: trips ordered by first arrival (then last departure),
/// each compared with the following ones that start before it ends, unless the second starts
/// exactly where and when the first ends (a block transfer written on both trips). Reported
/// only: bundles do not hold blocks.
struct BlockOverlapRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let trips = feed.trips, stopTimes = feed.stopTimes
        guard trips.has(.blockId), !stopTimes.isEmpty else { return }
        let blocks = trips.texts(.blockId), tripIds = trips.texts(.tripId), services = trips.texts(.serviceId)
        var blockTrips: [String: [Int]] = [:]
        for row in 0..<trips.count { if let block = blocks[row], tripIds[row] != nil { blockTrips[block, default: []].append(row) } }
        guard !blockTrips.isEmpty else { return }
        let groups = stopTimes.groups(by: .tripId, orderedBy: .stopSequence)
        let arrivals = stopTimes.integers(.arrivalTime), departures = stopTimes.integers(.departureTime)
        var edges: [String: (firstArrival: Int, firstDeparture: Int, lastArrival: Int, lastDeparture: Int)] = [:]
        let null = Column.nullInteger
        for (g, rows) in groups.rows.enumerated() {
            let first = rows[0], last = rows[rows.count - 1]
            guard arrivals[first] != null, departures[first] != null, arrivals[last] != null, departures[last] != null else { continue }
            edges[groups.keys[g]] = (arrivals[first], departures[first], arrivals[last], departures[last])
        }
        let dates = ServiceDates(feed).dates.mapValues(Set.init)
        var shared: [String: Bool] = [:]
        func runTogether(_ a: String, _ b: String) -> Bool {
            let key = a < b ? a + "\u{1F}" + b : b + "\u{1F}" + a
            if let known = shared[key] { return known }
            let answer = !(dates[a] ?? []).isDisjoint(with: dates[b] ?? [])
            shared[key] = answer
            return answer
        }
        for block in blockTrips.keys.sorted() {
            let intervals = blockTrips[block]!.compactMap { row in edges[tripIds[row]!].map { (row: row, edge: $0) } }
                .sorted { ($0.edge.firstArrival, $0.edge.lastDeparture) < ($1.edge.firstArrival, $1.edge.lastDeparture) }
            for i in intervals.indices {
                let a = intervals[i]
                for b in intervals[(i + 1)...] {
                    if a.edge.lastDeparture <= b.edge.firstArrival { break }
                    if a.edge.lastArrival == b.edge.firstArrival && a.edge.lastDeparture == b.edge.firstDeparture { continue }
                    guard let sa = services[a.row], let sb = services[b.row], runTogether(sa, sb) else { continue }
                    let tripA = tripIds[a.row]!, tripB = tripIds[b.row]!
                    sink.add(.blockTripsWithOverlappingStopTimes) {
                        Notice(
                            .blockTripsWithOverlappingStopTimes, file: "trips.txt",
                            line: Int(trips.lines[b.row]), field: "block_id", value: block,
                            message: "Trips \(tripA) and \(tripB) of block \(block) overlap in time on a date both run.")
                    }
                }
            }
        }
    }
}
