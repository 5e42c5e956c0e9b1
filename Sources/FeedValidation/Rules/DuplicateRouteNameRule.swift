import FeedModel

/// Routes of one agency and `route_type` should not share both `route_short_name` and
/// `route_long_name` (`duplicate_route_name`, warning, one per route repeating an earlier one),
/// as MobilityData compares them. Reported only: they stay separate lines.
struct DuplicateRouteNameRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let routes = feed.routes
        let shorts = routes.texts(.routeShortName), longs = routes.texts(.routeLongName)
        let types = routes.integers(.routeType), agencies = routes.texts(.agencyId), ids = routes.texts(.routeId)
        var first: [String: Int] = [:]
        for row in 0..<routes.count {
            let key = [longs[row] ?? "", shorts[row] ?? "", String(types[row]), agencies[row] ?? ""].joined(separator: "\u{1F}")
            guard let earlier = first[key] else {
                first[key] = row
                continue
            }
            sink.add(.duplicateRouteName) {
                Notice(
                    .duplicateRouteName, file: "routes.txt", line: Int(routes.lines[row]),
                    field: "route_short_name", value: shorts[row] ?? longs[row],
                    message: "Route \(ids[row] ?? "") has the names, agency and type of route \(ids[earlier] ?? "") (line \(routes.lines[earlier])).")
            }
        }
    }
}
