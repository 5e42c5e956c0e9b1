import FeedModel

/// A stop where trips call, for transfers: where it is and the place it belongs to (its
/// station, or itself).
public struct ServedStop: Sendable {
    public var id: String
    public var point: Point
    public var place: String
    /// The lines that call there.
    public var routes: Set<String>

    public init(id: String, point: Point, place: String, routes: Set<String> = []) {
        self.id = id
        self.point = point
        self.place = place
        self.routes = routes
    }
}

/// One way from a stop to another on foot.
public struct StopTransfer: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// The feed's transfers.txt.
        case feed
        /// Through the station's pathways.txt.
        case pathway
        /// Within one place: platforms of a station, or of places one across sources.
        case station
        /// Between nearby stops, estimated from the straight line.
        case walk
    }

    public var from: String
    public var to: String
    public var kind: Kind
    public var seconds: Int
    /// Metres of straight line between the two (nil when a stop has no position).
    public var distance: Double?

    public init(from: String, to: String, kind: Kind, seconds: Int, distance: Double?) {
        self.from = from
        self.to = to
        self.kind = kind
        self.seconds = seconds
        self.distance = distance
    }
}

/// The transfers a rider can make on foot that no feed states (issue 28): between the served
/// stops of one place (a station's platforms, or of places linked across sources: `station`),
/// then between any served stops within `walkRadius` towards a stop with a line the first does
/// not have (`walk`). Each is timed as the straight
/// line times the detour factor at the walking speed, and never less than the minimum transfer
/// time. A pair the feeds already give (`taken`: transfers.txt, pathways) is left to them, and a
/// pair a feed forbids (`forbidden`: transfer_type 3) is never made.
public struct TransferWalks: Sendable {
    public var settings: NetworkSettings

    public init(settings: NetworkSettings) {
        self.settings = settings
    }

    /// The transfers, given the walks ``walkingPairs(_:)`` found among the same stops (they
    /// need no links, so the network stage finds them while it matches places).
    public func transfers(served: [ServedStop], links: [PlaceLink], taken: Set<StopPairKey>,
                          forbidden: Set<StopPairKey>, walking: [StopPairKey]) -> [StopTransfer] {
        var made: [StopPairKey: StopTransfer] = [:]
        let byId = Dictionary(served.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func add(_ a: ServedStop, _ b: ServedStop, _ kind: StopTransfer.Kind) {
            let key = StopPairKey(from: a.id, to: b.id)
            guard a.id != b.id, made[key] == nil, !taken.contains(key), !forbidden.contains(key) else { return }
            let distance = a.point.isValid && b.point.isValid ? (a.point.distance(to: b.point) * 10).rounded() / 10 : nil
            made[key] = StopTransfer(from: a.id, to: b.id, kind: kind, seconds: settings.walkSeconds(distance ?? 0), distance: distance)
        }
        var byPlace: [String: [ServedStop]] = [:]
        for stop in served { byPlace[stop.place, default: []].append(stop) }
        var linked: [String: [String]] = [:]
        for link in links { linked[link.stop, default: []].append(link.other) }
        for place in byPlace.keys.sorted() {
            let here = byPlace[place]!
            for other in [place] + (linked[place] ?? []) {
                for a in here { for b in byPlace[other] ?? [] { add(a, b, .station) } }
            }
        }
        for pair in walking {
            if let a = byId[pair.from], let b = byId[pair.to] { add(a, b, .walk) }
        }
        return made.values.sorted { ($0.from, $0.to) < ($1.from, $1.to) }
    }

    /// The walks between served stops within the radius, towards a stop where some line calls
    /// that does not call where the walk starts (walking to the same lines' other stop is never a
    /// transfer: on the 21-feed region this keeps 36,731 of 69,891 walks), in stop order.
    /// Neighbours are found through a grid of cells a radius wide.
    public func walkingPairs(_ served: [ServedStop]) -> [StopPairKey] {
        let located = served.filter(\.point.isValid)
        // Lines as small numbers: the subset test runs for every pair of neighbours.
        var numbers: [String: Int] = [:]
        let lines = located.map { stop in
            Set(stop.routes.map { route in
                if let number = numbers[route] { return number }
                numbers[route] = numbers.count
                return numbers.count - 1
            })
        }
        let grid = PointGrid(located.map(\.point), radius: settings.walkRadius)
        var pairs: [StopPairKey] = []
        for (i, a) in located.enumerated() {
            var ahead: [Int] = []
            grid.forEach(near: a.point) { j in
                guard i != j, a.point.distance(to: located[j].point) <= settings.walkRadius, !lines[j].isSubset(of: lines[i]) else { return }
                ahead.append(j)
            }
            for j in ahead.sorted(by: { located[$0].id < located[$1].id }) { pairs.append(StopPairKey(from: a.id, to: located[j].id)) }
        }
        return pairs
    }
}

/// A directed pair of stop ids.
public struct StopPairKey: Hashable, Sendable {
    public var from: String
    public var to: String

    public init(from: String, to: String) {
        self.from = from
        self.to = to
    }
}
