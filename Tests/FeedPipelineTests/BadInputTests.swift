import BundleFormat
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// Bad dumps get a clear notice; none crashes; nothing published is touched.
@Suite struct BadInputTests {
    /// Publishes the tiny feed as version 1, then builds `bad` into the same bundle.
    private func afterGoodVersion(_ bad: (TemporaryFolder) throws -> URL) throws -> (BuildReport, Workspace, [String: String]) {
        let workspace = Workspace()
        let good = workspace.folder.feed("good", TinyFeed.files)
        #expect(try workspace.build(workspace.config(sources: [("tiny", good)])).status == .published)
        let before = workspace.snapshot()
        let report = try workspace.build(workspace.config(sources: [("tiny", try bad(workspace.folder))]))
        return (report, workspace, before)
    }

    @Test func emptyStopTimesIsRefusedAndVersionOneStays() throws {
        let (report, workspace, before) = try afterGoodVersion {
            $0.feed("bad", TinyFeed.with(["stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"]))
        }
        #expect(report.status == .refused)
        #expect(report.version == 1)
        #expect(report.reason?.contains("stop_times.txt") == true)
        #expect(workspace.snapshot() == before)
    }

    @Test func truncatedZipIsRefused() throws {
        let (report, workspace, before) = try afterGoodVersion { folder in
            let url = folder.url.appendingPathComponent("cut.zip")
            // A local file header and nothing after it: a zip cut short.
            try Data([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00]).write(to: url)
            return url
        }
        #expect(report.status == .refused)
        #expect(report.reason?.contains("unusable feed") == true)
        #expect(workspace.snapshot() == before)
    }

    @Test func missingRequiredColumnIsRefused() throws {
        let (report, workspace, before) = try afterGoodVersion { $0.feed("bad", TinyFeed.with(["trips.txt": "route_id,trip_id\nR1,T1\n"])) }
        #expect(report.status == .refused)
        let notice = report.sources[0].samples.first { $0.code == "missing_required_column" }
        #expect(notice?.file == "trips.txt")
        #expect(notice?.field == "service_id")
        #expect(workspace.snapshot() == before)
    }

    @Test func repairableProblemsStillPublishWithCounts() throws {
        let (report, _, _) = try afterGoodVersion {
            $0.feed(
                "repairable",
                TinyFeed.with([
                    "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,53.1,18.0\nS2,Two,53.2,18.1\nS3,Three,53.3,18.2\nS3,Dup,53.3,18.2\n",
                    "stop_times.txt": TinyFeed.files["stop_times.txt"]! + "T9,10:00:00,10:00:00,S1,1\nT2,9:99:00,09:15:00,S3,4\n",
                ]))
        }
        #expect(report.status == .published)
        #expect(report.version == 2)
        let source = report.sources[0]
        #expect(source.rowsDropped["stop_times.txt"] == 1)
        #expect(source.rowsDropped["stops.txt"] == 1)
        #expect(source.notices.contains { $0.code == "duplicate_key" && $0.count == 1 })
        #expect(source.notices.contains { $0.code == "foreign_key_violation" && $0.count == 1 })
        #expect(source.notices.contains { $0.code == "invalid_time" && $0.count == 1 })
        #expect(source.notices.contains { $0.code == "rows_dropped" })
    }

    @Test func strictBundleRefusesRepairableErrors() throws {
        let workspace = Workspace()
        let dump = workspace.folder.feed(
            "dup",
            TinyFeed.with(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,53.1,18.0\nS2,Two,53.2,18.1\nS3,Three,53.3,18.2\nS3,Dup,53.3,18.2\n"]))
        let strict = try workspace.config(sources: [("tiny", dump)], extra: "    fail_on_error: true\n")
        let report = try workspace.build(strict)
        #expect(report.status == .refused)
        #expect(report.reason?.contains("fail_on_error") == true)
        #expect(try workspace.manifest() == nil)
        let share = try workspace.config(sources: [("tiny", dump)], extra: "    max_dropped_share: 0.1\n")
        let second = try workspace.build(share)
        #expect(second.status == .refused)
        #expect(second.reason?.contains("stops.txt") == true)
    }

    @Test func nonUTF8AndInvalidTimeAreNamedByFileLineField() throws {
        let workspace = Workspace()
        var stops = Array("stop_id,stop_name,stop_lat,stop_lon\nS1,Caf".utf8) + [0xE9] + Array(",53.1,18.0\nS2,Two,53.2,18.1\nS3,Three,53.3,18.2\n".utf8)
        let dir = workspace.folder.feed("latin1", TinyFeed.with(["stop_times.txt": TinyFeed.files["stop_times.txt"]! + "T2,9:75:00,09:20:00,S1,4\n"]))
        try Data(stops).write(to: dir.appendingPathComponent("stops.txt"))
        stops.removeAll()
        let report = try workspace.build(workspace.config(sources: [("tiny", dir)]))
        #expect(report.status == .published)
        let notice = try #require(report.sources[0].samples.first { $0.code == "invalid_utf8" })
        #expect(notice.file == "stops.txt" && notice.line == 2)
        let time = try #require(report.sources[0].samples.first { $0.code == "invalid_time" })
        #expect(time.file == "stop_times.txt" && time.line == 8 && time.field == "arrival_time" && time.value == "9:75:00")
    }

    @Test func twoAgenciesWithoutIdsDoNotCrash() throws {
        let workspace = Workspace()
        let dump = workspace.folder.feed(
            "agencies",
            TinyFeed.with([
                "agency.txt": "agency_name,agency_url,agency_timezone\nOne,https://a.example,Europe/Warsaw\nTwo,https://b.example,Europe/Warsaw\n",
                "routes.txt": "route_id,route_short_name,route_type\nR1,1,3\n",
            ]))
        let report = try workspace.build(workspace.config(sources: [("tiny", dump)]))
        #expect(report.status == .published)
        #expect(report.sources[0].notices.contains { $0.code == "missing_required_agency_id" })
        #expect(report.rows?["agencies"] == 1)
    }

    /// A NUL ends a string in SQLite's C API and most apps' string types: it is removed, so the
    /// name is neither cut there nor stored with it, and the repair is reported (issue 33).
    @Test func nulBytesAreRemovedNotCutAndReported() throws {
        let workspace = Workspace()
        let dump = workspace.folder.feed(
            "nul", TinyFeed.with(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One\u{0}Extra,53.1,18.0\nS2,Two,53.2,18.1\nS3,Three,53.3,18.2\n"]))
        let report = try workspace.build(workspace.config(sources: [("tiny", dump)]))
        #expect(report.status == .published)
        let (database, cleanup) = try BundleFile.open(try workspace.latestBundle())
        defer { cleanup() }
        #expect(try database.scalar("SELECT name FROM stops WHERE stop_id = 'S1'")?.string == "OneExtra")
        let notice = try #require(report.sources[0].notices.first { $0.code == "nul_character_in_field" })
        #expect(notice.count == 1)
        #expect(notice.severity == .warning)
    }

    @Test func mixedFlexFeedWhoseFixedTripsAreAllLostIsRefused() throws {
        let (report, workspace, before) = try afterGoodVersion {
            $0.feed(
                "mixed",
                TinyFeed.with([
                    "stop_times.txt": """
                    trip_id,arrival_time,departure_time,stop_id,location_group_id,stop_sequence
                    T1,08:00:00,08:00:00,X1,,1
                    T1,08:05:00,08:05:00,X2,,2
                    T2,,,,LG1,1
                    T2,,,,LG1,2

                    """
                ]))
        }
        #expect(report.status == .refused)
        #expect(workspace.snapshot() == before)
    }
}
