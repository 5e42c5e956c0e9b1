import FeedModel
import Testing

@testable import FeedValidation

/// BookingRulesRule alone on in-memory booking rules: each row breaks one prior-notice rule of
/// its `booking_type` (0 real time, 1 same day, 2 prior day).
@Suite struct BookingRulesRuleInMemoryTests {
    private func rule(_ id: String, _ type: Int, _ fields: InMemoryRow = [:]) -> InMemoryRow {
        fields.merging([.bookingRuleId: .text(id), .bookingType: .integer(type)]) { $1 }
    }

    @Test func eachPriorNoticeProblemIsReported() throws {
        let run = RuleRun(
            BookingRulesRule(),
            on: InMemoryFeed.feed([
                "booking_rules": [
                    rule("REAL", 0, [.priorNoticeDurationMin: 30]),
                    rule("SAME_NO_MIN", 1),
                    rule("SAME_MAX_BELOW_MIN", 1, [.priorNoticeDurationMin: 60, .priorNoticeDurationMax: 30]),
                    rule("PRIOR_NO_LAST", 2),
                    rule("PRIOR_LAST_AFTER_START", 2, [.priorNoticeLastDay: 3, .priorNoticeLastTime: .time("17:00:00"), .priorNoticeStartDay: 1]),
                    rule(
                        "SAME_MAX_AND_START", 1,
                        [
                            .priorNoticeDurationMin: 30, .priorNoticeDurationMax: 600, .priorNoticeStartDay: 2,
                            .priorNoticeStartTime: .time("08:00:00"),
                        ]),
                    rule("SAME_START_TIME_ONLY", 1, [.priorNoticeDurationMin: 30, .priorNoticeStartTime: .time("08:00:00")]),
                    rule("SAME_LAST_DAY", 1, [.priorNoticeDurationMin: 30, .priorNoticeLastDay: 1]),
                    rule("PRIOR_MAX", 2, [.priorNoticeLastDay: 1, .priorNoticeLastTime: .time("17:00:00"), .priorNoticeDurationMax: 60]),
                ]
            ]))
        let expected: [(NoticeKind, String)] = [
            (.forbiddenRealTimeBookingFieldValue, "booking_rules.txt:2 prior_notice_duration_min=\"REAL\""),
            (.missingPriorNoticeDurationMin, "booking_rules.txt:3 prior_notice_duration_min=\"SAME_NO_MIN\""),
            (.invalidPriorNoticeDurationMin, "booking_rules.txt:4 prior_notice_duration_min=\"SAME_MAX_BELOW_MIN\""),
            (.missingPriorNoticeLastDay, "booking_rules.txt:5 prior_notice_last_day=\"PRIOR_NO_LAST\""),
            (.missingPriorNoticeLastTime, "booking_rules.txt:5 prior_notice_last_time=\"PRIOR_NO_LAST\""),
            (.priorNoticeLastDayAfterStartDay, "booking_rules.txt:6 prior_notice_last_day=\"PRIOR_LAST_AFTER_START\""),
            (.missingPriorNoticeStartTime, "booking_rules.txt:6 prior_notice_start_time=\"PRIOR_LAST_AFTER_START\""),
            (.forbiddenPriorNoticeStartDay, "booking_rules.txt:7 prior_notice_start_day=\"SAME_MAX_AND_START\""),
            (.forbiddenPriorNoticeStartTime, "booking_rules.txt:8 prior_notice_start_time=\"SAME_START_TIME_ONLY\""),
            (.forbiddenSameDayBookingFieldValue, "booking_rules.txt:9 prior_notice_last_day=\"SAME_LAST_DAY\""),
            (.forbiddenPriorDayBookingFieldValue, "booking_rules.txt:10 prior_notice_duration_max=\"PRIOR_MAX\""),
        ]
        #expect(run.counts == Dictionary(uniqueKeysWithValues: expected.map { ($0.0.code, 1) }))
        for (kind, location) in expected { try run.expectFirst(kind, .error, at: location) }
    }

    @Test func realTimeRuleNamesEveryForbiddenFieldInOneNotice() throws {
        let run = RuleRun(
            BookingRulesRule(),
            on: InMemoryFeed.feed([
                "booking_rules": [
                    rule("REAL", 0, [.priorNoticeDurationMin: 30, .priorNoticeServiceId: "WK"])
                ]
            ]))
        #expect(run.counts == ["forbidden_real_time_booking_field_value": 1])
        #expect(try run.first(.forbiddenRealTimeBookingFieldValue).field == "prior_notice_duration_min, prior_notice_service_id")
    }

    @Test func rulesGivingWhatTheirTypeNeedsRaiseNothing() {
        let run = RuleRun(
            BookingRulesRule(),
            on: InMemoryFeed.feed([
                "booking_rules": [
                    rule("REAL", 0),
                    rule("SAME", 1, [.priorNoticeDurationMin: 30, .priorNoticeDurationMax: 600]),
                    rule(
                        "PRIOR", 2,
                        [
                            .priorNoticeLastDay: 1, .priorNoticeLastTime: .time("17:00:00"), .priorNoticeStartDay: 7,
                            .priorNoticeStartTime: .time("08:00:00"), .priorNoticeServiceId: "WK",
                        ]),
                ]
            ]))
        #expect(run.counts.isEmpty)
    }
}
