import FeedModel

/// A route's or stop's URL should lead to its own page, not the agency's (or, for a stop, its
/// route's), as MobilityData compares them, ignoring case (warnings, one per matching pair;
/// reported only): `same_route_and_agency_url`, `same_stop_and_agency_url`,
/// `same_stop_and_route_url`.
struct UrlConsistencyRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let agency = feed.agency, routes = feed.routes, stops = feed.stops
        var agencies: [String: Int] = [:]
        for case let url? in agency.texts(.agencyUrl) { agencies[url.lowercased(), default: 0] += 1 }
        var routesByURL: [String: Int] = [:]
        let routeURLs = routes.texts(.routeUrl)
        for case let url? in routeURLs { routesByURL[url.lowercased(), default: 0] += 1 }
        func report(_ kind: NoticeKind, _ table: Table, _ row: Int, _ field: String, _ url: String, _ times: Int, _ other: String) {
            for _ in 0..<times {
                sink.add(kind) {
                    Notice(
                        kind, file: table.schema.fileName, line: Int(table.lines[row]), field: field,
                        value: url, message: "The URL is the \(other)'s; it should lead to a page of its own.")
                }
            }
        }
        for (row, url) in routeURLs.enumerated() {
            guard let url, let n = agencies[url.lowercased()] else { continue }
            report(.sameRouteAndAgencyUrl, routes, row, "route_url", url, n, "agency")
        }
        for (row, url) in stops.texts(.stopUrl).enumerated() {
            guard let url else { continue }
            if let n = agencies[url.lowercased()] { report(.sameStopAndAgencyUrl, stops, row, "stop_url", url, n, "agency") }
            if let n = routesByURL[url.lowercased()] { report(.sameStopAndRouteUrl, stops, row, "stop_url", url, n, "route") }
        }
    }
}
