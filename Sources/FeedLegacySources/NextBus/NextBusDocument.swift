import FeedXML

/// What one saved NextBus response holds, recognised by its content: the command that produced
/// it is never guessed from the file name.
struct NextBusDocument {
    enum Kind: String {
        case routeConfig, routeList, schedule, agencyList, error, empty
    }

    struct Stop {
        var tag: String
        var title: String?
        var latitude: Double?
        var longitude: Double?
        var stopId: String?
        var line: Int
    }

    struct Direction {
        var tag: String
        var title: String?
        var name: String?
        var useForUI: Bool
        var stops: [String]
        var line: Int
    }

    struct Path {
        var tags: [String]
        var points: [(latitude: Double, longitude: Double)]
        var line: Int
    }

    struct ScheduleRow {
        var block: String?
        /// (stop tag, seconds after midnight) for the stops the trip serves.
        var times: [(tag: String, column: Int, seconds: Int)]
        var line: Int
    }

    /// A `route` element: a routeList entry, a routeConfig route or a schedule block.
    struct Route {
        var tag: String
        var title: String?
        var shortTitle: String?
        var color: String?
        var oppositeColor: String?
        var scheduleClass: String?
        var serviceClass: String?
        var direction: String?
        var hasExtent = false
        var stops: [Stop] = []
        var directions: [Direction] = []
        var paths: [Path] = []
        var header: [String] = []
        var rows: [ScheduleRow] = []
        var line: Int

        var isSchedule: Bool { scheduleClass != nil || serviceClass != nil || !rows.isEmpty }
        var isConfig: Bool { !isSchedule && (hasExtent || !stops.isEmpty || !directions.isEmpty || !paths.isEmpty) }
    }

    var file: String
    var copyright: String?
    var routes: [Route] = []
    var agencies: [(tag: String, title: String)] = []
    var errorText: String?
    var unknownElements: [String: Int] = [:]

    /// The command that produced the response, from what it contains.
    var kind: Kind {
        if errorText != nil { return .error }
        if !agencies.isEmpty { return .agencyList }
        if routes.contains(where: \.isSchedule) { return .schedule }
        if routes.contains(where: \.isConfig) { return .routeConfig }
        return routes.isEmpty ? .empty : .routeList
    }

    /// Streams one response (root `body`).
    static func read(_ reader: XMLStreamReader) throws(XMLError) -> NextBusDocument {
        var document = NextBusDocument(file: reader.file)
        var root: XMLNode?
        while let node = try reader.next() {
            if node.kind == .start {
                root = node
                break
            }
        }
        guard let root else { throw XMLError(.truncated, file: reader.file, "the document has no root element") }
        guard root.name == "body" else {
            throw XMLError(
                .wrongRoot, file: reader.file, line: root.line,
                "the root element is <\(root.name)>, not <body>: this is not a NextBus response")
        }
        document.copyright = root["copyright"]
        while let node = try reader.next() {
            guard node.kind == .start else { continue }
            switch node.name {
            case "route": document.routes.append(try route(node, reader))
            case "agency": if let tag = node["tag"] { document.agencies.append((tag, node["title"] ?? tag)) }
            case "Error": document.errorText = try text(of: node, reader)
            default:
                document.unknownElements[node.name, default: 0] += 1
                try reader.skipElement(node)
            }
        }
        return document
    }

    private static func route(_ start: XMLNode, _ reader: XMLStreamReader) throws(XMLError) -> Route {
        var route = Route(
            tag: start["tag"] ?? "", title: start["title"], shortTitle: start["shortTitle"],
            color: start["color"], oppositeColor: start["oppositeColor"],
            scheduleClass: start["scheduleClass"], serviceClass: start["serviceClass"],
            direction: start["direction"], hasExtent: start["latMin"] != nil, line: start.line)
        while let node = try reader.next() {
            if node.kind == .end && node.depth == start.depth { break }
            guard node.kind == .start else { continue }
            switch node.name {
            case "stop" where node.depth == start.depth + 1:
                if let tag = node["tag"] {
                    route.stops.append(
                        Stop(
                            tag: tag, title: node["title"], latitude: node["lat"].flatMap(Double.init),
                            longitude: node["lon"].flatMap(Double.init), stopId: node["stopId"], line: node.line))
                }
            case "direction":
                var direction = Direction(
                    tag: node["tag"] ?? "", title: node["title"], name: node["name"],
                    useForUI: node["useForUI"] == "true", stops: [], line: node.line)
                while let child = try reader.next(), !(child.kind == .end && child.depth == node.depth) {
                    if child.kind == .start, child.name == "stop", let tag = child["tag"] { direction.stops.append(tag) }
                }
                route.directions.append(direction)
            case "path":
                var path = Path(tags: [], points: [], line: node.line)
                while let child = try reader.next(), !(child.kind == .end && child.depth == node.depth) {
                    guard child.kind == .start else { continue }
                    if child.name == "tag", let id = child["id"] { path.tags.append(id) }
                    if child.name == "point", let lat = child["lat"].flatMap(Double.init), let lon = child["lon"].flatMap(Double.init) {
                        path.points.append((lat, lon))
                    }
                }
                route.paths.append(path)
            case "header":
                while let child = try reader.next(), !(child.kind == .end && child.depth == node.depth) {
                    if child.kind == .start, child.name == "stop" { route.header.append(child["tag"] ?? "") }
                }
            case "tr":
                var row = ScheduleRow(block: node["blockID"], times: [], line: node.line)
                var column = 0
                while let child = try reader.next(), !(child.kind == .end && child.depth == node.depth) {
                    guard child.kind == .start, child.name == "stop" else { continue }
                    defer { column += 1 }
                    guard let tag = child["tag"], let epoch = child["epochTime"].flatMap({ Int($0) }), epoch >= 0 else { continue }
                    row.times.append((tag, column, epoch / 1000))
                }
                route.rows.append(row)
            default:
                try reader.skipElement(node)
            }
        }
        return route
    }

    private static func text(of start: XMLNode, _ reader: XMLStreamReader) throws(XMLError) -> String {
        var text = ""
        while let node = try reader.next(), !(node.kind == .end && node.depth == start.depth) {
            if node.kind == .text { text += node.text }
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
