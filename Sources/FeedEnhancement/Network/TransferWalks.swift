import FeedModel

/// A stop where trips call, for transfers: where it is and the place it belongs to (its
/// station, or itself).
package struct ServedStop: Sendable {
    package var id: String
    package var point: Point
    package var place: String
    /// The lines that call there.
    package var routes: Set<String>

    package init(id: String, point: Point, place: String, routes: Set<String> = []) {
        self.id = id
        self.point = point
        self.place = place
        self.routes = routes
    }
}

/// One way from a stop to another on foot.
package struct StopTransfer: Sendable, Equatable {
    package enum Kind: String, Sendable {
        /// The feed's transfers.txt.
        case feed
        /// Through the station's pathways.txt.
        case pathway
        /// Within one place: platforms of a station, or of places one across sources.
        case station
        /// Between nearby stops, estimated from the straight line.
        case walk
    }

    package var from: String
    package var to: String
    package var kind: Kind
    package var seconds: Int
    /// Metres of straight line between the two (nil when a stop has no position).
    package var distance: Double?

    package init(from: String, to: String, kind: Kind, seconds: Int, distance: Double?) {
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
package struct TransferWalks: Sendable {
    package var settings: NetworkSettings

    package init(settings: NetworkSettings) {
        self.settings = settings
    }

    /// The transfers, given the walks ``walkingPairs(_:)`` found among the same stops (they
    /// need no links, so the network stage finds them while it matches places).
    package func transfers(
        served given: [ServedStop], links: some Sequence<PlaceLink>, taken: Set<StopPairKey>,
        forbidden: Set<StopPairKey>, walking: ServedPairs, sink: NoticeSink? = nil
    ) -> StopTransfers {
        // Stops as numbers in id order: pairs of numbers are cheap to hash and to sort (the
        // 21-feed region's 45,000 walks took 0.12 s by their ids).
        let served = Self.inIdOrder(given)
        let number = Dictionary(served.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        func pairs(_ keys: Set<StopPairKey>) -> Set<ServedPair> {
            Set(keys.compactMap { key in number[key.from].flatMap { a in number[key.to].map { ServedPair(a, $0) } } })
        }
        let refused = pairs(taken).union(pairs(forbidden))
        // Each transfer as one number, its stops' positions then its kind (station before walk),
        // sorted and the first of each pair kept: a hostile square's 4.8 M walks in a
        // dictionary, then as `StopTransfer`s, were 0.5 GB (issue 41).
        // Room for every stop's nearest of its place and every walk, the most there can be: a
        // hostile square's array was copied once more as it grew.
        var made: [UInt64] = []
        made.reserveCapacity(served.count * Self.maxWalksPerStop)
        func add(_ pair: ServedPair, _ kind: StopTransfer.Kind) {
            guard pair.from != pair.to, !refused.contains(pair) else { return }
            made.append(StopTransfers.key(pair, kind))
        }
        // Places by number, the links between them as numbers: a hostile square's 4.4 M links
        // as ids were 105 MB here (issue 41).
        var placeNumber: [String: Int] = [:]
        var byPlace: [[Int]] = []
        for (index, stop) in served.enumerated() {
            let number = placeNumber[stop.place] ?? byPlace.count
            if number == byPlace.count {
                placeNumber[stop.place] = number
                byPlace.append([])
            }
            byPlace[number].append(index)
        }
        var linked: [[Int32]] = Array(repeating: [], count: byPlace.count)
        for link in links {
            guard let a = placeNumber[link.stop], let b = placeNumber[link.other] else { continue }
            linked[a].append(Int32(b))
        }
        // Each stop to the stops of its place and of the places linked to it, the nearest
        // `maxWalksPerStop` where there are more (a station of thousands of platforms would make
        // its square of pairs).
        var partners: [(distance: Double, to: Int)] = []
        var capped = 0, most = (count: 0, id: "")
        for place in placeNumber.keys.sorted() {
            let number = placeNumber[place]!
            let here = byPlace[number]
            let others = ([number] + linked[number].map(Int.init)).flatMap { byPlace[$0] }
            for a in here {
                partners.removeAll(keepingCapacity: true)
                for b in others where b != a && !refused.contains(ServedPair(a, b)) {
                    let (x, y) = (served[a].point, served[b].point)
                    partners.append((x.isValid && y.isValid ? x.distance(to: y) : 0, b))
                }
                if partners.count > Self.maxWalksPerStop {
                    capped += 1
                    if partners.count > most.count { most = (partners.count, served[a].id) }
                    partners.sort { ($0.distance, $0.to) < ($1.distance, $1.to) }
                    partners.removeSubrange(Self.maxWalksPerStop...)
                }
                for (_, b) in partners { add(ServedPair(a, b), .station) }
            }
        }
        if capped > 0, let sink {
            sink.add(
                Notice(
                    .denseNetworkCapped, file: "stops.txt", field: "parent_station", value: most.id,
                    message:
                        "\(capped) served stops have more than \(Self.maxWalksPerStop) stops of their place to change to (\(most.id): \(most.count)); each keeps its nearest \(Self.maxWalksPerStop).",
                    repair: "nearest \(Self.maxWalksPerStop) kept"))
        }
        let walkingOrder = given.map(\.id) == served.map(\.id) ? nil : given.map { number[$0.id]! }
        made.sort()
        // The walks, as keys, come in key order when the stops were given in id order (the
        // network stage's): merged with the place's changes, not sorted with them, which held
        // both, a sort's buffer and the result at once (a hostile square's 9.6 M keys, issue 41).
        var walks = walking.lazy.map { pair in walkingOrder.map { ServedPair($0[pair.from], $0[pair.to]) } ?? pair }
            .filter { $0.from != $0.to && !refused.contains($0) }.map { StopTransfers.key($0, .walk) }.makeIterator()
        var sortedWalks: IndexingIterator<[UInt64]>? = nil
        if walkingOrder != nil { sortedWalks = Array(walks).sorted().makeIterator() }
        func nextWalk() -> UInt64? { sortedWalks != nil ? sortedWalks!.next() : walks.next() }
        var keys: [UInt64] = []
        keys.reserveCapacity(made.count + walking.count)
        var m = 0, walk = nextWalk()
        while m < made.count || walk != nil {
            let key: UInt64
            if let next = walk, m == made.count || next < made[m] {
                key = next
                walk = nextWalk()
            } else {
                key = made[m]
                m += 1
            }
            // A pair's first key is its change within a place, where it has one (kind 0, then 1).
            if let last = keys.last, last >> 1 == key >> 1 { continue }
            keys.append(key)
        }
        made = []
        // Kept until the bundle is written: at its size (a pair's two kinds made it longer), and
        // the stops without their lines.
        keys = Array(keys[...])
        let stops = served.map { ServedStop(id: $0.id, point: $0.point, place: $0.place) }
        return StopTransfers(served: stops, keys: keys, settings: settings)
    }

    /// `stops` in id order (as the network stage gives them already).
    static func inIdOrder(_ stops: [ServedStop]) -> [ServedStop] {
        zip(stops, stops.dropFirst()).allSatisfy { $0.id < $1.id } ? stops : stops.sorted { $0.id < $1.id }
    }

    /// The walks between served stops within the radius, towards a stop where some line calls
    /// that does not call where the walk starts (walking to the same lines' other stop is never a
    /// transfer: on the 21-feed region this keeps 36,731 of 69,891 walks), as positions in
    /// `served`. Neighbours are found through a grid of cells a radius wide.
    /// `capped`: the stops that had more candidates than ``maxWalksPerStop``.
    package func walkingPairs(_ served: [ServedStop]) -> (pairs: ServedPairs, capped: Int) {
        // Lines as small numbers: the subset test runs for every pair of neighbours.
        var numbers: [String: Int] = [:]
        let lines = served.map { stop in
            Set(
                stop.routes.map { route in
                    if let number = numbers[route] { return number }
                    numbers[route] = numbers.count
                    return numbers.count - 1
                })
        }
        let tree = NearestPoints(served.map(\.point))
        var pairs = ServedPairs()
        pairs.reserve(served.count * Self.maxWalksPerStop)
        var near: [(distance: Double, to: Int)] = []
        var capped = 0
        for (i, a) in served.enumerated() where a.point.isValid {
            near.removeAll(keepingCapacity: true)
            let examined = tree.nearest(to: a.point, within: settings.walkRadius, first: 2 * Self.maxWalksPerStop + 1, limit: Self.maxExamined + 1) {
                $0.count(where: { j in i != j && !lines[j].isSubset(of: lines[i]) && a.point.distance(to: served[j].point) <= settings.walkRadius })
                    > Self.maxWalksPerStop
            }
            for j in examined where i != j && !lines[j].isSubset(of: lines[i]) {
                let distance = a.point.distance(to: served[j].point)
                guard distance <= settings.walkRadius else { continue }
                near.append((distance, j))
            }
            // The nearest only, however dense the stops (a city centre of thousands of stops, or
            // a hostile feed of a thousand in one square): the walks grow with the stops, not
            // with their square. Ties by position, so the walks never depend on the tree's order.
            if near.count > Self.maxWalksPerStop || examined.count > Self.maxExamined {
                capped += 1
                near.sort { ($0.distance, $0.to) < ($1.distance, $1.to) }
                near.removeSubrange(min(near.count, Self.maxWalksPerStop)...)
            }
            near.sort { $0.to < $1.to }
            for (_, j) in near { pairs.append(ServedPair(i, j)) }
        }
        return (pairs, capped)
    }

    /// The most walks a stop starts, to its nearest served stops: on the 21-feed region the most
    /// candidates a stop has is 38 (downtown Seattle, three King County Metro feeds, 2026-12-01),
    /// so no real stop is cut; a hostile square of thousands is.
    package static let maxWalksPerStop = 48

    /// The most served stops within the walking radius of one stop that are measured for its
    /// walks, nearest first: finding a stop's walks costs this many, however crowded the square.
    /// On the 21-feed region no stop has as many within 250 m.
    package static let maxExamined = 512
}

/// The transfers ``TransferWalks`` makes, ordered by their stops' ids: a collection of
/// ``StopTransfer``s made as they are read, from 8 bytes each.
package struct StopTransfers: RandomAccessCollection, Sendable {
    let served: [ServedStop]
    /// Each transfer: its stops' positions in `served` and its kind (``key(_:_:)``), in order.
    let keys: [UInt64]
    let settings: NetworkSettings

    package var startIndex: Int { 0 }
    package var endIndex: Int { keys.count }

    package subscript(position: Int) -> StopTransfer {
        let key = keys[position]
        let (a, b) = (served[Int(key >> 33)], served[Int(key >> 1 & 0xFFFF_FFFF)])
        let distance = a.point.isValid && b.point.isValid ? (a.point.distance(to: b.point) * 10).rounded() / 10 : nil
        return StopTransfer(from: a.id, to: b.id, kind: key & 1 == 0 ? .station : .walk, seconds: settings.walkSeconds(distance ?? 0), distance: distance)
    }

    /// The id of the stop the transfer at `position` starts from, and of the one it leads to.
    package func from(at position: Int) -> String { served[Int(keys[position] >> 33)].id }
    package func to(at position: Int) -> String { served[Int(keys[position] >> 1 & 0xFFFF_FFFF)].id }

    /// A transfer as one number: its stops' positions, then 0 for `station`, 1 for `walk`, so
    /// that sorted, a pair's station transfer comes first.
    static func key(_ pair: ServedPair, _ kind: StopTransfer.Kind) -> UInt64 {
        precondition(kind == .station || kind == .walk)
        return UInt64(pair.from) << 33 | UInt64(pair.to) << 1 | (kind == .walk ? 1 : 0)
    }
}

/// Directed pairs of stops by their positions, 8 bytes each (the walks ``TransferWalks`` finds).
package struct ServedPairs: RandomAccessCollection, Sendable {
    private var keys: [UInt64] = []

    package init() {}

    package var startIndex: Int { 0 }
    package var endIndex: Int { keys.count }
    package subscript(position: Int) -> ServedPair { ServedPair(Int(keys[position] >> 32), Int(keys[position] & 0xFFFF_FFFF)) }

    mutating func reserve(_ count: Int) { keys.reserveCapacity(count) }

    mutating func append(_ pair: ServedPair) { keys.append(UInt64(pair.from) << 32 | UInt64(pair.to)) }
}

/// A directed pair of stops by their positions.
package struct ServedPair: Hashable, Sendable {
    package var from: Int
    package var to: Int

    package init(_ from: Int, _ to: Int) {
        self.from = from
        self.to = to
    }
}

/// A directed pair of stop ids.
package struct StopPairKey: Hashable, Sendable {
    package var from: String
    package var to: String

    package init(from: String, to: String) {
        self.from = from
        self.to = to
    }
}
