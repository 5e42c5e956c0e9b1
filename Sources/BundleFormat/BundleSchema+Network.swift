/// The tables that make one network of a bundle's sources (issue 28): the feeds' transfers,
/// places shared across sources, the transfers a rider makes on foot, and real-time trip ids.
extension BundleSchema {
    /// The `transfers` table: GTFS transfers.txt, every row and every `transfer_type`.
    public static let transfers = BundleTable(
        "transfers", primaryKey: ["from_stop_id", "to_stop_id", "from_route_id", "to_route_id", "from_trip_id", "to_trip_id"],
        doc:
            "GTFS transfers.txt, every row and every `transfer_type` (0 recommended, 1 timed, 2 minimum time, 3 not possible, 4 and 5 in-seat), with its route and trip forms. An id the feed leaves out is ''.",
        [
            BundleColumn("from_stop_id", "TEXT", notNull: true),
            BundleColumn("to_stop_id", "TEXT", notNull: true),
            BundleColumn("from_route_id", "TEXT", notNull: true),
            BundleColumn("to_route_id", "TEXT", notNull: true),
            BundleColumn("from_trip_id", "TEXT", notNull: true),
            BundleColumn("to_trip_id", "TEXT", notNull: true),
            BundleColumn("transfer_type", "INTEGER", notNull: true),
            BundleColumn("min_transfer_time", "INTEGER", doc: "Seconds, where the feed gives it."),
        ])

    /// The `same_places` table: stations and ungrouped stops that are one place for a rider.
    public static let samePlaces = BundleTable(
        "same_places", primaryKey: ["stop_id", "other_stop_id"],
        doc:
            "Stations and ungrouped stops that are one place for a rider: of different sources (Millbrae's BART and Caltrain stations), or of one source that left them ungrouped (New York's station complexes). Both ways: a link appears as (a, b) and (b, a). Platforms belong to their station's links.",
        [
            BundleColumn("stop_id", "TEXT", notNull: true),
            BundleColumn("other_stop_id", "TEXT", notNull: true),
            BundleColumn("distance_m", "REAL", notNull: true),
            BundleColumn("confidence", "REAL", notNull: true, doc: "0–1, from distance, names and modes; 1 for a link made by the overrides file."),
            BundleColumn(
                "evidence", "TEXT", notNull: true,
                doc: "What the link rests on: `38 m, names share `millbrae`, both rail`; `104 m, one place with <stop>` (both linked to it); or `override`."),
        ])

    /// The `stop_transfers` table: where a rider can go on foot from a stop, and how long it takes.
    public static let stopTransfers = BundleTable(
        "stop_transfers", primaryKey: ["from_stop_id", "to_stop_id"],
        doc:
            "Where a rider can go on foot from a stop, and how long it takes: the feed's own stop-to-stop transfers, walks through a station's pathways, between the platforms of one place, and between served stops within the walking radius. Never a pair the feed forbids (`transfer_type` 3).",
        [
            BundleColumn("from_stop_id", "TEXT", notNull: true),
            BundleColumn("to_stop_id", "TEXT", notNull: true),
            BundleColumn(
                "kind", "TEXT", notNull: true,
                doc:
                    "`feed` (transfers.txt, `transfer_type` 0–2, ids as the feed gives them: stations too), `pathway` (pathways.txt), `station` (platforms of one place, across sources too), `walk` (within the radius)."
            ),
            BundleColumn(
                "seconds", "INTEGER", notNull: true,
                doc:
                    "`min_transfer_time` for `feed` rows that give one (0 for a timed transfer); else the walk: pathway times, or the straight line times the detour factor at the walking speed, at least the minimum transfer time."
            ),
            BundleColumn("distance_m", "REAL", doc: "Straight line between the two stops."),
        ])

    /// The `realtime_trips` table: the GTFS-Realtime id of each trip whose id there is not its `trip_id`.
    public static let realtimeTrips = BundleTable(
        "realtime_trips", primaryKey: ["source_id", "realtime_trip_id", "trip_id"],
        doc:
            "Trips whose GTFS-Realtime id is not the feed's `trip_id` (the source's `realtime_trip_ids` convention, e.g. New York's `nyct`): the id the real-time feed uses, and every trip it may name (one per service; `start_date` tells them apart). A source without a convention has no rows: its real-time `trip_id` is the feed's.",
        [
            BundleColumn("source_id", "TEXT", notNull: true),
            BundleColumn("realtime_trip_id", "TEXT", notNull: true),
            BundleColumn("trip_id", "TEXT", notNull: true),
        ])
}
