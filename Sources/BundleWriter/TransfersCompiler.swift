import BundleFormat
import FeedEnhancement
import FeedModel

/// One source's transfers: transfers.txt whole into `transfers`, its stop-to-stop rows of
/// `transfer_type` 0–2 into `stop_transfers` (`feed`), then the walks through its pathways
/// (`pathway`) for pairs transfers.txt does not give.
struct TransfersCompiler {
    let source: SourceFeed

    func compile(into content: inout BundleContent) {
        let table = source.feed["transfers"]
        var given: Set<StopPairKey> = []
        if table.isPresent {
            let types = table.integers(.transferType), times = table.integers(.minTransferTime)
            let fields: [FieldKey] = [.fromStopId, .toStopId, .fromRouteId, .toRouteId, .fromTripId, .toTripId]
            let columns = fields.map { table.has($0) ? table.texts($0) : Array(repeating: nil, count: table.count) }
            let points = stopPoints()
            for row in 0..<table.count {
                let ids = columns.map { $0[row].map { source.prefix + $0 } ?? "" }
                let type = types[row] == Column.nullInteger ? 0 : types[row]
                let time = times[row] == Column.nullInteger ? nil : times[row]
                content.append(
                    TransferRow(
                        fromStopId: ids[0], toStopId: ids[1], fromRouteId: ids[2], toRouteId: ids[3], fromTripId: ids[4], toTripId: ids[5],
                        transferType: type, minTransferTime: time))
                // Stop to stop, for any route and trip, and possible: a walk a rider can plan.
                guard !ids[0].isEmpty, !ids[1].isEmpty, ids[2...].allSatisfy(\.isEmpty), (0...2).contains(type) else { continue }
                let key = StopPairKey(from: ids[0], to: ids[1])
                guard given.insert(key).inserted else { continue }
                let distance = points[ids[0]].flatMap { a in points[ids[1]].map { b in (a.distance(to: b) * 10).rounded() / 10 } }
                let seconds = time ?? (type == 1 ? 0 : source.network.walkSeconds(distance ?? 0))
                content.append(
                    StopTransferRow(fromStopId: ids[0], toStopId: ids[1], kind: StopTransfer.Kind.feed.rawValue, seconds: seconds, distanceM: distance))
            }
        }
        let forbidden = forbiddenPairs(table)
        for walk in source.pathwayWalks {
            let key = StopPairKey(from: source.prefix + walk.from, to: source.prefix + walk.to)
            guard !forbidden.contains(key), given.insert(key).inserted else { continue }
            content.append(StopTransferRow(fromStopId: key.from, toStopId: key.to, kind: walk.kind.rawValue, seconds: walk.seconds, distanceM: walk.distance))
        }
    }

    /// The pairs transfers.txt forbids (`transfer_type` 3 between two stops, for any route and
    /// trip), a station standing for each of its stops; bundle ids.
    private func forbiddenPairs(_ table: Table) -> Set<StopPairKey> {
        guard table.isPresent, table.has(.fromStopId), table.has(.toStopId) else { return [] }
        let stops = source.feed.stops
        var children: [String: [String]] = [:]
        for (id, parent) in zip(stops.texts(.stopId), stops.texts(.parentStation)) {
            if let id, let parent { children[parent, default: []].append(id) }
        }
        let others = [FieldKey.fromRouteId, .toRouteId, .fromTripId, .toTripId].filter(table.has).map { table.texts($0) }
        let from = table.texts(.fromStopId), to = table.texts(.toStopId), types = table.integers(.transferType)
        var pairs: Set<StopPairKey> = []
        for row in 0..<table.count where types[row] == 3 && others.allSatisfy({ $0[row] == nil }) {
            guard let a = from[row], let b = to[row] else { continue }
            for x in [a] + (children[a] ?? []) {
                for y in [b] + (children[b] ?? []) { pairs.insert(StopPairKey(from: source.prefix + x, to: source.prefix + y)) }
            }
        }
        return pairs
    }

    /// Each stop's position, by bundle id (prefix included).
    private func stopPoints() -> [String: Point] {
        let stops = source.feed.stops
        let ids = stops.texts(.stopId), lats = stops.reals(.stopLat), lons = stops.reals(.stopLon)
        var points: [String: Point] = [:]
        for row in 0..<stops.count {
            guard let id = ids[row], !lats[row].isNaN, !lons[row].isNaN else { continue }
            points[source.prefix + id] = Point(lat: lats[row], lon: lons[row])
        }
        return points
    }
}
