import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// The frequencies.txt rules, each on the tiny feed with a frequencies.txt that triggers it and
/// one that must not.
@Suite struct FrequencyRuleTests {
    private func validate(_ frequencies: String) throws -> (Feed, NoticeSink) {
        let folder = TemporaryFolder()
        let url = folder.feed(
            "feed",
            TinyFeed.with(
                RuleFixture.feedInfo.merging(["frequencies.txt": "trip_id,start_time,end_time,headway_secs,exact_times\n" + frequencies]) { a, _ in a }))
        let sink = NoticeSink()
        let feed = try #require(GTFSReader(url: url).read(into: sink))
        return (Validator(today: CivilDate.days(year: 2026, month: 6, day: 1)).validate(feed, sink: sink), sink)
    }

    private func windows(_ feed: Feed) -> [String] {
        let f = feed.frequencies
        return (0..<f.count).map {
            "\(f.texts(.tripId)[$0]!) \(TimeText.format(f.integers(.startTime)[$0]))-\(TimeText.format(f.integers(.endTime)[$0])) \(f.integers(.headwaySecs)[$0])"
        }
    }

    @Test func validWindowsRaiseNothing() throws {
        // Back to back (a window may start when the previous one ends), and past midnight.
        let (feed, sink) = try validate("T1,06:00:00,09:00:00,600,0\nT1,09:00:00,20:00:00,900,0\nT1,23:00:00,25:30:00,1800,1\n")
        #expect(sink.counts.isEmpty, "\(sink.summary)")
        #expect(windows(feed).count == 3)
        #expect(TripRuns(feed).count("T1") == 18 + 44 + 5)
        #expect(TripRuns(feed).count("T2") == 1)
    }

    @Test(arguments: ["0", "-60"])
    func aHeadwayThatIsNotPositiveDropsTheWindow(_ headway: String) throws {
        let (feed, sink) = try validate("T1,06:00:00,09:00:00,\(headway),0\nT1,09:00:00,10:00:00,600,0\n")
        let notice = try #require(sink.samples.first { $0.code == "number_out_of_range" })
        #expect(notice.severity == .error && notice.line == 2 && notice.field == "headway_secs" && notice.value == headway)
        #expect(notice.repair == "window dropped")
        #expect(windows(feed) == ["T1 09:00:00-10:00:00 600"])
        #expect(feed.trips.count == 2)
        #expect(!sink.hasBlocking)
    }

    @Test func endBeforeStartDropsTheWindowAndATripLeftWithoutOneGoes() throws {
        let (feed, sink) = try validate("T1,09:00:00,06:00:00,600,0\n")
        let notice = try #require(sink.samples.first { $0.code == "start_and_end_range_out_of_order" })
        #expect(notice.severity == .error && notice.field == "end_time" && notice.value == "06:00:00")
        #expect(notice.repair == "window dropped; the trip, left with no window, dropped with its stop times")
        // T1's stop times were a template: shown as one 08:00 run they would be a wrong timetable.
        #expect(feed.trips.texts(.tripId) == ["T2"])
        #expect(feed.stopTimes.count == 3)
        #expect(feed.frequencies.count == 0)
        #expect(sink.droppedRows == ["frequencies.txt": 1, "trips.txt": 1, "stop_times.txt": 3])
    }

    @Test func anEmptyWindowHoldsNoRun() throws {
        let (feed, sink) = try validate("T1,07:00:00,07:00:00,600,0\nT1,08:00:00,09:00:00,600,0\n")
        #expect(sink.count(of: "start_and_end_range_equal") == 1)
        #expect(sink.samples.first { $0.code == "start_and_end_range_equal" }?.repair == "window dropped")
        #expect(windows(feed) == ["T1 08:00:00-09:00:00 600"])
    }

    @Test func overlappingWindowsAreCutWhereTheNextStarts() throws {
        let (feed, sink) = try validate("T1,06:00:00,10:00:00,600,0\nT1,09:00:00,12:00:00,300,0\nT2,05:58:00,19:28:00,5400,1\nT2,19:23:00,26:03:00,6000,1\n")
        #expect(sink.count(of: "overlapping_frequency") == 2)
        let notice = try #require(sink.samples.first { $0.code == "overlapping_frequency" && $0.line == 3 })
        #expect(notice.severity == .error && notice.value == "09:00:00")
        #expect(notice.repair == "the window of line 2 ends at 09:00:00")
        #expect(windows(feed) == ["T1 06:00:00-09:00:00 600", "T1 09:00:00-12:00:00 300", "T2 05:58:00-19:23:00 5400", "T2 19:23:00-26:03:00 6000"])
        // MARTA's pattern (T2): the exact runs 05:58 … 17:58 and 19:23 … 24:23 all stay.
        #expect(TripRuns(feed).count("T2") == 9 + 4)
        #expect(!sink.hasBlocking)
    }
}
