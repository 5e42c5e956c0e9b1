import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// Route and stop texts, URLs and the recommended files, as MobilityData checks them: each on a
/// feed that raises it and one that must not.
@Suite struct TextRuleTests {
    private let routeHeader = "route_id,agency_id,route_short_name,route_long_name,route_desc,route_type,route_url\n"

    @Test func routeNames() throws {
        let (_, sink) = try RuleFixture.validate(
            TinyFeed.with([
                "routes.txt": routeHeader + """
                    R1,A,Express Line 12,,,3,
                    R2,A,12,12 - Main Street,,3,
                    R3,A,7,Seventh Avenue,7,3,
                    R4,A,9,Ninth,Crosstown service,3,

                    """
            ]))
        #expect(RuleFixture.notices(sink, "route_short_name_too_long") == [.warning: 1])
        #expect(RuleFixture.notices(sink, "route_long_name_contains_short_name") == [.warning: 1])
        #expect(RuleFixture.notices(sink, "same_name_and_description_for_route") == [.warning: 1])
        #expect(sink.samples.first { $0.code == "route_long_name_contains_short_name" }?.line == 3)
    }

    @Test func urlsSharedWithTheAgencyOrRoute() throws {
        let (_, sink) = try RuleFixture.validate(
            TinyFeed.with([
                "routes.txt": routeHeader + "R1,A,1,,,3,https://EXAMPLE.org\nR2,A,2,,,3,https://example.org/r2\n",
                "stops.txt":
                    "stop_id,stop_name,stop_lat,stop_lon,stop_url\nS1,One,53.1,18.0,https://example.org/r2\nS2,Two,53.2,18.1,https://example.org\nS3,Three,53.3,18.2,https://example.org/s3\n",
            ]))
        #expect(RuleFixture.notices(sink, "same_route_and_agency_url") == [.warning: 1])
        #expect(RuleFixture.notices(sink, "same_stop_and_agency_url") == [.warning: 1])
        #expect(RuleFixture.notices(sink, "same_stop_and_route_url") == [.warning: 2])
    }

    @Test func stopDescriptionRepeatingTheName() throws {
        let (_, sink) = try RuleFixture.validate(
            TinyFeed.with([
                "stops.txt": "stop_id,stop_name,stop_lat,stop_lon,stop_desc\nS1,One,53.1,18.0,ONE\nS2,Two,53.2,18.1,By the park\nS3,Three,53.3,18.2,\n"
            ]))
        #expect(RuleFixture.notices(sink, "same_name_and_description_for_stop") == [.warning: 1])
    }

    @Test func recommendedFilesAndUnusedShapes() throws {
        let (_, bare) = try RuleFixture.validate(TinyFeed.files)
        #expect(RuleFixture.notices(bare, "missing_recommended_file") == [.warning: 1])
        #expect(bare.samples.first { $0.code == "missing_recommended_file" }?.file == "feed_info.txt")
        let (_, full) = try RuleFixture.validate(
            TinyFeed.with([
                "feed_info.txt":
                    "feed_publisher_name,feed_publisher_url,feed_lang,feed_contact_url,feed_start_date\nP,https://p.example,en,https://p.example,20260101\n",
                "trips.txt": "route_id,service_id,trip_id,shape_id\nR1,WK,T1,A\nR1,WK,T2,A\n",
                "shapes.txt": "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nA,53.1,18.0,1\nA,53.3,18.2,2\nB,53.1,18.0,1\nB,53.3,18.2,2\n",
            ]))
        #expect(full.count(of: "missing_recommended_file") == 0)
        #expect(RuleFixture.notices(full, "unused_shape") == [.warning: 1])
        #expect(RuleFixture.notices(full, "missing_feed_info_date") == [.warning: 1])
        #expect(RuleFixture.notices(full, "missing_recommended_field") == [.warning: 2])
        #expect(full.count(of: "missing_feed_contact_email_and_url") == 0)
    }
}
