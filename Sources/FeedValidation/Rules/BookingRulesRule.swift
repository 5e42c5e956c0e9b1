import FeedModel

/// booking_rules.txt, checked though bundles do not hold GTFS-Flex, as MobilityData's
/// `BookingRulesEntityValidator` (all errors, one per rule row and problem). Reported only.
///
/// - `forbidden_real_time_booking_field_value`, `forbidden_same_day_booking_field_value`,
///   `forbidden_prior_day_booking_field_value`: a prior-notice field the `booking_type` forbids
///   (0 real time: every one; 1 same day: last day, last time, service id; 2 prior day: the
///   durations), one notice naming them all.
/// - `missing_prior_notice_duration_min` (same-day booking), `invalid_prior_notice_duration_min`
///   (the maximum below the minimum), `forbidden_prior_notice_start_day` (beside a maximum),
///   `prior_notice_last_day_after_start_day`, `missing_prior_notice_last_day` and
///   `missing_prior_notice_last_time` (prior-day booking), `forbidden_prior_notice_start_time`
///   (without a start day) and `missing_prior_notice_start_time` (with one).
struct BookingRulesRule: ValidationRule {
    init() {}

    /// The prior-notice fields each `booking_type` forbids, in MobilityData's order.
    static let forbidden: [Int: (kind: NoticeKind, fields: [String])] = [
        0: (
            .forbiddenRealTimeBookingFieldValue,
            [
                "prior_notice_duration_min", "prior_notice_duration_max", "prior_notice_last_day", "prior_notice_last_time",
                "prior_notice_start_day", "prior_notice_start_time", "prior_notice_service_id",
            ]
        ),
        1: (.forbiddenSameDayBookingFieldValue, ["prior_notice_last_day", "prior_notice_last_time", "prior_notice_service_id"]),
        2: (.forbiddenPriorDayBookingFieldValue, ["prior_notice_duration_min", "prior_notice_duration_max"]),
    ]

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let rules = feed["booking_rules"]
        guard rules.isPresent, !rules.isEmpty else { return }
        let ids = rules.texts(.bookingRuleId), types = rules.integers(.bookingType)
        let columns = Dictionary(uniqueKeysWithValues: rules.schema.fields.map { ($0.name, rules.column($0.key)) })
        let durationMin = rules.integers(.priorNoticeDurationMin), durationMax = rules.integers(.priorNoticeDurationMax)
        let startDay = rules.integers(.priorNoticeStartDay), lastDay = rules.integers(.priorNoticeLastDay)
        for row in 0..<rules.count {
            func report(_ kind: NoticeKind, _ field: String?, _ message: String) {
                sink.add(kind) {
                    Notice(
                        kind, file: "booking_rules.txt", line: Int(rules.lines[row]),
                        field: field, value: ids[row], message: message)
                }
            }
            let has = { (field: String) in columns[field]?.hasValue(row) ?? false }
            let hasKey = { (field: FieldKey) in has(field.name) }
            if let (kind, fields) = Self.forbidden[types[row]] {
                let found = fields.filter(has)
                if !found.isEmpty {
                    report(kind, found.joined(separator: ", "), "booking_type \(types[row]) forbids \(found.joined(separator: ", ")).")
                }
            }
            if types[row] == 1 && !hasKey(.priorNoticeDurationMin) {
                report(.missingPriorNoticeDurationMin, "prior_notice_duration_min", "A same-day booking rule needs prior_notice_duration_min.")
            }
            if hasKey(.priorNoticeDurationMin) && hasKey(.priorNoticeDurationMax) && durationMax[row] < durationMin[row] {
                report(
                    .invalidPriorNoticeDurationMin, "prior_notice_duration_min",
                    "prior_notice_duration_max (\(durationMax[row])) is less than prior_notice_duration_min (\(durationMin[row])).")
            }
            if hasKey(.priorNoticeDurationMax) && hasKey(.priorNoticeStartDay) {
                report(.forbiddenPriorNoticeStartDay, "prior_notice_start_day", "prior_notice_start_day is forbidden beside prior_notice_duration_max.")
            }
            if hasKey(.priorNoticeLastDay) && hasKey(.priorNoticeStartDay) && lastDay[row] > startDay[row] {
                report(
                    .priorNoticeLastDayAfterStartDay, "prior_notice_last_day",
                    "prior_notice_last_day (\(lastDay[row])) is after prior_notice_start_day (\(startDay[row])).")
            }
            if types[row] == 2 {
                if !hasKey(.priorNoticeLastDay) {
                    report(.missingPriorNoticeLastDay, "prior_notice_last_day", "A prior-day booking rule needs prior_notice_last_day.")
                }
                if !hasKey(.priorNoticeLastTime) {
                    report(.missingPriorNoticeLastTime, "prior_notice_last_time", "A prior-day booking rule needs prior_notice_last_time.")
                }
            }
            if hasKey(.priorNoticeStartTime) && !hasKey(.priorNoticeStartDay) {
                report(.forbiddenPriorNoticeStartTime, "prior_notice_start_time", "prior_notice_start_time is forbidden without prior_notice_start_day.")
            }
            if !hasKey(.priorNoticeStartTime) && hasKey(.priorNoticeStartDay) {
                report(.missingPriorNoticeStartTime, "prior_notice_start_time", "prior_notice_start_day needs prior_notice_start_time.")
            }
        }
    }
}
