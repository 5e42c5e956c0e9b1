import FeedModel
import FeedSources
import Foundation

/// What a source's real-time trip-id convention needs from its dump (`realtime_trip_ids:`),
/// read beside the GTFS schema: New York's `mta_trip_id` column of trips.txt, which the schema
/// does not hold (MobilityData reports it as an unknown column).
enum RealtimeTripIds {
    /// Each `nyct` source's feed `trip_id` → `mta_trip_id`, by source id. A dump without the
    /// column raises `realtime_trip_ids_unavailable` (a warning: the source's trips are then
    /// looked up by `trip_id`).
    static func nyct(_ sources: [FetchedSource], sink: NoticeSink) -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        for source in sources where source.config.realtimeTripIds == .nyct {
            let schema = TableSchema(
                "trips", .optional, primaryKey: [],
                fields: [
                    FieldSchema(.tripId, .id), FieldSchema(.mtaTripId, .text),
                ])
            let quiet = NoticeSink()
            guard let archive = try? DumpArchive(url: source.local, sink: quiet), let bytes = try? archive.read("trips.txt"),
                let table = TableLoader(schema: schema, sink: quiet).load(bytes), table.has(.mtaTripId)
            else {
                sink.add(
                    Notice(
                        .realtimeTripIdsUnavailable, file: "trips.txt", field: "mta_trip_id", value: source.config.id,
                        message: "`realtime_trip_ids: nyct` needs the `mta_trip_id` column of trips.txt, which this dump does not have.",
                        repair: "trips looked up by trip_id"))
                continue
            }
            var ids: [String: String] = [:]
            for (trip, mta) in zip(table.texts(.tripId), table.texts(.mtaTripId)) {
                if let trip, let mta, !mta.isEmpty { ids[trip] = mta }
            }
            result[source.config.id] = ids
        }
        return result
    }
}

extension FieldKey {
    /// New York's own column of trips.txt, not in the schema (``RealtimeTripIds/nyct(_:sink:)``).
    fileprivate static let mtaTripId = FieldKey("mta_trip_id")
}
