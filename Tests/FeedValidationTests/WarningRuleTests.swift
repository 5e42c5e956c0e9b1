import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// The warnings MobilityData raises that repair nothing, each on a feed that raises it and one
/// that must not.
@Suite struct WarningRuleTests {
    private let calendarHeader = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"

    @Test func expiredCalendarOnePerServiceRow() throws {
        let (_, sink) = try RuleFixture.validate(
            TinyFeed.with([
                "calendar.txt": calendarHeader + "WK,1,1,1,1,1,0,0,20260101,20261231\nOLD,1,1,1,1,1,0,0,20250101,20251231\n"
            ]))
        #expect(RuleFixture.notices(sink, "expired_calendar") == [.warning: 1])
        #expect(sink.samples.first { $0.code == "expired_calendar" }?.value == "OLD")
        let (_, current) = try RuleFixture.validate(TinyFeed.files)
        #expect(current.count(of: "expired_calendar") == 0)
    }

    @Test func feedExpirationWithin7And30Days() throws {
        let info = "feed_publisher_name,feed_publisher_url,feed_lang,feed_end_date,feed_contact_email\nP,https://p.example,en,"
        let (_, week) = try RuleFixture.validate(TinyFeed.with(["feed_info.txt": info + "20260605,a@p.example\n"]))
        #expect(RuleFixture.notices(week, "feed_expiration_date7_days") == [.warning: 1])
        #expect(week.count(of: "feed_expiration_date30_days") == 0)
        let (_, month) = try RuleFixture.validate(TinyFeed.with(["feed_info.txt": info + "20260620,a@p.example\n"]))
        #expect(RuleFixture.notices(month, "feed_expiration_date30_days") == [.warning: 1])
        #expect(month.count(of: "feed_expiration_date7_days") == 0)
        let (_, later) = try RuleFixture.validate(TinyFeed.with(["feed_info.txt": info + "20261231,a@p.example\n"]))
        #expect(later.count(of: "feed_expiration_date30_days") == 0 && later.count(of: "feed_expiration_date7_days") == 0)
        #expect(later.count(of: "missing_feed_contact_email_and_url") == 0)
    }

    @Test func missingFeedContact() throws {
        let (_, sink) = try RuleFixture.validate(
            TinyFeed.with([
                "feed_info.txt": "feed_publisher_name,feed_publisher_url,feed_lang\nP,https://p.example,en\n"
            ]))
        #expect(RuleFixture.notices(sink, "missing_feed_contact_email_and_url") == [.warning: 1])
    }

    @Test func tripCoverageMustReachTheNextSevenDays() throws {
        let (_, ending) = try RuleFixture.validate(TinyFeed.with(["calendar.txt": calendarHeader + "WK,1,1,1,1,1,0,0,20260101,20260603\n"]))
        #expect(RuleFixture.notices(ending, "trip_coverage_not_active_for_next7_days") == [.warning: 1])
        let (_, running) = try RuleFixture.validate(TinyFeed.files)
        #expect(running.count(of: "trip_coverage_not_active_for_next7_days") == 0)
    }

    @Test func servicesWithNoWeekday() throws {
        let (_, sink) = try RuleFixture.validate(
            TinyFeed.with([
                "calendar.txt": calendarHeader
                    + "WK,1,1,1,1,1,0,0,20260101,20261231\nNONE,0,0,0,0,0,0,0,20260101,20261231\nADDED,0,0,0,0,0,0,0,20260101,20261231\n",
                "calendar_dates.txt": "service_id,date,exception_type\nADDED,20260704,1\n",
            ]))
        #expect(RuleFixture.notices(sink, "service_has_no_active_day_of_the_week") == [.warning: 2])
        #expect(RuleFixture.notices(sink, "service_never_active") == [.warning: 1])
        #expect(sink.samples.first { $0.code == "service_never_active" }?.value == "NONE")
    }

    @Test func routeColorContrast() throws {
        let header = "route_id,agency_id,route_short_name,route_type,route_color,route_text_color\n"
        let (_, sink) = try RuleFixture.validate(TinyFeed.with(["routes.txt": header + "R1,A,1,3,FFFF00,FFFFFF\n"]))
        #expect(RuleFixture.notices(sink, "route_color_contrast") == [.warning: 1])
        let (_, fine) = try RuleFixture.validate(TinyFeed.with(["routes.txt": header + "R1,A,1,3,0000AA,FFFFFF\n"]))
        #expect(fine.count(of: "route_color_contrast") == 0)
    }

    @Test func duplicateRouteNames() throws {
        let header = "route_id,agency_id,route_short_name,route_long_name,route_type\n"
        let (_, sink) = try RuleFixture.validate(
            TinyFeed.with([
                "routes.txt": header + "R1,A,1,Main,3\nR2,A,1,Main,3\nR3,A,1,Main,0\nR4,A,2,Main,3\n"
            ]))
        #expect(RuleFixture.notices(sink, "duplicate_route_name") == [.warning: 1])
        #expect(sink.samples.first { $0.code == "duplicate_route_name" }?.line == 3)
    }

    @Test func stopsWithoutStopTimesAndStationsWithThem() throws {
        let (_, sink) = try RuleFixture.validate(
            TinyFeed.with([
                "stops.txt":
                    "stop_id,stop_name,stop_lat,stop_lon,location_type\nS1,One,53.1,18.0,0\nS2,Two,53.2,18.1,0\nS3,Three,53.3,18.2,1\nS4,Four,53.4,18.3,0\n"
            ]))
        #expect(RuleFixture.notices(sink, "stop_without_stop_time") == [.warning: 1])
        #expect(sink.samples.first { $0.code == "stop_without_stop_time" }?.value == "S4")
        #expect(RuleFixture.notices(sink, "location_with_unexpected_stop_time") == [.error: 1])
        #expect(!sink.hasBlocking)
    }

    @Test func tripWithoutStopTimesIsUnusedAndUnusable() throws {
        let (feed, sink) = try RuleFixture.validate(TinyFeed.with(["trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\nR1,WK,T2\nR1,WK,T3\n"]))
        #expect(RuleFixture.notices(sink, "unused_trip") == [.warning: 1])
        #expect(RuleFixture.notices(sink, "unusable_trip") == [.warning: 1])
        #expect(feed.trips.count == 2)
    }

    @Test func travelFasterThanABusCan() throws {
        // S1, S2, S3 are about 13 km apart: a minute for each leg is over 150 km/h, five are not.
        let (feed, sink) = try RuleFixture.validate(
            TinyFeed.with([
                "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,S1,1
                T1,08:01:00,08:01:00,S2,2
                T1,08:02:00,08:02:00,S3,3
                T2,09:00:00,09:00:00,S1,1
                T2,09:05:00,09:05:00,S2,2
                T2,09:10:00,09:10:00,S3,3

                """
            ]))
        #expect(RuleFixture.notices(sink, "fast_travel_between_consecutive_stops") == [.warning: 2])
        #expect(RuleFixture.notices(sink, "fast_travel_between_far_stops") == [.warning: 1])
        let trips = Set(sink.samples.filter { $0.code.hasPrefix("fast_travel") }.map { String($0.message.prefix(8)) })
        #expect(trips == ["Trip T1:"])
        #expect(feed.trips.count == 2)
    }
}
