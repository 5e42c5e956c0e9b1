import FeedModel
import Testing

@testable import FeedValidation

/// CalendarDateRules alone on in-memory calendars, as of 1 June 2026.
@Suite struct CalendarDateRulesInMemoryTests {
    private let rule = CalendarDateRules(today: CivilDate.days(year: 2026, month: 6, day: 1))

    private func service(_ id: String, _ start: Int, _ end: Int, days: Int = 1) -> InMemoryRow {
        var row: InMemoryRow = [.serviceId: .text(id), .startDate: .date(start), .endDate: .date(end)]
        for day in FieldKey.weekdays { row[day] = .integer(days) }
        return row
    }

    @Test func serviceEndedBeforeTodayIsExpired() throws {
        let run = RuleRun(
            rule,
            on: InMemoryFeed.feed([
                "calendar": [
                    service("OLD", 20250101, 20260531), service("NOW", 20260101, 20261231), service("LAST", 20260101, 20260601),
                ]
            ]))
        #expect(run.counts == ["expired_calendar": 1])
        try run.expectFirst(.expiredCalendar, .warning, at: "calendar.txt:2 service_id=\"OLD\"")
    }

    @Test func calendarDatesAloneExpireOnlyWhenEveryServiceHasEnded() throws {
        let ended = InMemoryFeed.feed([
            "calendar_dates": [
                [.serviceId: "A", .date: .date(20260501), .exceptionType: 1], [.serviceId: "B", .date: .date(20260502), .exceptionType: 1],
            ]
        ])
        let run = RuleRun(rule, on: ended)
        #expect(run.counts == ["expired_calendar": 2])
        #expect(run.notices(.expiredCalendar).map(\.location) == ["calendar_dates.txt:2 service_id=\"A\"", "calendar_dates.txt:3 service_id=\"B\""])
        let running = InMemoryFeed.feed([
            "calendar_dates": [
                [.serviceId: "A", .date: .date(20260501), .exceptionType: 1], [.serviceId: "B", .date: .date(20260602), .exceptionType: 1],
            ]
        ])
        #expect(RuleRun(rule, on: running).counts.isEmpty)
    }

    @Test func feedEndingSoonIsReported() throws {
        func run(_ end: Int) -> RuleRun {
            RuleRun(rule, on: InMemoryFeed.feed(["feed_info": [[.feedStartDate: .date(20260101), .feedEndDate: .date(end)]]]))
        }
        let week = run(20260605)
        #expect(week.counts == ["feed_expiration_date7_days": 1])
        try week.expectFirst(.feedExpirationDate7Days, .warning, at: "feed_info.txt:2 feed_end_date=\"20260605\"")
        let month = run(20260620)
        #expect(month.counts == ["feed_expiration_date30_days": 1])
        #expect(try month.first(.feedExpirationDate30Days).location == "feed_info.txt:2 feed_end_date=\"20260620\"")
        #expect(run(20260801).counts.isEmpty)
    }

    @Test func busiestDatesNotCoveringTheNextWeekAreReported() throws {
        // All the service ran in May.
        let run = RuleRun(
            rule,
            on: InMemoryFeed.feed([
                "calendar": [service("MAY", 20260501, 20260531)],
                "trips": [[.tripId: "T1", .serviceId: "MAY"]],
            ]))
        #expect(run.counts == ["expired_calendar": 1, "trip_coverage_not_active_for_next7_days": 1])
        let notice = try run.first(.tripCoverageNotActiveForNext7Days)
        #expect(notice.severity == .warning)
        #expect(notice.file == "trips.txt" && notice.value == "2026-05-01…2026-05-31")
    }

    @Test func serviceOnNoWeekdayIsReportedAndNeverActiveWithoutAddedDates() throws {
        let run = RuleRun(
            rule,
            on: InMemoryFeed.feed([
                "calendar": [
                    service("NONE", 20260101, 20261231, days: 0), service("ADDED", 20260101, 20261231, days: 0),
                    service("REMOVED", 20260101, 20261231, days: 0),
                ],
                "calendar_dates": [
                    [.serviceId: "ADDED", .date: .date(20260610), .exceptionType: 1],
                    [.serviceId: "REMOVED", .date: .date(20260610), .exceptionType: 2],
                ],
            ]))
        #expect(run.counts == ["service_has_no_active_day_of_the_week": 3, "service_never_active": 2])
        #expect(run.notices(.serviceHasNoActiveDayOfTheWeek).allSatisfy { $0.severity == .warning })
        let never = run.notices(.serviceNeverActive)
        #expect(never.map(\.location) == ["calendar.txt:2 service_id=\"NONE\"", "calendar.txt:4 service_id=\"REMOVED\""])
        #expect(never.allSatisfy { $0.severity == .warning })
    }

    @Test func currentServiceRaisesNothing() {
        let run = RuleRun(
            rule,
            on: InMemoryFeed.feed([
                "calendar": [service("WK", 20260101, 20261231)],
                "trips": [[.tripId: "T1", .serviceId: "WK"]],
                "feed_info": [[.feedStartDate: .date(20260101), .feedEndDate: .date(20261231)]],
            ]))
        #expect(run.counts.isEmpty)
    }
}
