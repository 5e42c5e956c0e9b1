import BundleFormat
import FeedSQLite

/// Compares the network tables of both sides by key: `same_places` links (each pair once) only on
/// one side are places linked or split; `stop_transfers` rows only on one side are walks added or
/// removed, and rows whose kind or time differs are changed. A side without a table (a bundle
/// from before the network stage) has none of its rows.
enum NetworkComparer {
    static func compare(_ pair: BundlePair) throws(SQLiteError) -> NetworkChanges {
        var changes = NetworkChanges()
        let places = BundleSchema.samePlaces.name, walks = BundleSchema.stopTransfers.name
        let old = try pair.tables("o"), new = try pair.tables("n")

        func links(_ side: String, _ other: String, otherHas: Bool) throws(SQLiteError) -> [PlaceLink] {
            let missing =
                otherHas ? "AND NOT EXISTS (SELECT 1 FROM \(other).\(places) y WHERE y.stop_id = x.stop_id AND y.other_stop_id = x.other_stop_id)" : ""
            let names = try pair.tables(side).contains(BundleSchema.stops.name)
            let name = { (column: String) in names ? "(SELECT s.name FROM \(side).stops s WHERE s.stop_id = \(column))" : "NULL" }
            return try pair.rows(
                """
                SELECT x.stop_id, x.other_stop_id, \(name("x.stop_id")), \(name("x.other_stop_id")), x.distance_m, x.evidence
                FROM \(side).\(places) x WHERE x.stop_id < x.other_stop_id \(missing) ORDER BY x.stop_id, x.other_stop_id
                """
            ).map {
                PlaceLink(
                    stopId: $0[0].string ?? "", otherStopId: $0[1].string ?? "", stopName: $0[2].string, otherStopName: $0[3].string,
                    distanceM: $0[4].double ?? 0, evidence: $0[5].string ?? "")
            }
        }
        if new.contains(places) { changes.linked = try links("n", "o", otherHas: old.contains(places)) }
        if old.contains(places) { changes.split = try links("o", "n", otherHas: new.contains(places)) }

        let join = "y.from_stop_id = x.from_stop_id AND y.to_stop_id = x.to_stop_id"
        func only(_ side: String, _ other: String, otherHas: Bool) throws(SQLiteError) -> [[SQLValue]] {
            let missing = otherHas ? "WHERE NOT EXISTS (SELECT 1 FROM \(other).\(walks) y WHERE \(join))" : ""
            return try pair.rows(
                "SELECT x.from_stop_id, x.to_stop_id, x.kind, x.seconds FROM \(side).\(walks) x \(missing) ORDER BY x.from_stop_id, x.to_stop_id")
        }
        if new.contains(walks) {
            changes.walksAdded = try only("n", "o", otherHas: old.contains(walks)).map {
                WalkChange(
                    fromStopId: $0[0].string ?? "", toStopId: $0[1].string ?? "", oldKind: nil, newKind: $0[2].string, oldSeconds: nil, newSeconds: $0[3].int)
            }
        }
        if old.contains(walks) {
            changes.walksRemoved = try only("o", "n", otherHas: new.contains(walks)).map {
                WalkChange(
                    fromStopId: $0[0].string ?? "", toStopId: $0[1].string ?? "", oldKind: $0[2].string, newKind: nil, oldSeconds: $0[3].int, newSeconds: nil)
            }
        }
        if old.contains(walks) && new.contains(walks) {
            changes.walksChanged = try pair.rows(
                """
                SELECT x.from_stop_id, x.to_stop_id, x.kind, y.kind, x.seconds, y.seconds FROM o.\(walks) x JOIN n.\(walks) y ON \(join)
                WHERE x.kind IS NOT y.kind OR x.seconds IS NOT y.seconds ORDER BY x.from_stop_id, x.to_stop_id
                """
            ).map {
                WalkChange(
                    fromStopId: $0[0].string ?? "", toStopId: $0[1].string ?? "", oldKind: $0[2].string, newKind: $0[3].string,
                    oldSeconds: $0[4].int, newSeconds: $0[5].int)
            }
        }
        return changes
    }
}
