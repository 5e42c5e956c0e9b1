import BundleFormat
import FeedEnhancement
import FeedModel
import FeedSQLite

/// One source's transfers: transfers.txt whole into `transfers`, its stop-to-stop rows of
/// `transfer_type` 0–2 into `stop_transfers` (`feed`), then the walks through its pathways
/// (`pathway`) for pairs transfers.txt does not give.
struct TransfersCompiler {
    let source: SourceFeed

    func compile(into content: inout BundleContent) {
        let table = source.feed["transfers"]
        var given: Set<StopPairKey> = []
        if table.isPresent {
            let reader = Reader(table: table, source: source)
            let types = table.integers("transfer_type"), times = table.integers("min_transfer_time")
            let fields = ["from_stop_id", "to_stop_id", "from_route_id", "to_route_id", "from_trip_id", "to_trip_id"]
            let columns = fields.map { table.has($0) ? table.texts($0) : Array(repeating: nil, count: table.count) }
            let points = stopPoints()
            for row in 0..<table.count {
                let ids = columns.map { $0[row].map { source.prefix + $0 } ?? "" }
                let type = types[row] == Column.nullInteger ? 0 : types[row]
                let time = times[row] == Column.nullInteger ? nil : times[row]
                content.append(BundleSchema.transfers, ids.map { SQLValue.text($0) } + [.integer(Int64(type)), time.map { .integer(Int64($0)) } ?? .null])
                // Stop to stop, for any route and trip, and possible: a walk a rider can plan.
                guard !ids[0].isEmpty, !ids[1].isEmpty, ids[2...].allSatisfy(\.isEmpty), (0...2).contains(type) else { continue }
                let key = StopPairKey(from: ids[0], to: ids[1])
                guard given.insert(key).inserted else { continue }
                let distance = points[ids[0]].flatMap { a in points[ids[1]].map { b in (a.distance(to: b) * 10).rounded() / 10 } }
                let seconds = time ?? (type == 1 ? 0 : source.network.walkSeconds(distance ?? 0))
                content.append(BundleSchema.stopTransfers, [.text(ids[0]), .text(ids[1]), .text(StopTransfer.Kind.feed.rawValue),
                                                            .integer(Int64(seconds)), distance.map { .real($0) } ?? .null])
            }
        }
        for walk in source.pathwayWalks {
            let key = StopPairKey(from: source.prefix + walk.from, to: source.prefix + walk.to)
            guard given.insert(key).inserted else { continue }
            content.append(BundleSchema.stopTransfers, [.text(key.from), .text(key.to), .text(walk.kind.rawValue),
                                                        .integer(Int64(walk.seconds)), walk.distance.map { .real($0) } ?? .null])
        }
    }

    /// Each stop's position, by bundle id (prefix included).
    private func stopPoints() -> [String: Point] {
        let stops = source.feed.stops
        let ids = stops.texts("stop_id"), lats = stops.reals("stop_lat"), lons = stops.reals("stop_lon")
        var points: [String: Point] = [:]
        for row in 0..<stops.count {
            guard let id = ids[row], !lats[row].isNaN, !lons[row].isNaN else { continue }
            points[source.prefix + id] = Point(lat: lats[row], lon: lons[row])
        }
        return points
    }
}
