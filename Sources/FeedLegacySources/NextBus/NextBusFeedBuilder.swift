import FeedModel
import Foundation

/// Turns the recognised NextBus responses of a source into GTFS tables.
///
/// - routeConfig `route` → routes (`tag` → route_id), its `stop`s → stops (`tag` → stop_id,
///   `stopId` → stop_code), its `path`s → shapes: paths tagged with a direction's segments
///   (`<tag id="71_0_var0_6_…"/>`) are joined in segment order into that direction's shape,
///   untagged paths become shapes of their own.
/// - Each `direction` → one pattern trip (`<route>/ui/<tag>` for `useForUI="true"`,
///   `<route>/branch/<tag>` otherwise) with its stops in order, all at 00:00:00, on the service
///   `nextbus_patterns` that runs on no day: the stop patterns exist even without a schedule.
///   User-facing directions get `direction_id` 0/1 and their title as headsign; branch patterns
///   get the headsign but no `direction_id` (attaching them is the direction rules' job).
/// - schedule `tr` rows → trips with stop times (`epochTime` ms after midnight; `-1` = not
///   served), on a service per `serviceClass` over an open date range, `blockID` → block_id,
///   direction and headsign from the user-facing direction whose `name` matches.
/// - routeList entries only lend their titles; agencyList is informational.
struct NextBusFeedBuilder {
    private let sink: NoticeSink
    private let configuredZone: String?
    private var agencies: [(id: String, name: String)] = []
    private var configs: [(route: NextBusDocument.Route, agency: String, file: String)] = []
    private var schedules: [(route: NextBusDocument.Route, file: String)] = []
    private var listed: [String: NextBusDocument.Route] = [:]

    init(sink: NoticeSink, timezone: String?) {
        self.sink = sink
        configuredZone = timezone
    }

    mutating func add(_ document: NextBusDocument) {
        guard document.errorText == nil else { return }
        let name = NextBusConventions.agencyName(copyright: document.copyright) ?? "NextBus agency"
        let id = name.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
        if !agencies.contains(where: { $0.id == id }) { agencies.append((id, name)) }
        for route in document.routes {
            if route.isSchedule {
                schedules.append((route, document.file))
            } else if route.isConfig {
                if let first = configs.first(where: { $0.route.tag == route.tag }) {
                    sink.add(
                        Notice(
                            .nextbusDuplicateRoute, file: document.file, line: route.line,
                            field: "route/@tag", value: route.tag,
                            message: "Route \(route.tag) is configured again (first in \(first.file)).", repair: "this one ignored"))
                } else {
                    configs.append((route, id, document.file))
                }
            } else if listed[route.tag] == nil {
                listed[route.tag] = route
            }
        }
    }

    func feed() -> Feed {
        var tables = Tables(sink: sink)
        var stopsSeen: Set<String> = []
        var longitudes: [Double] = []
        var directionsByRoute: [String: (ids: [String: Int], ui: [NextBusDocument.Direction])] = [:]
        for (route, agency, _) in configs {
            let list = listed[route.tag]
            let short = route.shortTitle ?? list?.shortTitle ?? route.tag
            let title = route.title ?? list?.title
            tables.routes.append(
                line: route.line,
                [
                    .text(route.tag), .text(agency), .text(short), .text(title == short ? nil : title),
                    .integer(3), .text(color(route.color)), .text(color(route.oppositeColor)),
                ])
            for stop in route.stops where stopsSeen.insert(stop.tag).inserted {
                tables.stops.append(
                    line: stop.line,
                    [
                        .text(stop.tag), .text(stop.stopId), .text(stop.title),
                        .real(stop.latitude), .real(stop.longitude),
                    ])
                if let lon = stop.longitude { longitudes.append(lon) }
            }
            let shapes = tables.addShapes(route)
            let ids = NextBusConventions.directionIds(route.directions)
            directionsByRoute[route.tag] = (ids, route.directions.filter(\.useForUI))
            for direction in route.directions {
                let trip = "\(route.tag)/\(direction.useForUI ? "ui" : "branch")/\(direction.tag)"
                let id = direction.useForUI ? ids[direction.name ?? direction.title ?? direction.tag] : nil
                tables.trips.append(
                    line: direction.line,
                    [
                        .text(route.tag), .text(NextBusConventions.patternService), .text(trip),
                        .text(direction.title), .integer(id), .text(nil), .text(shapes[direction.tag]),
                    ])
                for (index, stop) in direction.stops.enumerated() {
                    tables.stopTimes.append(line: direction.line, [.text(trip), .integer(0), .integer(0), .text(stop), .integer(index + 1)])
                }
            }
        }
        var serviceClasses: [String] = []
        for (block, file) in schedules {
            guard let directions = directionsByRoute[block.tag] else {
                sink.add(
                    Notice(
                        .nextbusScheduleWithoutRoute, file: file, line: block.line,
                        field: "route/@tag", value: block.tag,
                        message: "The schedule is for a route no routeConfig response describes.", repair: "schedule ignored"))
                continue
            }
            let service = block.serviceClass ?? "nextbus_schedule"
            if !serviceClasses.contains(service) { serviceClasses.append(service) }
            let match = directions.ui.first { ($0.name ?? $0.title) == block.direction }
            let directionId = match.flatMap { directions.ids[$0.name ?? $0.title ?? $0.tag] }
            for (index, row) in block.rows.enumerated() {
                let trip = [block.tag, block.scheduleClass ?? "", service, block.direction ?? "", String(index + 1)].joined(separator: "/")
                tables.trips.append(
                    line: row.line,
                    [
                        .text(block.tag), .text(service), .text(trip), .text(match?.title),
                        .integer(directionId), .text(row.block), .text(nil),
                    ])
                for time in row.times {
                    tables.stopTimes.append(
                        line: row.line,
                        [
                            .text(trip), .integer(time.seconds), .integer(time.seconds),
                            .text(time.tag), .integer(time.column + 1),
                        ])
                }
            }
        }
        tables.calendar(patterns: NextBusConventions.patternService, serviceClasses: serviceClasses)
        reportAssumptions(listedOnly: listed.keys.filter { tag in !configs.contains { $0.route.tag == tag } }.count)
        let zone = configuredZone ?? assumedZone(longitudes)
        for agency in agencies {
            tables.agency.append(
                line: 1,
                [
                    .text(agency.id), .text(agency.name),
                    .text(LegacyPlaceholders.agencyURL("nextbus", agency.id)), .text(zone),
                ])
        }
        return tables.feed()
    }

    private func color(_ text: String?) -> String? {
        guard let text, text.count == 6, text.allSatisfy(\.isHexDigit) else { return nil }
        return text.uppercased()
    }

    private func assumedZone(_ longitudes: [Double]) -> String {
        let mean = longitudes.isEmpty ? -80 : longitudes.reduce(0, +) / Double(longitudes.count)
        let zone = NextBusConventions.timezone(longitude: mean)
        sink.add(
            Notice(
                .legacyTimezoneAssumed, value: zone,
                message: "NextBus responses carry no time zone; it was guessed from the stops' longitude.",
                repair: "\(zone) assumed; set `timezone:` on the source to be sure"))
        return zone
    }

    private func reportAssumptions(listedOnly: Int) {
        if !configs.isEmpty {
            sink.add(
                Notice(
                    .nextbusRouteTypeAssumed, value: String(configs.count),
                    message: "NextBus does not say what vehicles run; every route is compiled as a bus route (3)."))
        }
        if listedOnly > 0 {
            sink.add(
                Notice(
                    .nextbusRoutesListedOnly, value: String(listedOnly),
                    message: "Routes named by a routeList response but described by no routeConfig response are not compiled."))
        }
    }
}

/// The table builders of a NextBus source.
private struct Tables {
    let sink: NoticeSink
    var agency, stops, routes, trips, stopTimes, shapes, calendarTable: TableBuilder

    init(sink: NoticeSink) {
        self.sink = sink
        let file = "nextbus"
        agency = TableBuilder(GTFSSchema.agency, fields: ["agency_id", "agency_name", "agency_url", "agency_timezone"], file: file, sink: sink)
        stops = TableBuilder(GTFSSchema.stops, fields: ["stop_id", "stop_code", "stop_name", "stop_lat", "stop_lon"], file: file, sink: sink)
        routes = TableBuilder(
            GTFSSchema.routes,
            fields: [
                "route_id", "agency_id", "route_short_name", "route_long_name", "route_type",
                "route_color", "route_text_color",
            ], file: file, sink: sink)
        trips = TableBuilder(
            GTFSSchema.trips,
            fields: [
                "route_id", "service_id", "trip_id", "trip_headsign", "direction_id", "block_id",
                "shape_id",
            ], file: file, sink: sink)
        stopTimes = TableBuilder(
            GTFSSchema.stopTimes, fields: ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence"],
            file: file, sink: sink)
        shapes = TableBuilder(GTFSSchema.shapes, fields: ["shape_id", "shape_pt_lat", "shape_pt_lon", "shape_pt_sequence"], file: file, sink: sink)
        calendarTable = TableBuilder(GTFSSchema.calendar, fields: GTFSSchema.calendar.fields.map(\.name), file: file, sink: sink)
    }

    /// Shapes of a route; returns the shape id of each direction that has tagged path segments.
    mutating func addShapes(_ route: NextBusDocument.Route) -> [String: String] {
        let tags = route.directions.map(\.tag).sorted { $0.count > $1.count }
        var segments: [String: [(order: Int, path: Int)]] = [:]
        var untagged: [Int] = []
        for (index, path) in route.paths.enumerated() {
            var used = false
            for id in path.tags {
                guard let tag = tags.first(where: { id.hasPrefix($0 + "_") }) else { continue }
                let order = Int(id.dropFirst(tag.count + 1).prefix { $0.isNumber }) ?? 0
                segments[tag, default: []].append((order, index))
                used = true
            }
            if !used { untagged.append(index) }
        }
        var ids: [String: String] = [:]
        for direction in route.directions {
            guard let parts = segments[direction.tag] else { continue }
            var points: [(latitude: Double, longitude: Double)] = []
            for part in parts.sorted(by: { ($0.order, $0.path) < ($1.order, $1.path) }) {
                for point in route.paths[part.path].points {
                    if let last = points.last, last == point { continue }
                    points.append(point)
                }
            }
            let id = "\(route.tag)/\(direction.tag)"
            append(shape: id, points, line: route.paths[parts[0].path].line)
            ids[direction.tag] = id
        }
        for index in untagged {
            append(shape: "\(route.tag)/path\(index + 1)", route.paths[index].points, line: route.paths[index].line)
        }
        return ids
    }

    private mutating func append(shape id: String, _ points: [(latitude: Double, longitude: Double)], line: Int) {
        for (sequence, point) in points.enumerated() {
            shapes.append(line: line, [.text(id), .real(point.latitude), .real(point.longitude), .integer(sequence + 1)])
        }
    }

    mutating func calendar(patterns: String, serviceClasses: [String]) {
        let range: [LegacyValue] = [.integer(NextBusConventions.serviceStart), .integer(NextBusConventions.serviceEnd)]
        calendarTable.append(line: 1, [.text(patterns)] + Array(repeating: LegacyValue.integer(0), count: 7) + range)
        for service in serviceClasses {
            var days = NextBusConventions.days(of: service)
            if days == nil {
                sink.add(
                    Notice(
                        .nextbusUnknownServiceClass, field: "route/@serviceClass", value: service,
                        message: "The service class names no days NextBus conventions know.", repair: "runs on no day"))
                days = [0, 0, 0, 0, 0, 0, 0]
            }
            calendarTable.append(line: 1, [.text(service)] + days!.map { LegacyValue.integer($0) } + range)
        }
    }

    func feed() -> Feed {
        Feed(tables: [
            "agency": agency.finish(), "stops": stops.finish(), "routes": routes.finish(), "calendar": calendarTable.finish(),
            "calendar_dates": .missing(GTFSSchema.calendarDates), "shapes": shapes.finish(), "trips": trips.finish(),
            "stop_times": stopTimes.finish(),
        ])
    }
}
