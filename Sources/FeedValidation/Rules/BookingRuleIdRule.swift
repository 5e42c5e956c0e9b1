import FeedModel

/// GTFS-Flex stop times that riders must book (`pickup_type` or `drop_off_type` 2, with a
/// pickup/drop-off window) should name their booking rule (`missing_pickup_drop_off_booking_rule_id`,
/// warning, one per missing rule), checked as MobilityData does when the dump has
/// booking_rules.txt. Reported only: bundles leave GTFS-Flex stop times out.
struct BookingRuleIdRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let stopTimes = feed.stopTimes
        guard feed.dumpFiles.contains("booking_rules.txt"), stopTimes.has(.pickupType) || stopTimes.has(.dropOffType) else { return }
        let checks = [
            (
                stopTimes.integers(.pickupType), stopTimes.integers(.startPickupDropOffWindow), stopTimes.texts(.pickupBookingRuleId),
                "pickup_booking_rule_id"
            ),
            (
                stopTimes.integers(.dropOffType), stopTimes.integers(.endPickupDropOffWindow), stopTimes.texts(.dropOffBookingRuleId),
                "drop_off_booking_rule_id"
            ),
        ]
        for row in 0..<stopTimes.count {
            for (types, windows, rules, field) in checks where types[row] == 2 && windows[row] != Column.nullInteger && rules[row] == nil {
                sink.add(.missingPickupDropOffBookingRuleId) {
                    Notice(
                        .missingPickupDropOffBookingRuleId, file: "stop_times.txt",
                        line: Int(stopTimes.lines[row]), field: field, message: "A stop time riders must book names no booking rule.")
                }
            }
        }
    }
}
