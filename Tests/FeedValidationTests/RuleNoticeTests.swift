import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// The rules' codes no other test raised (issue 31): each from the tiny feed with the one change
/// that raises it, once, at its severity, with its repair.
@Suite struct RuleNoticeTests {
    /// The tiny feed's changes and the notice they must raise.
    struct Case: Sendable, CustomTestStringConvertible {
        var kind: NoticeKind
        var changes: [String: String]
        var file: String
        var repair: String?

        var testDescription: String { kind.code }
    }

    static let stopTimesHeader = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
    /// Trip T2 of the tiny feed, unchanged.
    static let t2 = "T2,09:00:00,09:00:00,S1,1\nT2,09:05:00,09:05:00,S2,2\nT2,09:10:00,09:10:00,S3,3\n"

    static let cases: [Case] = [
        Case(
            kind: .missingTripEdge,
            changes: ["stop_times.txt": stopTimesHeader + "T1,08:00:00,08:00:00,S1,1\nT1,08:05:00,08:05:00,S2,2\nT1,,,S3,3\n" + t2],
            file: "stop_times.txt", repair: "trip dropped"),
        Case(
            kind: .stopTimeWithDepartureBeforeArrivalTime,
            changes: [
                "stop_times.txt": stopTimesHeader
                    + "T1,08:00:00,08:00:00,S1,1\nT1,08:05:00,08:04:00,S2,2\nT1,08:10:00,08:10:00,S3,3\n" + t2
            ],
            file: "stop_times.txt", repair: "trip dropped"),
        Case(
            kind: .routeBothShortAndLongNameMissing,
            changes: ["routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A,,,3\n"],
            file: "routes.txt", repair: nil),
        Case(
            kind: .stationWithParentStation,
            changes: [
                "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
                S1,One,53.1,18.0,,
                S2,Two,53.2,18.1,,
                S3,Three,53.3,18.2,,
                ST1,Central,53.1,18.0,1,
                ST2,Central North,53.1,18.0,1,ST1

                """
            ],
            file: "stops.txt", repair: "value cleared"),
        Case(
            kind: .flexOnlyFeed,
            changes: ["stop_times.txt": "trip_id,location_group_id,stop_sequence\nT1,LG1,1\nT1,LG1,2\n"],
            file: "stop_times.txt", repair: nil),
    ]

    @Test(arguments: cases)
    func raises(_ test: Case) throws {
        let (_, sink) = try RuleFixture.validate(TinyFeed.with(RuleFixture.feedInfo.merging(test.changes) { _, new in new }))
        #expect(RuleFixture.notices(sink, test.kind.code) == [test.kind.severity: 1], "\(sink.summary.map(\.code))")
        let notice = try #require(sink.samples.first { $0.code == test.kind.code })
        #expect(notice.file == test.file)
        #expect(notice.repair == test.repair)
    }
}
