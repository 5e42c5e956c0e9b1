import BundleFormat
import FeedEnhancement
import FeedModel

/// The bundle's sources made one network, once their rows are joined (issue 28): places shared
/// across sources (`same_places`, ``SamePlaceMatcher``), the walks between the platforms of one
/// place and between nearby served stops (`stop_transfers`, ``TransferWalks``, after each
/// source's own transfers and pathways), and the real-time trip ids of sources with a
/// convention (`realtime_trips`).
package struct NetworkCompiler: Sendable {
    package var settings: NetworkSettings
    /// Each source's id and prefix, in the bundle's order.
    package var sources: [(id: String, prefix: String)]
    /// For sources whose real-time trip ids follow New York's convention (`realtime_trip_ids:
    /// nyct`): each feed `trip_id`'s `mta_trip_id`.
    package var nyctTripIds: [String: [String: String]]
    /// Names the overrides file in notices.
    package var overridesFile: String
    /// Whose pool finds the walks beside the places (a build's); with one worker, one after the
    /// other.
    package var workers = Workers(1)

    package init(
        settings: NetworkSettings, sources: [(id: String, prefix: String)], nyctTripIds: [String: [String: String]] = [:],
        overridesFile: String = "overrides"
    ) {
        self.settings = settings
        self.sources = sources
        self.nyctTripIds = nyctTripIds
        self.overridesFile = overridesFile
    }

    /// What the stage did, for the build report.
    package struct Summary: Sendable, Equatable, Codable {
        package var samePlaceLinks = 0
        /// Of which between two sources.
        package var crossSourceLinks = 0
        package var transfersByKind: [String: Int] = [:]
        package var realtimeTrips = 0
    }

    package func compile(into content: inout BundleContent, sink: NoticeSink) -> Summary {
        var summary = Summary()
        let stops = StopRows(content)
        if settings.enabled {
            // The walks need nothing of the places: found on a pool thread meanwhile, if one is free.
            let servedStops = served(stops, content)
            let walker = TransferWalks(settings: settings)
            let walking = workers.beside { walker.walkingPairs(servedStops) }
            let places = candidates(stops, content)
            let links = SamePlaceMatcher(settings: settings).links(places, sink: sink, overridesFile: overridesFile)
            summary.samePlaceLinks = links.count / 2
            summary.crossSourceLinks = links.indices.count { places[links.places(at: $0).stop].source != places[links.places(at: $0).other].source } / 2
            let (walkingPairs, capped) = walking.wait()
            if capped > 0 {
                sink.add(
                    Notice(
                        .denseNetworkCapped, file: "stops.txt", field: "walk_radius_m",
                        message:
                            "\(capped) served stops have more than \(TransferWalks.maxWalksPerStop) stops to walk to within walk_radius_m; each keeps its nearest \(TransferWalks.maxWalksPerStop).",
                        repair: "nearest \(TransferWalks.maxWalksPerStop) kept"))
            }
            let walks = walker.transfers(
                served: servedStops, links: links, taken: taken(stops, content),
                forbidden: forbidden(stops, content), walking: walkingPairs, sink: sink)
            // Kept as the stage made them, each row made as it is written: 14 and 8 bytes a row
            // where stored rows take 28 and 24 (a hostile square's 9.2 M rows, issue 41).
            content.append(BundleSchema.samePlaces, generated: SamePlaceRows(links: links))
            content.append(BundleSchema.stopTransfers, generated: StopTransferRows(walks: walks))
        }
        for row in content.rows(StopTransferRow.self) { summary.transfersByKind[row.kind, default: 0] += 1 }
        summary.realtimeTrips = compileRealtimeTrips(into: &content)
        return summary
    }

    /// The source a bundle id belongs to: the one whose prefix it starts with (prefixes never
    /// begin one another; a single source's is empty).
    private func source(of id: String) -> String {
        sources.first { !$0.prefix.isEmpty && id.hasPrefix($0.prefix) }?.id ?? sources.first { $0.prefix.isEmpty }?.id ?? ""
    }

    /// Stations, and stops no station groups that some line serves.
    private func candidates(_ stops: StopRows, _ content: BundleContent) -> [PlaceCandidate] {
        let routeTypes = Dictionary(
            uniqueKeysWithValues: content.rows(RouteRow.self).compactMap { row -> (String, Int)? in
                guard let id = row.routeId else { return nil }
                return (id, row.type ?? 3)
            })
        var guided: Set<String> = [], servedPlaces: Set<String> = []
        for row in content.rows(StopRouteRow.self) {
            let place = stops.place(of: row.stopId)
            servedPlaces.insert(place)
            if OppositeStopsSettings.isRail(routeTypes[row.routeId] ?? 3) { guided.insert(place) }
        }
        return stops.ids.indices.compactMap { row in
            let id = stops.ids[row]
            guard stops.isPlace(row), servedPlaces.contains(id) else { return nil }
            return PlaceCandidate(id: id, source: source(of: id), name: stops.names[row], point: stops.points[row], guided: guided.contains(id))
        }
    }

    /// The stops trips call at, each with its place and its lines.
    private func served(_ stops: StopRows, _ content: BundleContent) -> [ServedStop] {
        var lines: [String: Set<String>] = [:]
        for row in content.rows(StopRouteRow.self) { lines[row.stopId, default: []].insert(row.routeId) }
        var seen: Set<String> = []
        for row in content.rows(PatternStopRow.self) { if let id = row.stopId { seen.insert(id) } }
        return seen.sorted().compactMap { id in
            guard let row = stops.row[id] else { return nil }
            return ServedStop(id: id, point: stops.points[row], place: stops.place(of: id), routes: lines[id] ?? [])
        }
    }

    /// The pairs the sources' own transfers and pathways give, a station standing for each of
    /// its stops: a feed's 180 s within station 101 is not undercut by a generated 60 s between
    /// its platforms (`transfers_from` on a platform lists its station's rows).
    private func taken(_ stops: StopRows, _ content: BundleContent) -> Set<StopPairKey> {
        var pairs: Set<StopPairKey> = []
        for row in content.rows(StopTransferRow.self) {
            let (from, to) = (row.fromStopId, row.toStopId)
            for a in [from] + stops.children(of: from) { for b in [to] + stops.children(of: to) { pairs.insert(StopPairKey(from: a, to: b)) } }
        }
        return pairs
    }

    /// The pairs a feed says cannot be made (`transfer_type` 3 between two stops, for any route
    /// and trip), a station standing for each of its stops.
    private func forbidden(_ stops: StopRows, _ content: BundleContent) -> Set<StopPairKey> {
        var pairs: Set<StopPairKey> = []
        for row in content.rows(TransferRow.self) {
            let (from, to) = (row.fromStopId, row.toStopId)
            guard row.transferType == 3, !from.isEmpty, !to.isEmpty,
                row.fromRouteId.isEmpty, row.toRouteId.isEmpty, row.fromTripId.isEmpty, row.toTripId.isEmpty
            else { continue }
            for a in [from] + stops.children(of: from) { for b in [to] + stops.children(of: to) { pairs.insert(StopPairKey(from: a, to: b)) } }
        }
        return pairs
    }

    /// New York's convention: the real-time id is the trip's origin time in hundredths of a
    /// minute after midnight, six digits, `_`, then its `mta_trip_id` (`036050_2..S07R` is the
    /// 2 train's trip on path `..S07R` that leaves its first stop at 06:00:30).
    private func compileRealtimeTrips(into content: inout BundleContent) -> Int {
        guard !nyctTripIds.isEmpty else { return 0 }
        var count = 0
        var rows: [RealtimeTripRow] = []
        for row in content.rows(TripRow.self) {
            guard let trip = row.tripId else { continue }
            let source = source(of: trip)
            guard let ids = nyctTripIds[source], let prefix = sources.first(where: { $0.id == source })?.prefix,
                let mta = ids[String(trip.dropFirst(prefix.count))]
            else { continue }
            let origin = String(row.startTime * 100 / 60)
            let realtime = String(repeating: "0", count: max(0, 6 - origin.count)) + origin + "_" + mta
            rows.append(RealtimeTripRow(sourceId: source, realtimeTripId: realtime, tripId: trip))
            count += 1
        }
        for row in rows { content.append(row) }
        return count
    }
}

/// The `stops` rows the network stage reads, by column.
struct StopRows {
    var ids: [String] = []
    var names: [String] = []
    var points: [Point] = []
    var types: [Int] = []
    var parents: [String?] = []
    var row: [String: Int] = [:]
    private var childrenOf: [String: [String]] = [:]

    init(_ content: BundleContent) {
        for record in content.rows(StopRow.self) {
            guard let stop = record.stopId else { continue }
            row[stop] = ids.count
            ids.append(stop)
            names.append(record.name ?? "")
            points.append(Point(lat: record.lat ?? .nan, lon: record.lon ?? .nan))
            types.append(record.locationType ?? 0)
            parents.append(record.parentStation)
            if let up = record.parentStation { childrenOf[up, default: []].append(stop) }
        }
    }

    /// A station, or a stop or platform no station groups.
    func isPlace(_ index: Int) -> Bool {
        types[index] == 1 || ((types[index] == 0) && (parents[index].flatMap { row[$0] } == nil))
    }

    /// The place a stop belongs to: its station, or itself.
    func place(of id: String) -> String {
        guard let index = row[id], let parent = parents[index], let up = row[parent], types[up] == 1 else { return id }
        return parent
    }

    func children(of id: String) -> [String] { childrenOf[id] ?? [] }
}
