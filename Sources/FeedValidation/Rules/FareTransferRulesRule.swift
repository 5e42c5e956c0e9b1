import FeedModel

/// fare_transfer_rules.txt, checked though bundles do not hold fares, as MobilityData's
/// `FareTransferRuleDurationLimitTypeValidator` and `FareTransferRuleTransferCountValidator`
/// (errors, one per row and problem). Reported only.
///
/// - `fare_transfer_rule_duration_limit_without_type`, `fare_transfer_rule_duration_limit_type_without_duration_limit`:
///   `duration_limit` and `duration_limit_type` go together.
/// - `transfer_count` belongs to a transfer from a leg group to the same group:
///   `fare_transfer_rule_without_transfer_count` when such a row lacks it,
///   `fare_transfer_rule_invalid_transfer_count` when it is 0 or below -1 (-1 is "no limit"),
///   `fare_transfer_rule_with_forbidden_transfer_count` when the groups differ (or one is missing).
struct FareTransferRulesRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let rules = feed["fare_transfer_rules"]
        guard rules.isPresent, !rules.isEmpty else { return }
        let from = rules.texts(.fromLegGroupId), to = rules.texts(.toLegGroupId)
        let limits = rules.integers(.durationLimit), limitTypes = rules.integers(.durationLimitType)
        let counts = rules.integers(.transferCount)
        for row in 0..<rules.count {
            func report(_ kind: NoticeKind, _ field: String, _ value: Int?, _ message: String) {
                sink.add(kind) {
                    Notice(
                        kind, file: "fare_transfer_rules.txt", line: Int(rules.lines[row]),
                        field: field, value: value.map(String.init), message: message)
                }
            }
            let hasLimit = limits[row] != Column.nullInteger, hasType = limitTypes[row] != Column.nullInteger
            if hasLimit && !hasType {
                report(
                    .fareTransferRuleDurationLimitWithoutType, "duration_limit_type", nil,
                    "A duration_limit needs a duration_limit_type.")
            } else if hasType && !hasLimit {
                report(
                    .fareTransferRuleDurationLimitTypeWithoutDurationLimit, "duration_limit", nil,
                    "A duration_limit_type needs a duration_limit.")
            }
            let count = counts[row] == Column.nullInteger ? nil : counts[row]
            if let from = from[row], let to = to[row], from == to {
                if let count {
                    if count < -1 || count == 0 {
                        report(
                            .fareTransferRuleInvalidTransferCount, "transfer_count", count,
                            "transfer_count must be -1 (no limit) or at least 1.")
                    }
                } else {
                    report(
                        .fareTransferRuleWithoutTransferCount, "transfer_count", nil,
                        "A transfer within one leg group (\(from)) needs a transfer_count.")
                }
            } else if let count {
                report(
                    .fareTransferRuleWithForbiddenTransferCount, "transfer_count", count,
                    "transfer_count is only for transfers within one leg group.")
            }
        }
    }
}
