import FeedModel
import FeedXML
import Foundation

/// Reads a Kalkati.net `jp_database` XML dump into a GTFS-shaped ``Feed``, streaming, so a dump
/// far larger than memory can be read (only the feed's own tables are held).
///
/// Mapping (details and what is lost: docs/legacy-formats.md):
/// `Company` → agency; `Station` → stops (KKJ grid → WGS84, see ``KKJ``); `Footnote`
/// (`Firstdate` + `Vector`) → calendar_dates, one `exception_type 1` row per running day, service
/// id = `FootnoteId`; `Service` → one trip (trip id = `ServiceId`) of the route named by its
/// first `ServiceNbr` (route id = `ServiceNbr`, or `CompanyId:ServiceNbr` when two companies
/// use one number), on the days of its first `ServiceValidity`, with `route_type` from its
/// `Trnsmode/@ModeType`; `Stop` → stop_times (`Ix` → stop_sequence, `HHMM` times, a time
/// earlier than the previous stop's read as past midnight).
package struct KalkatiReader {
    package let url: URL
    package let options: LegacyReadOptions

    package init(url: URL, options: LegacyReadOptions = LegacyReadOptions()) {
        self.url = url
        self.options = options
    }

    /// The feed, or nil when the dump cannot be read (the sink says why, with a blocking notice).
    package func read(into sink: NoticeSink) -> Feed? {
        var schema: XMLSchema?
        if let schemaURL = options.schema {
            do throws(XMLError) {
                schema = try XMLSchema(contentsOf: schemaURL)
            } catch {
                XMLNotices.schemaUnusable(error, sink: sink)
                return nil
            }
        }
        let reader: XMLStreamReader
        do throws(XMLError) {
            reader = try XMLStreamReader(url: url, schema: schema)
        } catch {
            XMLNotices.refused(error, sink: sink)
            return nil
        }
        var state = KalkatiState(file: url.lastPathComponent, sink: sink)
        do throws(XMLError) {
            try state.read(reader)
        } catch {
            XMLNotices.refused(error, sink: sink)
            return nil
        }
        if let schema { XMLNotices.violations(of: reader, schema: schema.name, sink: sink) }
        return state.feed(timezone: options.timezone)
    }
}

/// The reading state: lookups from the dump's head and the tables being built.
struct KalkatiState {
    let file: String
    let sink: NoticeSink
    private var agency: TableBuilder
    private var stops: TableBuilder
    private var calendarDates: TableBuilder
    private var stopTimes: TableBuilder
    private var companies: [(id: String, name: String, line: Int)] = []
    private var language: String?
    private var countries: [String: Int] = [:]
    private var modes: [String: Int] = [:]
    private var deliveryStart: Int?
    private var routes = KalkatiRoutes()
    private var trips: [(route: Int, service: String?, trip: String, line: Int)] = []
    private var service: KalkatiService?
    private var skipped: [String: Int] = [:]
    private var stationIds: [String: String] = [:]

    init(file: String, sink: NoticeSink) {
        self.file = file
        self.sink = sink
        agency = TableBuilder(GTFSSchema.agency, fields: ["agency_id", "agency_name", "agency_url", "agency_timezone", "agency_lang"], file: file, sink: sink)
        stops = TableBuilder(GTFSSchema.stops, fields: ["stop_id", "stop_name", "stop_lat", "stop_lon"], file: file, sink: sink)
        calendarDates = TableBuilder(GTFSSchema.calendarDates, fields: ["service_id", "date", "exception_type"], file: file, sink: sink)
        stopTimes = TableBuilder(
            GTFSSchema.stopTimes, fields: ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence"], file: file, sink: sink)
    }

    mutating func read(_ reader: XMLStreamReader) throws(XMLError) {
        guard let root = try firstElement(reader) else { return }
        guard root.name == "jp_database" else {
            throw XMLError(
                .wrongRoot, file: file, line: root.line,
                "the root element is <\(root.name)>, not <jp_database>: this is not a Kalkati.net dump")
        }
        while let node = try reader.next() {
            switch node.kind {
            case .start: try start(node, reader)
            case .end: if node.name == "Service" { endService() }
            case .text: continue
            }
        }
    }

    private func firstElement(_ reader: XMLStreamReader) throws(XMLError) -> XMLNode? {
        while let node = try reader.next() {
            if node.kind == .start { return node }
        }
        throw XMLError(.truncated, file: file, "the document has no root element")
    }

    private mutating func start(_ node: XMLNode, _ reader: XMLStreamReader) throws(XMLError) {
        switch node.name {
        case "Delivery":
            deliveryStart = node["Firstday"].flatMap(CivilDate.parse)
        case "Language":
            if language == nil || node["isDefault"] == "true" || node["isDefault"] == "1" { language = node["LanguageId"]?.lowercased() }
        case "Company":
            if let id = node["CompanyId"] {
                companies.append((id, node["Name"] ?? node["Code"] ?? id, node.line))
            }
        case "Station":
            station(node)
        case "Trnsmode":
            if let id = node["TrnsmodeId"] { modes[id] = node["ModeType"].flatMap { Int($0) } ?? Int.min }
        case "Footnote":
            footnote(node)
        case "Synonym", "Change", "Thrusrvc", "Trnsattr", "Country", "Timezone":
            if node.name != "Country" && node.name != "Timezone" { skipped[node.name, default: 0] += 1 }
            try reader.skipElement(node)
        case "Service":
            service = KalkatiService(id: node["ServiceId"], line: node.line)
        case "ServiceNbr", "ServiceValidity", "ServiceTrnsmode", "Stop":
            if var current = service {
                service = nil
                current.add(node, state: &self)
                service = current
            }
        default:
            break
        }
    }

    private mutating func station(_ node: XMLNode) {
        guard let id = node["StationId"] else { return }
        stationIds[id] = id
        if let country = node["CountryId"] { countries[country, default: 0] += 1 }
        var latitude: Double?, longitude: Double?
        if let x = node["X"].flatMap(Double.init), let y = node["Y"].flatMap(Double.init) {
            // YKJ northings (6.6–7.8 million) always exceed eastings (3.0–3.8 million).
            if let position = KKJ.wgs84(northing: max(x, y), easting: min(x, y)) {
                latitude = position.latitude
                longitude = position.longitude
            } else {
                sink.add(.kalkatiInvalidCoordinates) {
                    Notice(
                        .kalkatiInvalidCoordinates, file: file, line: node.line,
                        field: "Station/@X,@Y", value: "\(x),\(y)",
                        message: "The coordinates are not a KKJ grid position in Finland.", repair: "position left empty")
                }
            }
        }
        stops.append(line: node.line, [.text(id), .text(node["Name"]), .real(latitude), .real(longitude)])
    }

    private mutating func footnote(_ node: XMLNode) {
        guard let id = node["FootnoteId"], let vector = node["Vector"] else { return }
        guard let first = node["Firstdate"].flatMap(CivilDate.parse) ?? deliveryStart else {
            sink.add(
                Notice(
                    .kalkatiFootnoteWithoutDate, file: file, line: node.line,
                    field: "Footnote/@Firstdate", value: id,
                    message: "The footnote has no Firstdate and the Delivery no Firstday.", repair: "footnote ignored"))
            return
        }
        for (offset, bit) in vector.utf8.enumerated() where bit == UInt8(ascii: "1") {
            calendarDates.append(line: node.line, [.text(id), .integer(CivilDate.yyyymmdd(first + offset)), .integer(1)])
        }
    }

    mutating func stopTime(trip: String, arrival: Int?, departure: Int?, station: String, sequence: Int, line: Int) {
        let stop = stationIds[station] ?? station
        stopTimes.append(line: line, [.text(trip), .integer(arrival), .integer(departure), .text(stop), .integer(sequence)])
    }

    mutating func report(
        _ kind: NoticeKind, line: Int, field: String, value: String?,
        _ message: String, repair: String? = nil
    ) {
        sink.add(kind) {
            Notice(kind, file: file, line: line, field: field, value: value, message: message, repair: repair)
        }
    }

    private mutating func endService() {
        guard let done = service else { return }
        service = nil
        guard let trip = done.id else { return }
        guard let company = done.company, let number = done.number else {
            report(
                .kalkatiServiceWithoutNumber, line: done.line, field: "Service/ServiceNbr", value: trip,
                "The service has no usable ServiceNbr.", repair: "trip dropped")
            return
        }
        let mode = done.mode.flatMap { modes[$0] }
        let (type, known) = KalkatiValues.routeType(mode == Int.min ? nil : mode)
        if !known {
            report(
                .kalkatiUnknownMode, line: done.line, field: "Trnsmode/@ModeType", value: mode.map(String.init),
                "The transport mode has no GTFS route type.", repair: "read as bus (3)")
        }
        let route = routes.index(company: company, number: number, name: done.name, type: type, line: done.line)
        trips.append((route, done.footnote, trip, done.line))
    }

    /// The finished feed.
    mutating func feed(timezone configured: String?) -> Feed {
        if !skipped.isEmpty {
            sink.add(
                Notice(
                    .kalkatiElementsNotCompiled, file: file,
                    value: skipped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "),
                    message: "These Kalkati elements have no GTFS counterpart here and are not compiled."))
        }
        let country = countries.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        var zone = configured ?? country.flatMap(KalkatiValues.timezone)
        if zone == nil {
            zone = "Europe/Helsinki"
            sink.add(
                Notice(
                    .legacyTimezoneAssumed, file: file,
                    value: country, message: "No time zone configured or known for the dump's country.",
                    repair: "Europe/Helsinki assumed"))
        }
        for company in companies {
            agency.append(
                line: company.line,
                [
                    .text(company.id), .text(company.name),
                    .text(LegacyPlaceholders.agencyURL("kalkati", company.id)), .text(zone), .text(language),
                ])
        }
        var routeTable = TableBuilder(
            GTFSSchema.routes, fields: ["route_id", "agency_id", "route_short_name", "route_long_name", "route_type"], file: file, sink: sink)
        let ids = routes.ids()
        for (index, route) in routes.all.enumerated() {
            routeTable.append(line: route.line, [.text(ids[index]), .text(route.company), .text(route.number), .text(route.name), .integer(route.type)])
        }
        var tripTable = TableBuilder(GTFSSchema.trips, fields: ["route_id", "service_id", "trip_id"], file: file, sink: sink)
        for trip in trips {
            tripTable.append(line: trip.line, [.text(ids[trip.route]), .text(trip.service), .text(trip.trip)])
        }
        return Feed(tables: [
            "agency": agency.finish(), "stops": stops.finish(), "routes": routeTable.finish(),
            "calendar": .missing(GTFSSchema.calendar), "calendar_dates": calendarDates.finish(),
            "trips": tripTable.finish(), "stop_times": stopTimes.finish(),
        ])
    }
}
