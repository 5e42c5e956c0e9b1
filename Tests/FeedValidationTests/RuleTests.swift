import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// Each rule on a small feed written for the purpose.
@Suite struct RuleTests {
    private func validate(_ files: [String: String]) throws -> (Feed, NoticeSink) {
        let folder = TemporaryFolder()
        let url = folder.feed("feed", files)
        let sink = NoticeSink()
        let feed = try #require(GTFSReader(url: url).read(into: sink))
        return (Validator(today: CivilDate.days(year: 2026, month: 6, day: 1)).validate(feed, sink: sink), sink)
    }

    @Test func tinyFeedIsClean() throws {
        let (feed, sink) = try validate(TinyFeed.with(RuleFixture.feedInfo))
        #expect(sink.count(severity: .error) == 0)
        #expect(sink.count(severity: .warning) == 0, "\(sink.summary)")
        #expect(feed.stopTimes.count == 6)
    }

    @Test func duplicateKeyKeepsFirstRow() throws {
        let (feed, sink) = try validate(
            TinyFeed.with(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,53.1,18.0\nS2,Two,53.2,18.1\nS3,Three,53.3,18.2\nS1,Again,53.4,18.3\n"]))
        let notice = try #require(sink.samples.first { $0.code == "duplicate_key" })
        #expect(notice.line == 5)
        #expect(notice.value == "S1")
        #expect(feed.stops.texts(.stopName) == ["One", "Two", "Three"])
        #expect(!sink.hasBlocking)
    }

    @Test func duplicateStopTimesFoundInAndOutOfOrder() throws {
        // The fast check (each trip's rows together, sequences rising) must not hide a repeat.
        let header = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        let rows = [
            "T1,08:00:00,08:00:00,S1,1", "T1,08:05:00,08:05:00,S2,2", "T1,08:10:00,08:10:00,S3,3",
            "T2,09:00:00,09:00:00,S1,1", "T2,09:05:00,09:05:00,S2,2", "T2,09:10:00,09:10:00,S3,3",
        ]
        let (_, clean) = try validate(TinyFeed.with(["stop_times.txt": header + rows.joined(separator: "\n") + "\n"]))
        #expect(clean.count(of: "duplicate_key") == 0)
        let (_, adjacent) = try validate(TinyFeed.with(["stop_times.txt": header + (rows + ["T2,09:10:00,09:10:00,S3,3"]).joined(separator: "\n") + "\n"]))
        #expect(RuleFixture.notices(adjacent, "duplicate_key") == [.error: 1])
        let (_, apart) = try validate(TinyFeed.with(["stop_times.txt": header + (rows + ["T1,08:10:00,08:10:00,S3,3"]).joined(separator: "\n") + "\n"]))
        #expect(RuleFixture.notices(apart, "duplicate_key") == [.error: 1])
    }

    @Test func danglingRequiredReferenceDropsRowsOptionalOneIsCleared() throws {
        let (feed, sink) = try validate(
            TinyFeed.with([
                "trips.txt": "route_id,service_id,trip_id,shape_id\nR1,WK,T1,NOPE\nR1,WK,T2,\nR9,WK,T3,\n",
                "stop_times.txt": TinyFeed.files["stop_times.txt"]! + "T3,10:00:00,10:00:00,S1,1\nT3,10:05:00,10:05:00,S2,2\nT1,08:20:00,08:20:00,S9,4\n",
            ]))
        // T3's route does not exist: the trip goes, and its stop times with it (counted once).
        #expect(feed.trips.texts(.tripId) == ["T1", "T2"])
        #expect(feed.trips.texts(.shapeId) == [nil, nil])
        #expect(feed.stopTimes.count == 6)
        let violations = sink.samples.filter { $0.code == "foreign_key_violation" }
        #expect(
            Set(violations.map { "\($0.file!):\($0.field!)=\($0.value!)" }) == [
                "trips.txt:shape_id=NOPE", "trips.txt:route_id=R9", "stop_times.txt:stop_id=S9",
            ])
        #expect(sink.samples.first { $0.code == "rows_removed_with_parent" }?.value == "2")
        #expect(sink.droppedRows == ["trips.txt": 1, "stop_times.txt": 3])
        #expect(!sink.hasBlocking)
    }

    @Test func backwardsTimesDropTheTrip() throws {
        let (feed, sink) = try validate(
            TinyFeed.with([
                "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,S1,1
                T1,07:05:00,07:05:00,S2,2
                T1,08:10:00,08:10:00,S3,3
                T2,09:00:00,09:00:00,S1,1
                T2,,09:05:00,S2,2
                T2,09:10:00,09:10:00,S3,3

                """
            ]))
        #expect(feed.trips.texts(.tripId) == ["T2"])
        #expect(sink.samples.first { $0.code == "stop_time_with_arrival_before_previous_departure_time" }?.line == 3)
        // A lone departure time is copied to the arrival.
        #expect(sink.count(of: "stop_time_with_only_arrival_or_departure_time") == 1)
        #expect(feed.stopTimes.integers(.arrivalTime)[1] == 9 * 3600 + 300)
    }

    @Test func emptyStopTimesBlockPublication() throws {
        let (_, sink) = try validate(TinyFeed.with(["stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"]))
        #expect(sink.hasBlocking)
        #expect(sink.blocking.contains { $0.code == "no_usable_rows" && $0.file == "stop_times.txt" })
        #expect(sink.count(of: "empty_file") == 0)
    }

    @Test func emptyFilesAreEmptyNotMissingAndStillBlock() throws {
        // As MobilityData: a file without header is `empty_file`, not also missing.
        var files = TinyFeed.files
        for name in ["routes.txt", "calendar.txt"] { files[name] = "" }
        let (_, sink) = try validate(files)
        #expect(RuleFixture.notices(sink, "empty_file") == [.error: 2])
        #expect(sink.count(of: "missing_required_file") == 0)
        #expect(sink.count(of: "missing_calendar_and_calendar_date_files") == 0)
        #expect(sink.blocking.contains { $0.code == "empty_file" && $0.file == "routes.txt" })
        #expect(sink.blocking.contains { $0.code == "no_usable_rows" && $0.file == "calendar.txt" })
    }

    @Test func everyRowInvalidBlocksWithoutCrashing() throws {
        let (feed, sink) = try validate(
            TinyFeed.with([
                "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled,timepoint\nT1,8:00,x,S1,a,-1,7\nT2,,,S9,,,\n"
            ]))
        #expect(feed.stopTimes.isEmpty)
        #expect(sink.blocking.contains { $0.code == "no_usable_rows" && $0.file == "stop_times.txt" })
    }

    @Test func missingRequiredFileBlocks() throws {
        var files = TinyFeed.files
        files["routes.txt"] = nil
        let (_, sink) = try validate(files)
        #expect(sink.blocking.contains { $0.code == "missing_required_file" && $0.file == "routes.txt" })
    }

    @Test func missingCalendarsBlock() throws {
        var files = TinyFeed.files
        files["calendar.txt"] = nil
        let (_, sink) = try validate(files)
        #expect(sink.blocking.contains { $0.code == "missing_calendar_and_calendar_date_files" })
    }

    @Test func decreasingShapeDistanceClearsTheShapesDistances() throws {
        let (feed, sink) = try validate(
            TinyFeed.with([
                "shapes.txt":
                    "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled\nA,53.1,18.0,1,0\nA,53.2,18.1,2,100\nA,53.3,18.2,3,50\nB,53.1,18.0,1,0\nB,53.2,18.1,2,10\n"
            ]))
        #expect(sink.count(of: "decreasing_shape_distance") == 1)
        let distances = feed.shapes.reals(.shapeDistTraveled)
        #expect(distances[0].isNaN && distances[1].isNaN && distances[2].isNaN)
        #expect(distances[3] == 0 && distances[4] == 10)
        #expect(feed.shapes.count == 5)
    }

    @Test func platformWithWrongParentKindLosesItsParent() throws {
        let (feed, sink) = try validate(
            TinyFeed.with([
                "stops.txt":
                    "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\nS1,One,53.1,18.0,0,S2\nS2,Two,53.2,18.1,0,\nS3,Three,53.3,18.2,0,\n"
            ]))
        #expect(sink.count(of: "wrong_parent_location_type") == 1)
        #expect(feed.stops.texts(.parentStation) == [nil, nil, nil])
    }

    @Test func singleStopTimeTripIsUnusable() throws {
        let (feed, sink) = try validate(
            TinyFeed.with([
                "stop_times.txt":
                    "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT2,09:00:00,09:00:00,S1,1\nT2,09:05:00,09:05:00,S2,2\n"
            ]))
        #expect(feed.trips.texts(.tripId) == ["T2"])
        #expect(sink.samples.first { $0.code == "unusable_trip" }?.severity == .warning)
    }

    @Test func flexStopTimesAreLeftOutNotBlocking() throws {
        let (feed, sink) = try validate(
            TinyFeed.with([
                "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,location_group_id,stop_sequence
                T1,08:00:00,08:00:00,S1,,1
                T1,08:05:00,08:05:00,S2,,2
                T1,08:07:00,08:07:00,,,3
                T2,,,,LG1,1
                T2,,,,LG1,2

                """
            ]))
        #expect(feed.trips.texts(.tripId) == ["T1"])
        #expect(sink.count(of: "flex_stop_time_not_compiled") == 1)
        #expect(sink.count(of: "flex_trip_not_compiled") == 1)
        #expect(sink.count(of: "unusable_trip") == 0)
        // A row with neither a stop nor a Flex location is an error, and dropped.
        #expect(sink.samples.first { $0.code == "missing_required_field" }?.line == 4)
        #expect(feed.stopTimes.count == 2)
        #expect(!sink.hasBlocking)
    }

    @Test func flexOnlyFeedPublishesWithoutTimetableButEmptyStopTimesBlock() throws {
        let (_, flex) = try validate(TinyFeed.with(["stop_times.txt": "trip_id,location_group_id,stop_sequence\nT1,LG1,1\nT1,LG1,2\n"]))
        #expect(!flex.hasBlocking)
        #expect(flex.count(of: "no_fixed_route_service") == 2)
        let (_, empty) = try validate(TinyFeed.with(["stop_times.txt": "trip_id,stop_id,stop_sequence\n"]))
        #expect(empty.hasBlocking)
    }
}
