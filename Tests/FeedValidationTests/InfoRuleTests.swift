import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// MobilityData's infos about calendars, headsigns, stop order, stations and fare zones, each on
/// a small feed that raises it (with gtfs-guru's count on the same feed) and one that must not.
/// As of ``RuleFixture/today`` (2026-06-01); feed_info.txt says 2026-01-01 to 2026-12-31.
@Suite struct InfoRuleTests {
    private let calendarHeader = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
    private let stopTimesHeader = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"

    private func validate(_ changes: [String: String]) throws -> NoticeSink {
        try RuleFixture.validate(TinyFeed.with(RuleFixture.feedInfo.merging(changes) { _, new in new })).1
    }

    @Test func tinyFeedRaisesNoneOfTheseInfos() throws {
        let sink = try validate([:])
        for code in [
            "big_gap_in_service", "service_extends_far_in_the_future", "service_window_outside_feed_period",
            "feed_valid_beyond_total_service_window", "future_calendar", "trip_headsign_matches_intermediate_stop",
            "unsorted_stop_times", "unused_station", "stop_without_zone_id",
        ] {
            #expect(sink.count(of: code) == 0, "\(code)")
        }
    }

    @Test func serviceSpreadGapsAndFarFuture() throws {
        // WK loses March (one gap of 32 days); SAT runs on Saturdays (6-day gaps); FAR runs
        // until 2028-06-01, 731 days after today, NEAR until 2028-05-31 (730), TRIM too (its
        // last five days removed); LONG, a row of over 20 years, until 2045; CD, defined only by
        // calendar_dates.txt, has a 31-day gap that MobilityData does not check.
        let march = (1...31).map { "WK,202603\($0 < 10 ? "0" : "")\($0),2\n" }.joined()
        let sink = try validate([
            "calendar.txt": calendarHeader
                + "WK,1,1,1,1,1,0,0,20260101,20261231\nSAT,0,0,0,0,0,1,0,20260101,20261231\n"
                + "FAR,1,1,1,1,1,1,1,20260101,20280601\nNEAR,1,1,1,1,1,1,1,20260101,20280531\n"
                + "LONG,0,0,0,0,0,1,1,20251001,20451231\nTRIM,1,1,1,1,1,1,1,20260101,20280605\n",
            "calendar_dates.txt": "service_id,date,exception_type\n" + march + "CD,20260101,1\nCD,20260201,1\n"
                + (1...5).map { "TRIM,2028060\($0),2\n" }.joined(),
        ])
        #expect(RuleFixture.notices(sink, "big_gap_in_service") == [.info: 1])
        #expect(sink.samples.first { $0.code == "big_gap_in_service" }?.value == "WK")
        #expect(RuleFixture.notices(sink, "service_extends_far_in_the_future") == [.info: 2])
        #expect(sink.samples.filter { $0.code == "service_extends_far_in_the_future" }.map(\.value) == ["FAR", "LONG"])
        // Fourteen days without service is a gap; thirteen is not.
        let edges = try validate([
            "calendar.txt": calendarHeader + "X,0,0,0,0,0,0,0,20260101,20260101\nY,0,0,0,0,0,0,0,20260101,20260101\n",
            "calendar_dates.txt": "service_id,date,exception_type\nX,20260601,1\nX,20260615,1\nY,20260601,1\nY,20260616,1\n",
        ])
        #expect(RuleFixture.notices(edges, "big_gap_in_service") == [.info: 1])
        #expect(edges.samples.first { $0.code == "big_gap_in_service" }?.value == "Y")
    }

    @Test func serviceWindowsAgainstTheFeedPeriod() throws {
        // T2's service CD runs 7 days before feed_start_date, LATE's 15 days after
        // feed_end_date; UNUSED has no trip and is not checked.
        let sink = try validate([
            "calendar.txt": calendarHeader
                + "WK,1,1,1,1,1,0,0,20260101,20261231\nLATE,1,1,1,1,1,1,1,20260101,20270115\nUNUSED,1,1,1,1,1,1,1,20250101,20271231\n",
            "calendar_dates.txt": "service_id,date,exception_type\nCD,20251225,1\nCD,20260105,1\n",
            "trips.txt": "route_id,service_id,trip_id\nR1,CD,T1\nR1,LATE,T2\n",
        ])
        #expect(RuleFixture.notices(sink, "service_window_outside_feed_period") == [.info: 2])
        #expect(sink.count(of: "feed_valid_beyond_total_service_window") == 0)
        // Services from 2026-01-15 to 2026-12-16: the feed ends 15 days after them.
        let beyond = try validate(["calendar.txt": calendarHeader + "WK,1,1,1,1,1,1,1,20260115,20261216\n"])
        #expect(RuleFixture.notices(beyond, "feed_valid_beyond_total_service_window") == [.info: 1])
        #expect(beyond.count(of: "service_window_outside_feed_period") == 0)
        // 14 days on either side raise nothing.
        let within = try validate(["calendar.txt": calendarHeader + "WK,1,1,1,1,1,1,1,20260115,20261217\n"])
        #expect(within.count(of: "feed_valid_beyond_total_service_window") == 0)
    }

    @Test func futureCalendarWhenEveryServiceStartsLater() throws {
        let sink = try validate(["calendar.txt": calendarHeader + "WK,1,1,1,1,1,1,1,20260701,20261231\n"])
        #expect(RuleFixture.notices(sink, "future_calendar") == [.info: 1])
        let started = try validate(["calendar.txt": calendarHeader + "WK,1,1,1,1,1,1,1,20260601,20261231\n"])
        #expect(started.count(of: "future_calendar") == 0)
    }

    @Test func headsignNamingAStopBeforeTheLast() throws {
        let trips = "route_id,service_id,trip_id,trip_headsign\n"
        let stops = "stop_id,stop_name,stop_lat,stop_lon\nS1,One,53.1,18.0\nS2,Two,53.2,18.1\nS3,Three,53.3,18.2\nS4,Two,53.25,18.15\n"
        // T1: "two" is S2 and S4, both before the last stop (2 notices); T2: its last stop (none);
        // T3 a loop, which ends the check: T4 after it is not looked at.
        let times = [
            "T1,08:00:00,08:00:00,S1,1", "T1,08:05:00,08:05:00,S2,2", "T1,08:17:00,08:17:00,S4,3", "T1,08:30:00,08:30:00,S3,4",
            "T2,09:00:00,09:00:00,S1,1", "T2,09:05:00,09:05:00,S2,2", "T2,09:10:00,09:10:00,S3,3",
            "T3,10:00:00,10:00:00,S1,1", "T3,10:05:00,10:05:00,S2,2", "T3,10:10:00,10:10:00,S1,3",
            "T4,11:00:00,11:00:00,S1,1", "T4,11:05:00,11:05:00,S2,2", "T4,11:10:00,11:10:00,S3,3",
        ]
        let stopTimes = stopTimesHeader + times.joined(separator: "\n") + "\n"
        let sink = try validate([
            "trips.txt": trips + "R1,WK,T1,two\nR1,WK,T2,Three\nR1,WK,T3,Two\nR1,WK,T4,Two\n", "stops.txt": stops,
            "stop_times.txt": stopTimes,
        ])
        #expect(RuleFixture.notices(sink, "trip_headsign_matches_intermediate_stop") == [.info: 2])
        // Without the loop first, T4 is checked too.
        let unlooped = try validate([
            "trips.txt": trips + "R1,WK,T1,two\nR1,WK,T2,Three\nR1,WK,T4,Two\nR1,WK,T3,Two\n", "stops.txt": stops,
            "stop_times.txt": stopTimes,
        ])
        #expect(RuleFixture.notices(unlooped, "trip_headsign_matches_intermediate_stop") == [.info: 3])
        // Only ASCII letters compare regardless of case, as gtfs-guru compares them.
        let accents = try validate([
            "trips.txt": trips + "R1,WK,T1,VILA UNIÃO\nR1,WK,T2,VILA Uniã\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,Vila União,53.1,18.0\nS2,vila uniã,53.2,18.1\nS3,Three,53.3,18.2\n",
        ])
        #expect(RuleFixture.notices(accents, "trip_headsign_matches_intermediate_stop") == [.info: 1])
        #expect(accents.samples.first { $0.code == "trip_headsign_matches_intermediate_stop" }?.line == 3)
    }

    @Test func stopTimesOutOfOrderOrApart() throws {
        // T1's rows are split by T2's; T2's stop_sequence goes down; T3 is in order.
        let times = [
            "T1,08:00:00,08:00:00,S1,1", "T2,09:05:00,09:05:00,S2,2", "T2,09:00:00,09:00:00,S1,1",
            "T1,08:05:00,08:05:00,S2,2", "T3,10:00:00,10:00:00,S1,1", "T3,10:05:00,10:05:00,S2,2",
        ]
        let sink = try validate([
            "trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\nR1,WK,T2\nR1,WK,T3\n",
            "stop_times.txt": stopTimesHeader + times.joined(separator: "\n") + "\n",
        ])
        #expect(RuleFixture.notices(sink, "unsorted_stop_times") == [.info: 2])
        #expect(sink.samples.filter { $0.code == "unsorted_stop_times" }.map(\.value) == ["T1", "T2"])
    }

    @Test func stationsWithoutPlatforms() throws {
        // ST1 has a platform; ST2 nothing; ST3 only an entrance.
        let sink = try validate([
            "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
            S1,One,53.1,18.0,0,ST1
            S2,Two,53.2,18.1,,
            S3,Three,53.3,18.2,,
            ST1,Station1,53.1,18.0,1,
            ST2,Station2,53.2,18.1,1,
            ST3,Station3,53.3,18.2,1,
            E3,Entrance,53.3,18.2,2,ST3

            """
        ])
        #expect(RuleFixture.notices(sink, "unused_station") == [.info: 2])
        #expect(sink.samples.filter { $0.code == "unused_station" }.map(\.value) == ["ST2", "ST3"])
    }

    @Test func stopsWithoutZoneOnZonedRoutes() throws {
        let stops = "stop_id,stop_name,stop_lat,stop_lon,zone_id\nS1,One,53.1,18.0,Z1\nS2,Two,53.2,18.1,\nS3,Three,53.3,18.2,\n"
        let fares = "fare_id,price,currency_type,payment_method,transfers\nF1,1.00,EUR,0,0\n"
        let zoned = try validate([
            "stops.txt": stops, "fare_attributes.txt": fares, "fare_rules.txt": "fare_id,route_id,origin_id\nF1,R1,Z1\n",
        ])
        #expect(RuleFixture.notices(zoned, "stop_without_zone_id") == [.info: 2])
        // A zone rule for no route in particular makes no stop need a zone.
        let anyRoute = try validate([
            "stops.txt": stops, "fare_attributes.txt": fares, "fare_rules.txt": "fare_id,route_id,origin_id\nF1,,Z1\n",
        ])
        #expect(anyRoute.count(of: "stop_without_zone_id") == 0)
    }
}
