import FeedModel

/// With several agencies, `agency_id` is required in agency.txt and routes.txt
/// (`missing_required_field`, error). Repair: an agency without an id after the first is dropped
/// (no route can refer to it); a route without an agency is given the first agency.
public struct AgencyIdRule: ValidationRule {
    public init() {}

    public func apply(to feed: inout Feed, sink: NoticeSink) {
        let agency = feed.agency
        guard agency.count > 1 else { return }
        let ids = agency.texts("agency_id")
        var keep = Array(repeating: true, count: agency.count)
        var seenWithoutId = false
        for row in 0..<agency.count where ids[row] == nil {
            if seenWithoutId { keep[row] = false }
            seenWithoutId = true
            sink.add(Notice(code: "missing_required_field", severity: .error, file: "agency.txt", line: Int(agency.lines[row]),
                            field: "agency_id", message: "A feed with several agencies needs an agency_id on each.",
                            repair: keep[row] ? "kept as the agency with an empty id" : "row dropped"))
        }
        let removed = keep.lazy.filter { !$0 }.count
        if removed > 0 {
            sink.dropped(removed, from: agency)
            feed["agency"] = agency.keeping(keep)
        }
        let routes = feed.routes
        let routeAgencies = routes.texts("agency_id")
        for row in 0..<routes.count where routeAgencies[row] == nil {
            sink.add(code: "missing_required_field") {
                Notice(code: "missing_required_field", severity: .error, file: "routes.txt", line: Int(routes.lines[row]),
                       field: "agency_id", message: "A feed with several agencies needs an agency_id on each route.",
                       repair: "the route is given the first agency")
            }
        }
    }
}
