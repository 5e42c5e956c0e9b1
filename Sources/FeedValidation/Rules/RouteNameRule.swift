import FeedModel

/// A route needs a short or a long name for riders to recognise it
/// (`route_both_short_and_long_name_missing`, error). Reported only: apps fall back to the
/// route id, and the bundle stays correct.
struct RouteNameRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let routes = feed.routes
        let shortNames = routes.texts(.routeShortName)
        let longNames = routes.texts(.routeLongName)
        let ids = routes.texts(.routeId)
        for row in 0..<routes.count where shortNames[row] == nil && longNames[row] == nil {
            sink.add(.routeBothShortAndLongNameMissing) {
                Notice(
                    .routeBothShortAndLongNameMissing, file: "routes.txt",
                    line: Int(routes.lines[row]), field: "route_id", value: ids[row],
                    message: "The route has neither a short nor a long name.")
            }
        }
    }
}
