/// The other questions riders ask, answered with forward searches (docs/client.md, "Plan a
/// journey", items 5 and 6): "be there by nine" and "the journeys of the next hour".
extension JourneyPlanner {
    /// The longest window of departures (four hours).
    public static let maxWindowMinutes = 240
    /// The most forward searches one window makes.
    static let maxWindowSearches = 200

    /// The journeys that leave as late as possible and arrive by `deadline` (seconds from the
    /// start of service date `date`): the latest departure, to the second, from which the
    /// earliest arrival is by then, found by bisection over the 24 hours before it (a later
    /// departure never arrives sooner), and that departure's answer less any journey arriving
    /// after the deadline. Empty when even a day before nothing arrives by then.
    public func plan(
        from origins: [StopAccess], to destinations: [StopAccess], date: Int, arrivingBy deadline: Int,
        options: PlanOptions = PlanOptions(), delays: [String: TripDelay] = [:], live: [LiveRun] = []
    ) throws(ClientError) -> [Journey] {
        func answer(_ departure: Int) throws(ClientError) -> [Journey] {
            try plan(from: origins, to: destinations, date: date, departure: departure, options: options, delays: delays, live: live)
        }
        func arrives(_ journeys: [Journey]) -> Bool { (journeys.map(\.arrival).min() ?? Int.max) <= deadline }
        var low = deadline - 86_400, high = deadline
        var best = try answer(low)
        guard arrives(best) else { return [] }
        while low < high {
            let middle = low + (high - low + 1) / 2
            let found = try answer(middle)
            if arrives(found) {
                low = middle
                best = found
            } else {
                high = middle - 1
            }
        }
        return best.filter { $0.arrival <= deadline }
    }

    /// The journeys leaving within `minutes` (1–``maxWindowMinutes``) of `departure`: the
    /// answer at the departure, then from one second after the earliest departure among the
    /// last answer's journeys with a ride, until that passes the window (at most 200 searches);
    /// every journey leaving within the window, less those another dominates (leaves no earlier,
    /// arrives no later, no more transfers, better in one), each once, by departure, arrival and
    /// transfers. A journey on foot all the way is listed once, leaving at the window's start.
    public func plan(
        from origins: [StopAccess], to destinations: [StopAccess], date: Int, departure: Int, window minutes: Int,
        options: PlanOptions = PlanOptions(), delays: [String: TripDelay] = [:], live: [LiveRun] = []
    ) throws(ClientError) -> [Journey] {
        guard (1...Self.maxWindowMinutes).contains(minutes) else {
            throw .badQuery(reason: "`window` must be 1–\(Self.maxWindowMinutes) minutes")
        }
        let end = departure + minutes * 60
        var found: [Journey] = []
        var time = departure
        for search in 0..<Self.maxWindowSearches {
            let journeys = try plan(from: origins, to: destinations, date: date, departure: time, options: options, delays: delays, live: live)
            for journey in journeys where journey.departure <= end {
                let rides = journey.legs.contains { $0.mode == .ride }
                if (rides || search == 0) && !found.contains(journey) { found.append(journey) }
            }
            guard let next = journeys.filter({ $0.legs.contains { $0.mode == .ride } }).map(\.departure).min(), next + 1 <= end else { break }
            time = next + 1
        }
        let kept = found.filter { journey in !found.contains { Self.dominates($0, journey) } }
        return kept.sorted { ($0.departure, $0.arrival, $0.transfers) < ($1.departure, $1.arrival, $1.transfers) }
    }

    /// Whether `a` is at least as good as `b` on leaving, arriving and transfers, and better in
    /// one of them.
    static func dominates(_ a: Journey, _ b: Journey) -> Bool {
        a.departure >= b.departure && a.arrival <= b.arrival && a.transfers <= b.transfers
            && (a.departure > b.departure || a.arrival < b.arrival || a.transfers < b.transfers)
    }
}
