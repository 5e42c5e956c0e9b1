import FeedModel

/// The dates each service runs (``ServiceDays``), with what the rules derive from them. Computed
/// once per validation by the rules that need it.
struct ServiceDates {
    /// Sorted day numbers of each service id.
    let dates: [String: [Int]]

    init(_ feed: Feed) {
        dates = ServiceDays(feed).dates
    }

    /// Trips (runs, for frequency-based trips) per date over all services.
    func tripsPerDay(_ feed: Feed) -> [Int: Int] {
        var perService: [String: Int] = [:]
        let runs = TripRuns(feed)
        for case let (trip?, service?) in zip(feed.trips.texts(.tripId), feed.trips.texts(.serviceId)) {
            perService[service, default: 0] += runs.count(trip)
        }
        var perDay: [Int: Int] = [:]
        for (service, count) in perService {
            for day in dates[service] ?? [] { perDay[day, default: 0] += count }
        }
        return perDay
    }

    /// Today as a day number, in UTC.
    static func today() -> Int {
        Int((Double(time(nil)) / 86_400).rounded(.down))
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
