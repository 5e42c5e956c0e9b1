import FeedModel
import FeedSources
import Foundation
import TestSupport
import Testing

@testable import FeedValidation

/// Checks of single values across files (case, identifier characters, timepoints), as
/// MobilityData makes them: each on a feed that raises it and one that must not.
@Suite struct FieldRuleTests {
    @Test func mixedCaseFollowsMobilityDatasTest() {
        // Flagged: one lower-case word; several words none of which mixes cases (a leading
        // number counts as an empty word, as Java's split gives it).
        for value in ["main", "MAIN STREET", "856 BAKERS", "north-west", "main st 5"] {
            #expect(MixedCaseRule.lacksMixedCase(value), "\(value)")
        }
        for value in ["Main Street", "MAIN", "A", "12", "Plac Kościeleckich", "東京 駅"] {
            #expect(!MixedCaseRule.lacksMixedCase(value), "\(value)")
        }
    }

    @Test func mixedCaseOnRiderText() throws {
        let (_, sink) = try RuleFixture.validate(
            TinyFeed.with([
                "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,MAIN STREET,53.1,18.0\nS2,Two,53.2,18.1\nS3,third,53.3,18.2\n"
            ]))
        #expect(RuleFixture.notices(sink, "mixed_case_recommended_field") == [.warning: 2])
        let (_, fine) = try RuleFixture.validate(TinyFeed.files)
        #expect(fine.count(of: "mixed_case_recommended_field") == 0)
    }

    @Test func identifiersOfPrintableAscii() throws {
        let (_, sink) = try RuleFixture.validate(
            TinyFeed.with([
                "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,53.1,18.0\nS2,Two,53.2,18.1\nS3,Three,53.3,18.2\nSé,Four,53.4,18.3\n"
            ]))
        #expect(RuleFixture.notices(sink, "non_ascii_or_non_printable_char") == [.warning: 1])
        #expect(sink.samples.first { $0.code == "non_ascii_or_non_printable_char" }?.value == "Sé")
    }

    @Test func timepoints() throws {
        let (_, sink) = try RuleFixture.validate(
            TinyFeed.with([
                "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence,timepoint
                T1,08:00:00,08:00:00,S1,1,1
                T1,,,S2,2,1
                T1,08:10:00,08:10:00,S3,3,
                T2,09:00:00,09:00:00,S1,1,1
                T2,,,S2,2,0
                T2,09:10:00,09:10:00,S3,3,1

                """
            ]))
        #expect(RuleFixture.notices(sink, "stop_time_timepoint_without_times") == [.error: 2])
        #expect(RuleFixture.notices(sink, "missing_timepoint_value") == [.warning: 1])
        let (_, none) = try RuleFixture.validate(TinyFeed.files)
        #expect(none.count(of: "missing_timepoint_value") == 0)
    }

    @Test func bookedStopTimesNameTheirRule() throws {
        let stopTimes = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type,start_pickup_drop_off_window,end_pickup_drop_off_window,pickup_booking_rule_id
            T1,08:00:00,08:00:00,S1,1,2,2,08:00:00,09:00:00,
            T1,08:05:00,08:05:00,S2,2,2,0,08:00:00,09:00:00,B1
            T1,08:10:00,08:10:00,S3,3,0,0,,,
            T2,09:00:00,09:00:00,S1,1,,,,,
            T2,09:10:00,09:10:00,S3,2,,,,,

            """
        let booking = ["booking_rules.txt": "booking_rule_id,booking_type\nB1,0\n"]
        let (_, sink) = try RuleFixture.validate(TinyFeed.with(booking.merging(["stop_times.txt": stopTimes]) { a, _ in a }))
        // Row 2 misses both rules; row 3 names its pickup rule and is not booked for drop-off.
        #expect(RuleFixture.notices(sink, "missing_pickup_drop_off_booking_rule_id") == [.warning: 2])
        let (_, without) = try RuleFixture.validate(TinyFeed.with(["stop_times.txt": stopTimes]))
        #expect(without.count(of: "missing_pickup_drop_off_booking_rule_id") == 0)
    }
}
