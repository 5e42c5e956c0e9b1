import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// Rules on agencies, stops, and the files read only to be checked (transfers, pathways,
/// fares): MobilityData's codes, one notice per problem, nothing repaired in files bundles do
/// not hold.
@Suite struct CheckedFileRuleTests {
    @Test func severalAgenciesNeedIdsAndOneTimeZone() throws {
        let (_, sink) = try RuleFixture.validate(
            TinyFeed.with([
                "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,One,https://a.example,Europe/Warsaw\n,Two,https://b.example,Europe/Berlin\n",
                "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\nR2,,2,3\n",
            ]))
        #expect(RuleFixture.notices(sink, "missing_required_agency_id") == [.error: 2])
        #expect(RuleFixture.notices(sink, "inconsistent_agency_timezone") == [.error: 1])
        #expect(sink.count(of: "missing_required_field") == 0)
        let (_, one) = try RuleFixture.validate(TinyFeed.files)
        #expect(one.count(of: "missing_required_agency_id") == 0)
        #expect(one.count(of: "missing_recommended_field") == 0)
        // With one agency, the ids are only recommended.
        let (_, single) = try RuleFixture.validate(
            TinyFeed.with([
                "agency.txt": "agency_name,agency_url,agency_timezone\nOne,https://a.example,Europe/Warsaw\n",
                "routes.txt": "route_id,route_short_name,route_type\nR1,1,3\n",
            ]))
        #expect(RuleFixture.notices(single, "missing_recommended_field") == [.warning: 2])
        #expect(single.count(of: "missing_required_agency_id") == 0)
    }

    @Test func stopsWithoutPositionOrName() throws {
        let (feed, sink) = try RuleFixture.validate(
            TinyFeed.with([
                "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,53.1,18.0\nS2,,53.2,18.1\nS3,Three,53.3,18.2\nS4,Four,,\n"
            ]))
        #expect(RuleFixture.notices(sink, "stop_without_location") == [.error: 1])
        #expect(RuleFixture.notices(sink, "missing_stop_name") == [.error: 1])
        #expect(feed.stops.texts(.stopId) == ["S1", "S2", "S3"])
    }

    /// transfers.txt is compiled (issue 28): a row naming an unknown stop is dropped, and of a
    /// repeated key the first row is kept, each reported with MobilityData's code.
    @Test func transfersAreCheckedAndRepaired() throws {
        let (feed, sink) = try RuleFixture.validate(
            TinyFeed.with([
                "transfers.txt": "from_stop_id,to_stop_id,transfer_type\nS1,S2,0\nS1,S9,0\nS1,S2,0\n"
            ]))
        let violation = try #require(sink.samples.first { $0.code == "foreign_key_violation" })
        #expect(RuleFixture.notices(sink, "foreign_key_violation") == [.error: 1])
        #expect(violation.file == "transfers.txt" && violation.value == "S9" && violation.repair == "row dropped")
        #expect(RuleFixture.notices(sink, "duplicate_key") == [.error: 1])
        #expect(feed["transfers"].count == 1)
        #expect(sink.droppedRows == ["transfers.txt": 2])
        #expect(!sink.hasBlocking)
    }

    @Test func fareRulesReferToFaresAndZones() throws {
        let (_, sink) = try RuleFixture.validate(
            TinyFeed.with([
                "stops.txt": "stop_id,stop_name,stop_lat,stop_lon,zone_id\nS1,One,53.1,18.0,Z1\nS2,Two,53.2,18.1,Z1\nS3,Three,53.3,18.2,Z2\n",
                "fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers\nF1,2.50,EUR,0,\n",
                "fare_rules.txt": "fare_id,origin_id,destination_id\nF1,Z1,Z2\nF2,Z1,Z2\nF1,Z1,Z9\n",
            ]))
        #expect(RuleFixture.notices(sink, "foreign_key_violation") == [.error: 2])
        let (_, clean) = try RuleFixture.validate(
            TinyFeed.with([
                "stops.txt": "stop_id,stop_name,stop_lat,stop_lon,zone_id\nS1,One,53.1,18.0,Z1\nS2,Two,53.2,18.1,Z1\nS3,Three,53.3,18.2,Z2\n",
                "fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers\nF1,2.50,EUR,0,\n",
                "fare_rules.txt": "fare_id,origin_id,destination_id\nF1,Z1,Z2\n",
            ]))
        #expect(clean.count(severity: .error) == 0)
    }

    @Test func bidirectionalExitGate() throws {
        let header = "pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional\n"
        let (_, sink) = try RuleFixture.validate(TinyFeed.with(["pathways.txt": header + "P1,S1,S2,7,1\nP2,S1,S2,7,0\nP3,S2,S3,1,1\n"]))
        #expect(RuleFixture.notices(sink, "bidirectional_exit_gate") == [.error: 1])
        #expect(sink.samples.first { $0.code == "bidirectional_exit_gate" }?.value == "P1")
        #expect(!sink.hasBlocking)
    }

    /// A pathway from a stop to itself (MobilityData's `pathway_loop`, a warning per pathway).
    @Test func pathwayLoop() throws {
        let header = "pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional\n"
        let (_, sink) = try RuleFixture.validate(TinyFeed.with(["pathways.txt": header + "P1,S1,S1,1,1\nP2,S1,S2,1,1\nP3,S2,S2,2,0\n"]))
        #expect(RuleFixture.notices(sink, "pathway_loop") == [.warning: 2])
        #expect(sink.samples.first { $0.code == "pathway_loop" }?.value == "P1")
        #expect(sink.samples.first { $0.code == "pathway_loop" }?.line == 2)
        #expect(!sink.hasBlocking)
    }

    @Test func flexDurationsAreKnownColumns() throws {
        let (_, sink) = try RuleFixture.validate(
            TinyFeed.with([
                "trips.txt": "route_id,service_id,trip_id,safe_duration_factor,safe_duration_offset\nR1,WK,T1,1.5,60\nR1,WK,T2,,\n"
            ]))
        #expect(sink.count(of: "unknown_column") == 0)
    }

    @Test func riderCategoriesNeedTheirColumns() throws {
        let (feed, sink) = try RuleFixture.validate(TinyFeed.with(["rider_categories.txt": "rider_category_id\nADULT\n"]))
        #expect(RuleFixture.notices(sink, "missing_required_column") == [.error: 2])
        #expect(!sink.hasBlocking)
        #expect(feed.stops.count == 3)
        let (_, fine) = try RuleFixture.validate(
            TinyFeed.with([
                "rider_categories.txt": "rider_category_id,rider_category_name,is_default_fare_category\nADULT,Adult,\n"
            ]))
        #expect(fine.count(severity: .error) == 0)
    }

    @Test func overlappingTripsOfOneBlock() throws {
        let stopTimes = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,S1,1
            T1,08:10:00,08:10:00,S3,2
            T2,08:05:00,08:05:00,S3,1
            T2,08:20:00,08:20:00,S1,2
            T3,08:20:00,08:20:00,S1,1
            T3,08:30:00,08:30:00,S3,2

            """
        let calendar =
            "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260101,20261231\nWE,0,0,0,0,0,1,1,20260101,20261231\n"
        // T2 starts before T1 ends on the same weekdays; T3 starts exactly where and when T2 ends.
        let (_, sink) = try RuleFixture.validate(
            TinyFeed.with([
                "trips.txt": "route_id,service_id,trip_id,block_id\nR1,WK,T1,B\nR1,WK,T2,B\nR1,WK,T3,B\n",
                "stop_times.txt": stopTimes, "calendar.txt": calendar,
            ]))
        #expect(RuleFixture.notices(sink, "block_trips_with_overlapping_stop_times") == [.error: 1])
        // The same times on days that never meet.
        let (_, apart) = try RuleFixture.validate(
            TinyFeed.with([
                "trips.txt": "route_id,service_id,trip_id,block_id\nR1,WK,T1,B\nR1,WE,T2,B\nR1,WK,T3,B\n",
                "stop_times.txt": stopTimes, "calendar.txt": calendar,
            ]))
        #expect(apart.count(of: "block_trips_with_overlapping_stop_times") == 0)
    }
}
