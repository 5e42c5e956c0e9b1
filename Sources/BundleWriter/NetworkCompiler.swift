import BundleFormat
import FeedEnhancement
import FeedModel
import FeedSQLite

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
            let links = SamePlaceMatcher(settings: settings).links(candidates(stops, content), sink: sink, overridesFile: overridesFile)
            for link in links {
                content.append(
                    BundleSchema.samePlaces,
                    [
                        .text(link.stop), .text(link.other), .real(link.distance),
                        .real(link.confidence), .text(link.evidence),
                    ])
            }
            summary.samePlaceLinks = links.count / 2
            summary.crossSourceLinks = links.filter { source(of: $0.stop) != source(of: $0.other) }.count / 2
            let walks = walker.transfers(
                served: servedStops, links: links, taken: taken(stops, content),
                forbidden: forbidden(stops, content), walking: walking.wait())
            for walk in walks {
                content.append(
                    BundleSchema.stopTransfers,
                    [
                        .text(walk.from), .text(walk.to), .text(walk.kind.rawValue),
                        .integer(Int64(walk.seconds)), walk.distance.map { .real($0) } ?? .null,
                    ])
            }
        }
        for row in content.rows[BundleSchema.stopTransfers.name] ?? [] {
            summary.transfersByKind[row[2].string ?? "", default: 0] += 1
        }
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
            uniqueKeysWithValues: (content.rows[BundleSchema.routes.name] ?? []).compactMap { row -> (String, Int)? in
                guard let id = row[0].string else { return nil }
                return (id, row[5].int ?? 3)
            })
        var guided: Set<String> = [], servedPlaces: Set<String> = []
        for row in content.rows[BundleSchema.stopRoutes.name] ?? [] {
            guard let stop = row[0].string, let route = row[1].string else { continue }
            let place = stops.place(of: stop)
            servedPlaces.insert(place)
            if OppositeStopsSettings.isRail(routeTypes[route] ?? 3) { guided.insert(place) }
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
        for row in content.rows[BundleSchema.stopRoutes.name] ?? [] {
            if let stop = row[0].string, let route = row[1].string { lines[stop, default: []].insert(route) }
        }
        var seen: Set<String> = []
        for row in content.rows[BundleSchema.patternStops.name] ?? [] { if let id = row[2].string { seen.insert(id) } }
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
        for row in content.rows[BundleSchema.stopTransfers.name] ?? [] {
            guard let from = row[0].string, let to = row[1].string else { continue }
            for a in [from] + stops.children(of: from) { for b in [to] + stops.children(of: to) { pairs.insert(StopPairKey(from: a, to: b)) } }
        }
        return pairs
    }

    /// The pairs a feed says cannot be made (`transfer_type` 3 between two stops, for any route
    /// and trip), a station standing for each of its stops.
    private func forbidden(_ stops: StopRows, _ content: BundleContent) -> Set<StopPairKey> {
        var pairs: Set<StopPairKey> = []
        for row in content.rows[BundleSchema.transfers.name] ?? [] {
            guard row[6].int == 3, let from = row[0].string, let to = row[1].string, !from.isEmpty, !to.isEmpty,
                (2...5).allSatisfy({ row[$0].string?.isEmpty ?? true })
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
        var rows: [[SQLValue]] = []
        for row in content.rows[BundleSchema.trips.name] ?? [] {
            guard let trip = row[0].string, let start = row[5].int else { continue }
            let source = source(of: trip)
            guard let ids = nyctTripIds[source], let prefix = sources.first(where: { $0.id == source })?.prefix,
                let mta = ids[String(trip.dropFirst(prefix.count))]
            else { continue }
            let origin = String(start * 100 / 60)
            let realtime = String(repeating: "0", count: max(0, 6 - origin.count)) + origin + "_" + mta
            rows.append([.text(source), .text(realtime), .text(trip)])
            count += 1
        }
        for row in rows { content.append(BundleSchema.realtimeTrips, row) }
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
        let columns = BundleSchema.stops.columns.map(\.name)
        func index(_ name: String) -> Int { columns.firstIndex(of: name)! }
        let (id, name, lat, lon, type, parent) = (index("stop_id"), index("name"), index("lat"), index("lon"), index("location_type"), index("parent_station"))
        for values in content.rows[BundleSchema.stops.name] ?? [] {
            guard let stop = values[id].string else { continue }
            row[stop] = ids.count
            ids.append(stop)
            names.append(values[name].string ?? "")
            points.append(Point(lat: values[lat].double ?? .nan, lon: values[lon].double ?? .nan))
            types.append(values[type].int ?? 0)
            parents.append(values[parent].string)
            if let up = values[parent].string { childrenOf[up, default: []].append(stop) }
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
