import FeedModel

/// With several agencies, `agency_id` is required in agency.txt, routes.txt and
/// fare_attributes.txt (`missing_required_agency_id`, error, one per row; fares are not compiled
/// and only reported). Repair: an agency without an id after the
/// first is dropped (no route can refer to it); a route without an agency is given the first
/// agency. All agencies must share one time zone (`inconsistent_agency_timezone`, error; reported
/// only: the bundle keeps each agency's). With one agency, the ids are recommended
/// (`missing_recommended_field`, warning, one per row; reported only).
struct AgencyIdRule: ValidationRule {
    init() {}

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let agency = feed.agency
        guard agency.count > 1 else {
            recommendIds(feed, sink)
            return
        }
        let ids = agency.texts(.agencyId)
        var keep = Array(repeating: true, count: agency.count)
        var seenWithoutId = false
        for row in 0..<agency.count where ids[row] == nil {
            if seenWithoutId { keep[row] = false }
            seenWithoutId = true
            sink.add(
                Notice(
                    .missingRequiredAgencyId, file: "agency.txt", line: Int(agency.lines[row]),
                    field: "agency_id", message: "A feed with several agencies needs an agency_id on each.",
                    repair: keep[row] ? "kept as the agency with an empty id" : "row dropped"))
        }
        let zones = agency.texts(.agencyTimezone)
        for row in 1..<agency.count where zones[row] != nil && zones[0] != nil && zones[row] != zones[0] {
            sink.add(
                Notice(
                    .inconsistentAgencyTimezone, file: "agency.txt", line: Int(agency.lines[row]),
                    field: "agency_timezone", value: zones[row],
                    message: "The agencies of a feed must share one time zone; the first has \(zones[0]!)."))
        }
        let removed = keep.lazy.filter { !$0 }.count
        if removed > 0 {
            sink.dropped(removed, from: agency)
            feed["agency"] = agency.keeping(keep)
        }
        let fares = feed["fare_attributes"]
        for (row, id) in fares.texts(.agencyId).enumerated() where id == nil {
            sink.add(.missingRequiredAgencyId) {
                Notice(
                    .missingRequiredAgencyId, file: "fare_attributes.txt", line: Int(fares.lines[row]),
                    field: "agency_id", message: "A feed with several agencies needs an agency_id on each fare.")
            }
        }
        let routes = feed.routes
        let routeAgencies = routes.texts(.agencyId)
        for row in 0..<routes.count where routeAgencies[row] == nil {
            sink.add(.missingRequiredAgencyId) {
                Notice(
                    .missingRequiredAgencyId, file: "routes.txt", line: Int(routes.lines[row]),
                    field: "agency_id", message: "A feed with several agencies needs an agency_id on each route.",
                    repair: "the route is given the first agency")
            }
        }
    }
}

extension AgencyIdRule {
    /// One agency: `agency_id` is recommended in agency.txt, routes.txt and fare_attributes.txt.
    private func recommendIds(_ feed: Feed, _ sink: NoticeSink) {
        for name in ["agency", "routes", "fare_attributes"] {
            let table = feed[name]
            guard table.isPresent else { continue }
            for (row, id) in table.texts(.agencyId).enumerated() where id == nil {
                sink.add(.missingRecommendedField) {
                    Notice(
                        .missingRecommendedField, file: table.schema.fileName,
                        line: Int(table.lines[row]), field: "agency_id", message: "agency_id is recommended even with one agency.")
                }
            }
        }
    }
}
