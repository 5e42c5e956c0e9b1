import FeedModel

/// GTFS-Flex references to `locations.geojson`, checked as MobilityData's
/// `LocationIdForeignKeyValidator` and `UniqueGeographyIdValidator` do:
///
/// - every `stop_times.location_id` must be a feature's `id` (`foreign_key_violation`, error),
///   when the dump holds the file and its features could be read (the ``GTFSSchema/locations``
///   table is present);
/// - an id must not be used by more than one of stops, location groups and features
///   (`duplicate_geography_id`, error, one per id); as in Java, stops and location groups are
///   compared even without the GeoJSON file.
///
/// Reported only: bundles hold neither the file nor GTFS-Flex stop times.
struct LocationIdRule: ValidationRule {
    init() {}

    func apply(to feed: inout Feed, sink: NoticeSink) {
        guard let locations = feed.tables[GTFSSchema.locations.name], locations.isPresent else {
            if feed["location_groups"].isPresent { reportSharedIds(feed: feed, features: [], indexes: [], sink: sink) }
            return
        }
        let featureIds = locations.texts(.id)
        let known = Set(featureIds.compactMap { $0 })
        let stopTimes = feed.stopTimes
        if stopTimes.has(.locationId) {
            let values = stopTimes.texts(.locationId)
            for row in 0..<stopTimes.count {
                guard let value = values[row], !known.contains(value) else { continue }
                sink.add(.foreignKeyViolation) {
                    Notice(
                        .foreignKeyViolation, file: "stop_times.txt",
                        line: Int(stopTimes.lines[row]), field: "location_id", value: value,
                        message: "No locations.geojson feature has this id.")
                }
            }
        }
        reportSharedIds(feed: feed, features: featureIds, indexes: locations.integers(.featureIndex), sink: sink)
    }

    /// `duplicate_geography_id`: ids found in more than one of stops, location groups and features.
    private func reportSharedIds(feed: Feed, features: [String?], indexes: [Int], sink: NoticeSink) {
        /// Per id, the first row (or feature index) in each source: stops, location groups, features.
        var firsts: [String: [Int?]] = [:]
        func note(_ ids: [String?], _ rows: [Int], source: Int) {
            for (id, row) in zip(ids, rows) {
                guard let id else { continue }
                var entry = firsts[id] ?? [nil, nil, nil]
                if entry[source] == nil { entry[source] = row }
                firsts[id] = entry
            }
        }
        let stops = feed.stops, groups = feed["location_groups"]
        note(stops.texts(.stopId), stops.lines.map(Int.init), source: 0)
        note(groups.texts(.locationGroupId), groups.lines.map(Int.init), source: 1)
        note(features, indexes, source: 2)
        for (id, rows) in firsts.sorted(by: { $0.key < $1.key }) where rows.lazy.filter({ $0 != nil }).count > 1 {
            let places = zip(["stops.txt", "location_groups.txt", "locations.geojson"], rows).compactMap { $1 == nil ? nil : $0 }
            sink.add(.duplicateGeographyId) {
                Notice(
                    .duplicateGeographyId, file: places[0], line: rows[0] ?? rows[1],
                    field: "id", value: id,
                    message: "The id is used by \(places.joined(separator: " and ")); ids must be unique across them.")
            }
        }
    }
}
