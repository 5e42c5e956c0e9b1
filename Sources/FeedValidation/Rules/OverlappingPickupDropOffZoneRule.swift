import FeedModel

/// Two GTFS-Flex stop times of one trip must not offer overlapping zones at overlapping times,
/// as MobilityData's `OverlappingPickupDropOffZoneValidator` checks
/// (`overlapping_zone_and_pickup_drop_off_window`, error, one per pair of stop times):
///
/// - within a trip, in stop_sequence order, each pair of stop times with a `location_id`,
///   different ids, both pickup/drop-off windows given, and the same `pickup_type` or the same
///   `drop_off_type` (empty is 0, regular);
/// - whose windows overlap strictly: each starts before the other ends (windows that only
///   meet, one ending when the other starts, do not);
/// - whose zones' geometries overlap as JTS's `Geometry.overlaps` decides (``PlanarOverlap``):
///   their interiors meet and neither zone lies within the other, so identical zones, nested
///   zones and zones only touching are not reported. A zone that is not a Polygon or
///   MultiPolygon, or a `location_id` with no feature, is skipped, as in Java.
///
/// Java skips a pair with a pickup or drop-off type outside 0–3 (`UNRECOGNIZED`); feedc's loader
/// clears such a value (`unexpected_enum_value`), so it counts as 0 here. The work is bounded:
/// after ``pairBudget`` pairs of stop times, ``zonePairBudget`` pairs of zones compared, or a
/// ``PlanarWorkBudget`` of geometry work spent, in one feed, the rule stops and says so
/// (`geometry_not_fully_checked`, info; a hostile trip of a hundred thousand zone stop times
/// would otherwise take minutes); real trips have a handful.
///
/// Runs before ``FlexStopTimesRule`` leaves GTFS-Flex stop times out. Reported only: bundles
/// hold neither the zones nor GTFS-Flex stop times.
struct OverlappingPickupDropOffZoneRule: ValidationRule {
    /// Pairs of stop times compared per feed before the rule stops.
    static let pairBudget = 20_000_000
    /// Distinct pairs of zones whose geometries are compared per feed before the rule stops.
    static let zonePairBudget = 100_000

    init() {}

    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        guard let locations = feed.tables[GTFSSchema.locations.name], locations.isPresent else { return }
        let stopTimes = feed.stopTimes
        guard stopTimes.isPresent, stopTimes.has(.locationId), stopTimes.has(.startPickupDropOffWindow),
            stopTimes.has(.endPickupDropOffWindow)
        else { return }
        var geometries: [String: String] = [:]
        for (id, geometry) in zip(locations.texts(.id), locations.texts(.geometry)) {
            if let id, let geometry, geometries[id] == nil { geometries[id] = geometry }
        }
        let zones = stopTimes.texts(.locationId)
        let starts = stopTimes.integers(.startPickupDropOffWindow)
        let ends = stopTimes.integers(.endPickupDropOffWindow)
        let pickups = stopTimes.integers(.pickupType), dropOffs = stopTimes.integers(.dropOffType)
        let sequences = stopTimes.integers(.stopSequence)
        func type(_ values: [Int], _ row: Int) -> Int { values[row] == Column.nullInteger ? 0 : values[row] }
        var overlap = ZoneOverlaps(geometries: geometries, budget: PlanarWorkBudget())
        var pairs = 0
        let groups = stopTimes.groups(by: .tripId, orderedBy: .stopSequence)
        for (g, allRows) in groups.rows.enumerated() {
            let rows = allRows.filter {
                zones[$0] != nil && starts[$0] != Column.nullInteger && ends[$0] != Column.nullInteger
            }
            for (i, first) in rows.enumerated() {
                for second in rows[(i + 1)...] {
                    pairs += 1
                    if pairs > Self.pairBudget || overlap.compared > Self.zonePairBudget || overlap.budget.skipped > 0 {
                        return notCompared(sink)
                    }
                    guard type(pickups, first) == type(pickups, second) || type(dropOffs, first) == type(dropOffs, second),
                        let zone1 = zones[first], let zone2 = zones[second], zone1 != zone2,
                        starts[first] < ends[second], ends[first] > starts[second],
                        overlap.overlaps(zone1, zone2)
                    else { continue }
                    let trip = groups.keys[g]
                    func window(_ row: Int) -> String { "\(TimeText.format(starts[row]))–\(TimeText.format(ends[row]))" }
                    sink.add(.overlappingZoneAndPickupDropOffWindow) {
                        Notice(
                            .overlappingZoneAndPickupDropOffWindow, file: "stop_times.txt", line: Int(stopTimes.lines[first]),
                            field: "location_id", value: zone1,
                            message: "Trip \(trip): stop_sequence \(sequences[first]) (zone \(zone1), \(window(first))) and "
                                + "stop_sequence \(sequences[second]) (zone \(zone2), \(window(second))) have overlapping "
                                + "zones and pickup/drop-off windows.")
                    }
                }
            }
        }
        if overlap.budget.skipped > 0 { notCompared(sink) }
    }

    /// feedc's own (info): the rule stopped at its bound of work; pairs after it were not compared.
    private func notCompared(_ sink: NoticeSink) {
        sink.add(
            Notice(
                .geometryNotFullyChecked, file: "stop_times.txt", field: "location_id",
                message: "Zones and pickup/drop-off windows were not compared past the bound of work of this check "
                    + "(too many zone stop times in a trip, or zones too many or too large)."))
    }
}

/// Whether two zones overlap, each zone's polygons read once and each pair decided once.
private struct ZoneOverlaps {
    let geometries: [String: String]
    /// The work the comparisons may do together (``PlanarWorkBudget``).
    let budget: PlanarWorkBudget
    private var areas: [String: PlanarArea?] = [:]
    private var decided: [String: Bool] = [:]
    /// Distinct pairs compared so far.
    var compared: Int { decided.count }

    init(geometries: [String: String], budget: PlanarWorkBudget) {
        self.geometries = geometries
        self.budget = budget
    }

    mutating func overlaps(_ zone1: String, _ zone2: String) -> Bool {
        let key = zone1 < zone2 ? "\(zone1)\u{0}\(zone2)" : "\(zone2)\u{0}\(zone1)"
        if let known = decided[key] { return known }
        let result: Bool
        if let a = area(zone1), let b = area(zone2) { result = PlanarOverlap.overlaps(a, b, budget: budget) } else { result = false }
        decided[key] = result
        return result
    }

    private mutating func area(_ zone: String) -> PlanarArea? {
        if let known = areas[zone] { return known }
        let area = geometries[zone].flatMap { PlanarArea(encoded: $0) }
        areas[zone] = area
        return area
    }
}
