import FeedModel

/// Where each stop is for the matching: its position, or its parent's (up to three levels, as
/// MobilityData's `StopUtil`), and a number identifying the stop.
struct StopPlaces {
    struct Place {
        var location: SpherePoint
        var key: Int
    }

    private var places: [String: Place] = [:]
    private var unknown: [String: Int] = [:]
    let names: [String: String]

    init(_ stops: Table) {
        let ids = stops.texts(.stopId), lats = stops.reals(.stopLat), lons = stops.reals(.stopLon)
        let parents = stops.texts(.parentStation), stopNames = stops.texts(.stopName)
        var row: [String: Int] = [:]
        var names: [String: String] = [:]
        for (i, id) in ids.enumerated() {
            guard let id, row[id] == nil else { continue }
            row[id] = i
            if let name = stopNames[i] { names[id] = name }
        }
        for (id, i) in row {
            var at = i
            for _ in 0..<3 {
                if !lats[at].isNaN && !lons[at].isNaN {
                    places[id] = Place(location: SpherePoint(latitude: lats[at], longitude: lons[at]), key: i)
                    break
                }
                guard let parent = parents[at], let next = row[parent] else { break }
                at = next
            }
        }
        self.names = names
    }

    func place(of stop: String) -> Place? { places[stop] }

    /// A number for a stop id, also for ids stops.txt does not have.
    mutating func key(_ stop: String?) -> Int {
        guard let stop else { return -1 }
        if let place = places[stop] { return place.key }
        if let key = unknown[stop] { return key }
        let key = -2 - unknown.count
        unknown[stop] = key
        return key
    }
}
