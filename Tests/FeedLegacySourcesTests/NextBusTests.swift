import BundleFormat
import FeedDiff
import FeedLegacySources
import FeedModel
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// The real NextBus responses in ../shared/data/nextbus compile into bundles; directions,
/// schedules, the AC Transit 22 change between two versions, and bad responses.
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
struct NextBusTests {
    typealias Source = LegacyWorkspace.Source

    /// The saved responses, grouped by agency as an operator would save them. Files are renamed
    /// to say nothing of their content: the reader recognises each by what it holds.
    static let sets: [(name: String, files: [String: String])] = [
        (
            "mbta",
            [
                "mbta_routeConfig_r71.xml": "1.xml", "mbta_routeConfig_r73.xml": "2.xml", "mbta_routeList.xml": "3.xml",
                "NextBusXMLFeed.pdf": "4.xml",
            ]
        ),
        (
            "mbta34",
            [
                "elliottsj_routeConfig.xml": "a.xml", "elliottsj_schedule.xml": "b.xml", "elliottsj_routeList.xml": "c.xml",
                "elliottsj_agencyList.xml": "d.xml",
            ]
        ),
        (
            "actransit2015",
            [
                "actransit_routeConfig_r22_2015.xml": "config.xml", "actransit_schedule_r22.xml": "other.xml",
                "actransit_routeList.xml": "list.xml", "nextbus_agencyList_mantle.xml": "agencies.xml",
            ]
        ),
        ("actransit2016", ["actransit_routeConfig_r22_2016.xml": "config.xml"]),
        ("seattle", ["evansiroky_routeConfig-all.xml": "routes.xml", "evansiroky_routeList.xml": "list.xml"]),
    ]

    static func build(_ set: String, workspace: LegacyWorkspace, timezone: String? = nil) throws -> (BuildReport, BundleDatabase?) {
        let files = try #require(sets.first { $0.name == set }).files
        let folder = try workspace.nextBusFolder(set, files)
        var source = Source(id: set, format: "nextbus", path: folder)
        if let timezone { source.extra["timezone"] = timezone }
        return try workspace.build(bundle: set, [source])
    }

    @Test(arguments: sets.map(\.name))
    func realResponsesCompile(_ set: String) throws {
        let workspace = LegacyWorkspace()
        let (report, bundle) = try Self.build(set, workspace: workspace)
        let database = try #require(bundle, "\(set): \(report.reason ?? "")")
        let source = report.sources[0]
        #expect(!source.notices.contains { $0.code == "xml_schema_violation" }, "\(set) is valid against nextbus.xsd")
        #expect(try database.int("SELECT count(*) FROM routes")! >= 1)
        #expect(try database.int("SELECT count(*) FROM stops")! >= 10)
        #expect(try database.int("SELECT count(*) FROM patterns")! >= 2)
        #expect(try database.int("SELECT count(*) FROM stops WHERE lat IS NULL")! == 0)
    }

    @Test func mbta71And73DirectionsAreMarkedUserFacingOrBranch() throws {
        let workspace = LegacyWorkspace()
        let (report, bundle) = try Self.build("mbta", workspace: workspace, timezone: "America/New_York")
        let database = try #require(bundle, "\(report.reason ?? "")")
        // The PDF saved beside the responses is recognised as not XML and ignored.
        #expect(report.sources[0].samples.contains { $0.code == "unknown_file" && $0.file == "4.xml" })
        #expect(!report.sources[0].notices.contains { $0.code == "legacy_timezone_assumed" })
        for route in ["71", "73"] {
            // Six directions per route in the files: two user-facing, four branch patterns.
            #expect(try database.int("SELECT count(*) FROM trips WHERE route_id = '\(route)'") == 6)
            let ui = try database.strings("SELECT direction_id FROM trips WHERE trip_id LIKE '\(route)/ui/%' ORDER BY direction_id")
            #expect(ui == ["0", "1"], "\(route)")
            let branches = try database.strings("SELECT direction_id FROM trips WHERE trip_id LIKE '\(route)/branch/%'")
            #expect(branches == ["NULL", "NULL", "NULL", "NULL"], "\(route)")
            // Pattern trips run on no day; every UI direction has a headsign and a joined shape.
            #expect(try database.int("SELECT count(*) FROM trips WHERE route_id = '\(route)' AND service_id != 'nextbus_patterns'") == 0)
            #expect(try database.int("SELECT count(*) FROM patterns WHERE route_id = '\(route)' AND shape_id IS NOT NULL AND headsign IS NOT NULL") == 6)
        }
        #expect(try database.int("SELECT count(*) FROM trips") == 12)
        #expect(try database.strings("SELECT headsign FROM trips WHERE trip_id = '71/ui/71_1_var0'") == ["Harvard via Mt. Auburn St."])
        #expect(try database.strings("SELECT monday + tuesday + wednesday + thursday + friday + saturday + sunday FROM calendar") == ["0"])
        #expect(try database.strings("SELECT timezone FROM agencies") == ["America/New_York"])
        #expect(try database.strings("SELECT name FROM agencies") == ["MBTA"])
        // The directions stage collapses each route's six directions into the two user-facing
        // ones: every branch pattern joins one of them.
        for route in ["71", "73"] {
            #expect(try database.int("SELECT count(*) FROM directions WHERE route_id = '\(route)'") == 2, "\(route)")
            let perDirection = try database.strings(
                "SELECT count(*) FROM trips t JOIN patterns p ON p.pattern_id = t.pattern_id WHERE t.route_id = '\(route)' GROUP BY p.direction_index ORDER BY p.direction_index"
            )
            #expect(perDirection.count == 2 && perDirection.allSatisfy { $0 != "0" }, "\(route): \(perDirection)")
            // The user-facing directions keep their own index.
            let uiIndex = try database.strings(
                "SELECT p.direction_index FROM trips t JOIN patterns p ON p.pattern_id = t.pattern_id WHERE t.trip_id LIKE '\(route)/ui/%' ORDER BY t.direction_id"
            )
            #expect(uiIndex == ["0", "1"], "\(route)")
        }
    }

    @Test func acTransit22StopsThatChangedFrom2015To2016() throws {
        // The expected change, computed from the XML text independently of the reader.
        func stops(_ file: String) throws -> [String: String] {
            let text = try String(contentsOf: SharedData.url("nextbus/\(file)"), encoding: .utf8)
            let regex = try NSRegularExpression(pattern: #"<stop tag="([^"]+)" title="([^"]*)" lat="([^"]+)" lon="([^"]+)""#)
            var out: [String: String] = [:]
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let group = { (i: Int) in String(text[Range(match.range(at: i), in: text)!]) }
                out[group(1)] = "\(group(2).replacingOccurrences(of: "&amp;", with: "&"))|\(Double(group(3))!)|\(Double(group(4))!)"
            }
            return out
        }
        let old = try stops("actransit_routeConfig_r22_2015.xml"), new = try stops("actransit_routeConfig_r22_2016.xml")
        let added = Set(new.keys).subtracting(old.keys), removed = Set(old.keys).subtracting(new.keys)
        let changed = Set(old.keys).intersection(new.keys).filter { old[$0] != new[$0] }
        #expect(!added.isEmpty || !removed.isEmpty || !changed.isEmpty, "the two versions differ")

        let workspace = LegacyWorkspace()
        let (_, b2015) = try Self.build("actransit2015", workspace: workspace)
        let (_, b2016) = try Self.build("actransit2016", workspace: workspace)
        func bundleStops(_ bundle: BundleDatabase?) throws -> [String: String] {
            let rows = try #require(bundle).database.rows("SELECT stop_id, name, lat, lon FROM stops")
            return Dictionary(uniqueKeysWithValues: rows.map { ($0[0].string!, "\($0[1].string ?? "")|\($0[2].double!)|\($0[3].double!)") })
        }
        let before = try bundleStops(b2015), after = try bundleStops(b2016)
        #expect(before == old)
        #expect(after == new)
        #expect(Set(after.keys).subtracting(before.keys) == added)
        #expect(Set(before.keys).subtracting(after.keys) == removed)
        #expect(Set(before.keys).intersection(after.keys).filter { before[$0] != after[$0] } == changed)

        // `feedc diff` of the two bundles shows the same stops.
        func latest(_ bundle: String) throws -> URL {
            let folder = workspace.output.appendingPathComponent(bundle)
            return folder.appendingPathComponent(try Manifest.decode(Data(contentsOf: folder.appendingPathComponent("manifest.json"))).latest.file)
        }
        let diff = try BundleDiffer().diff(old: latest("actransit2015"), new: latest("actransit2016"))
        let renumbered = Set(diff.stops.renumbered.flatMap { [$0.oldStopId, $0.newStopId] })
        #expect(Set(diff.stops.added.map(\.stopId)).union(renumbered.intersection(added)) == added)
        #expect(Set(diff.stops.removed.map(\.stopId)).union(renumbered.intersection(removed)) == removed)
        let renamedOrMoved = Set(diff.stops.renamed.map(\.stopId)).union(diff.stops.moved.map(\.stopId))
        #expect(renamedOrMoved.isSubset(of: changed))
    }

    @Test func schedulesBecomeTripsOnSynthesizedServices() throws {
        let workspace = LegacyWorkspace()
        let (report, bundle) = try Self.build("actransit2015", workspace: workspace)
        let database = try #require(bundle, "\(report.reason ?? "")")
        // Five timetable rows; the one serving a single stop is unusable and dropped.
        #expect(try database.int("SELECT count(*) FROM trips WHERE service_id = 'wkd'") == 4)
        #expect(report.sources[0].notices.contains { $0.code == "unusable_trip" })
        #expect(try database.strings("SELECT DISTINCT direction_id || headsign FROM trips WHERE service_id = 'wkd'") == ["0Clockwise to Hayward BART"])
        #expect(try database.strings("SELECT start_time FROM trips WHERE service_id = 'wkd' ORDER BY start_time LIMIT 1") == ["20700"])
        #expect(try database.strings("SELECT block_id FROM trips WHERE service_id = 'wkd' ORDER BY start_time LIMIT 1") == ["22001"])
        #expect(
            try database.strings("SELECT monday || saturday || sunday || start_date || end_date FROM calendar WHERE service_id = 'wkd'") == [
                "1002000010120991231"
            ])

        let (mbta, mbtaBundle) = try Self.build("mbta34", workspace: workspace)
        let m = try #require(mbtaBundle, "\(mbta.reason ?? "")")
        let days = try m.strings(
            "SELECT service_id || ':' || monday || tuesday || wednesday || thursday || friday || saturday || sunday FROM calendar ORDER BY service_id")
        #expect(
            days == [
                "MoTuWeThFr:1111100", "Saturday:0000010", "SaturdayHoliday:0000000", "Sunday:0000001", "SundayHoliday:0000000",
                "WkdyNoSchool:0000000", "nextbus_patterns:0000000",
            ])
        #expect(try m.int("SELECT count(*) FROM trips WHERE service_id != 'nextbus_patterns'")! > 400)
    }

    @Test func badResponsesRefuseTheSource() throws {
        let workspace = LegacyWorkspace()
        func refusal(_ files: [String: String]) throws -> [Notice] {
            let folder = workspace.folder.feed("bad-\(UUID().uuidString)", files)
            let (report, bundle) = try workspace.build(bundle: "bad", [Source(id: "bad", format: "nextbus", path: folder)])
            #expect(report.status == .refused && bundle == nil)
            return report.sources[0].samples.filter(\.blocksPublication)
        }
        let config = try String(contentsOf: SharedData.url("nextbus/mbta_routeConfig_r71.xml"), encoding: .utf8)
        #expect(
            try refusal(["a.xml": config, "b.xml": "<?xml version=\"1.0\"?>\n<jp_database/>\n"]).contains { $0.code == "xml_wrong_root" && $0.file == "b.xml" })
        #expect(try refusal(["a.xml": String(config.prefix(5000))]).contains { $0.code == "xml_truncated" })
        #expect(
            try refusal([
                "a.xml": config.replacingOccurrences(of: "Waterhouse St", with: "Waterhouse \u{FFFD}St")
                    .replacingOccurrences(of: "\u{FFFD}", with: "\u{1}")
            ]).contains { $0.code == "xml_invalid_encoding" || $0.code == "xml_malformed" })
    }

    @Test func schemaViolationsAreNoticesWithLines() throws {
        let temporary = TemporaryFolder()
        let folder = temporary.feed(
            "nb",
            [
                "r.xml": """
                <?xml version="1.0"?>
                <body copyright="All data copyright Test Transit 2020.">
                <route tag="1" title="One" color="zzzzzz">
                <stop tag="a" title="A" lat="37.1" lon="-122.1"/>
                <stop tag="b" title="B" lon="-122.2"/>
                <direction tag="d0" title="Out" name="Outbound" useForUI="true"><stop tag="a"/><stop tag="b"/></direction>
                <surprise/>
                </route>
                </body>
                """
            ])
        let sink = NoticeSink()
        let feed = try #require(NextBusReader(url: folder).read(into: sink))
        let lines = sink.samples.filter { $0.code == "xml_schema_violation" }.compactMap(\.line).sorted()
        #expect(lines == [3, 5, 7])
        #expect(feed.stops.count == 2 && feed.routes.texts(.routeColor) == [nil])
    }
}
