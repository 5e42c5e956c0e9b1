import FeedModel

/// Networks, checked though bundles do not hold fares, as MobilityData's
/// `NetworkIdConsistencyValidator` and `FareLegJoinRuleValidator` (errors). Reported only; the
/// references to networks are the schema's (``GTFSSchema/fareLegRules``).
///
/// - `route_networks_specified_in_more_than_one_file`: routes.txt has a `network_id` column and
///   the dump also has route_networks.txt, or networks.txt: one notice per such file.
/// - `missing_required_field`: a fare_leg_join_rules.txt row with one of `from_stop_id` and
///   `to_stop_id` but not the other, on the missing field.
struct FareNetworkRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        if feed.routes.has(.networkId) {
            for name in ["route_networks", "networks"] where feed[name].isPresent {
                sink.add(.routeNetworksSpecifiedInMoreThanOneFile) {
                    Notice(
                        .routeNetworksSpecifiedInMoreThanOneFile, file: "routes.txt",
                        field: "network_id", value: "\(name).txt",
                        message: "Routes are given networks both by routes.network_id and by \(name).txt.")
                }
            }
        }
        let joins = feed["fare_leg_join_rules"]
        guard joins.isPresent else { return }
        let from = joins.texts(.fromStopId), to = joins.texts(.toStopId)
        for row in 0..<joins.count where (from[row] == nil) != (to[row] == nil) {
            sink.add(.missingRequiredField) {
                Notice(
                    .missingRequiredField, file: "fare_leg_join_rules.txt", line: Int(joins.lines[row]),
                    field: from[row] == nil ? "from_stop_id" : "to_stop_id",
                    message: "from_stop_id and to_stop_id are both given or both left out.")
            }
        }
    }
}
