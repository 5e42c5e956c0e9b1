import FeedLegacySources
import FeedModel
import FeedXML
import Foundation
import TestSupport
import Testing

/// The Kalkati.net, NextBus and XML codes no other test raised (issue 31): each from the
/// smallest dump that raises it, at its severity.
@Suite struct LegacyNoticeTests {
    /// A Kalkati dump's content after `KalkatiTests.head`, and the notice it must raise.
    struct KalkatiCase: Sendable, CustomTestStringConvertible {
        var kind: NoticeKind
        var body: String
        var field: String?

        var testDescription: String { kind.code }
    }

    /// The elements of a service of route 1 by bus, from station a to b.
    static let serviceElements = """
        <ServiceNbr CompanyId="7" ServiceNbr="1" Name="One"/><ServiceValidity FootnoteId="5"/><ServiceTrnsmode TrnsmodeId="m1"/>
        <Stop Ix="1" StationId="a" Departure="0800"/><Stop Ix="2" StationId="b" Arrival="0810"/>
        """

    /// A service on every day of the delivery's first week, of `elements`.
    static func service(_ elements: String = serviceElements) -> String {
        """
          <Trnsmode TrnsmodeId="m1" ModeType="5"/>
          <Footnote FootnoteId="5" Vector="1111111"/>
          <Timetbls>
            <Service ServiceId="10">
        \(elements)
            </Service>
          </Timetbls>
        """
    }

    static let kalkatiCases: [KalkatiCase] = [
        KalkatiCase(kind: .kalkatiElementsNotCompiled, body: #"  <Synonym StationId="a" Name="Aa"/>"#, field: nil),
        KalkatiCase(
            kind: .kalkatiInvalidCoordinates, body: #"  <Station StationId="d" Name="D" CountryId="fi" X="1" Y="2"/>"#,
            field: "Station/@X,@Y"),
        KalkatiCase(
            kind: .kalkatiInvalidStop,
            body: service(
                """
                <ServiceNbr CompanyId="7" ServiceNbr="1"/><ServiceValidity FootnoteId="5"/><ServiceTrnsmode TrnsmodeId="m1"/>
                <Stop StationId="a" Departure="0800"/><Stop Ix="2" StationId="b" Arrival="0810"/><Stop Ix="3" StationId="c" Arrival="0820"/>
                """), field: "Stop"),
        KalkatiCase(
            kind: .kalkatiPartialServiceIgnored,
            body: service(
                """
                <ServiceNbr CompanyId="7" ServiceNbr="1"/><ServiceNbr CompanyId="7" ServiceNbr="1X"/>
                <ServiceValidity FootnoteId="5"/><ServiceTrnsmode TrnsmodeId="m1"/>
                <Stop Ix="1" StationId="a" Departure="0800"/><Stop Ix="2" StationId="b" Arrival="0810"/>
                """), field: "ServiceNbr"),
        KalkatiCase(
            kind: .kalkatiServiceWithoutNumber,
            body: service(
                """
                <ServiceValidity FootnoteId="5"/><ServiceTrnsmode TrnsmodeId="m1"/>
                <Stop Ix="1" StationId="a" Departure="0800"/><Stop Ix="2" StationId="b" Arrival="0810"/>
                """), field: "Service/ServiceNbr"),
        KalkatiCase(
            kind: .kalkatiUnknownMode, body: service().replacingOccurrences(of: #"ModeType="5""#, with: #"ModeType="9""#),
            field: "Trnsmode/@ModeType"),
    ]

    @Test(arguments: kalkatiCases)
    func kalkati(_ test: KalkatiCase) throws {
        let folder = TemporaryFolder()
        let url = KalkatiTests.dump(KalkatiTests.head + test.body + "\n</jp_database>\n", folder: folder)
        let sink = NoticeSink()
        #expect(KalkatiReader(url: url).read(into: sink) != nil)
        let notice = try #require(sink.samples.first { $0.code == test.kind.code }, "\(sink.summary.map(\.code))")
        #expect(notice.severity == test.kind.severity)
        #expect(notice.field == test.field)
        #expect(notice.file == "dump.xml")
    }

    @Test func kalkatiFootnoteWithoutAnyDate() throws {
        // Neither the footnote's Firstdate nor the delivery's Firstday: its days cannot be placed.
        let folder = TemporaryFolder()
        let url = KalkatiTests.dump(
            """
            <?xml version="1.0"?>
            <jp_database version="1.0">
              <Delivery CompanyId="7"/>
              <Company CompanyId="7" Code="bus" Name="Bussi Oy"/>
              <Footnote FootnoteId="5" Vector="1111111"/>
            </jp_database>
            """, folder: folder)
        let sink = NoticeSink()
        let feed = try #require(KalkatiReader(url: url).read(into: sink))
        let notice = try #require(sink.samples.first { $0.code == NoticeKind.kalkatiFootnoteWithoutDate.code })
        #expect(notice.severity == .error && notice.value == "5" && notice.line == 5 && notice.repair == "footnote ignored")
        #expect(feed.calendarDates.count == 0)
    }

    @Test func anXMLValueOverTheLimitRefusesTheDump() throws {
        let folder = TemporaryFolder()
        let name = String(repeating: "x", count: XMLLimits.standard.maximumValueBytes + 1)
        let document =
            "<?xml version=\"1.0\"?>\n<jp_database version=\"1.0\">\n"
            + "  <Company CompanyId=\"7\" Code=\"c\" Name=\"\(name)\"/>\n</jp_database>\n"
        let url = KalkatiTests.dump(document, folder: folder)
        let sink = NoticeSink()
        #expect(KalkatiReader(url: url).read(into: sink) == nil)
        let notice = try #require(sink.samples.first { $0.code == NoticeKind.xmlValueTooLarge.code }, "\(sink.summary.map(\.code))")
        #expect(notice.severity == .error && notice.blocksPublication && notice.line == 3)
    }

    /// One NextBus route configured with two stops and one user-facing direction.
    static let routeConfig = """
        <?xml version="1.0" encoding="utf-8"?>
        <body copyright="All data copyright Agency 2026.">
          <route tag="1" title="One" latMin="42.0" latMax="42.1" lonMin="-71.1" lonMax="-71.0">
            <stop tag="a" title="A" lat="42.0" lon="-71.0" stopId="1"/>
            <stop tag="b" title="B" lat="42.1" lon="-71.1" stopId="2"/>
            <direction tag="1_0" title="To B" name="Outbound" useForUI="true"><stop tag="a"/><stop tag="b"/></direction>
          </route>
        </body>
        """

    /// A schedule of route `route` on `serviceClass`: one trip at 08:00 from a, 08:10 at b.
    static func schedule(route: String, serviceClass: String) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <body copyright="All data copyright Agency 2026.">
          <route tag="\(route)" title="One" scheduleClass="2026" serviceClass="\(serviceClass)" direction="Outbound">
            <header><stop tag="a">A</stop><stop tag="b">B</stop></header>
            <tr blockID="1"><stop tag="a" epochTime="28800000">08:00:00</stop><stop tag="b" epochTime="29400000">08:10:00</stop></tr>
          </route>
        </body>
        """
    }

    /// Saved NextBus responses and the notice they must raise.
    struct NextBusCase: Sendable, CustomTestStringConvertible {
        var kind: NoticeKind
        var files: [String: String]

        var testDescription: String { kind.code }
    }

    static let nextBusCases: [NextBusCase] = [
        NextBusCase(kind: .nextbusRouteTypeAssumed, files: ["1.xml": routeConfig]),
        NextBusCase(kind: .nextbusDuplicateRoute, files: ["1.xml": routeConfig, "2.xml": routeConfig]),
        NextBusCase(
            kind: .nextbusRoutesListedOnly,
            files: [
                "1.xml": routeConfig,
                "2.xml": """
                <?xml version="1.0" encoding="utf-8"?>
                <body copyright="All data copyright Agency 2026."><route tag="1" title="One"/><route tag="9" title="Nine"/></body>
                """,
            ]),
        NextBusCase(kind: .nextbusScheduleWithoutRoute, files: ["1.xml": routeConfig, "2.xml": schedule(route: "5", serviceClass: "wkd")]),
        NextBusCase(
            kind: .nextbusUnknownServiceClass,
            files: ["1.xml": routeConfig, "2.xml": schedule(route: "1", serviceClass: "Mystery")]),
        NextBusCase(
            kind: .nextbusErrorResponse,
            files: [
                "1.xml": routeConfig,
                "2.xml": """
                <?xml version="1.0" encoding="utf-8"?>
                <body copyright="All data copyright Agency 2026."><Error shouldRetry="false">Could not get route config</Error></body>
                """,
            ]),
        NextBusCase(
            kind: .nextbusElementNotCompiled,
            files: [
                "1.xml": routeConfig,
                "2.xml": """
                <?xml version="1.0" encoding="utf-8"?>
                <body copyright="All data copyright Agency 2026."><vehicle id="1" routeTag="1"/></body>
                """,
            ]),
    ]

    @Test(arguments: nextBusCases)
    func nextBus(_ test: NextBusCase) throws {
        let folder = TemporaryFolder()
        let url = folder.feed("nextbus", test.files)
        let sink = NoticeSink()
        #expect(NextBusReader(url: url, options: LegacyReadOptions(timezone: "America/New_York")).read(into: sink) != nil)
        let notice = try #require(sink.samples.first { $0.code == test.kind.code }, "\(sink.summary.map(\.code))")
        #expect(notice.severity == test.kind.severity)
        #expect(sink.count(of: test.kind) == 1)
    }
}
