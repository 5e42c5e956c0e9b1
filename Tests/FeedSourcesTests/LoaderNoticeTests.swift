import FeedModel
import Testing

@testable import FeedSources

/// The loader's codes no other test raised (issue 31): each from the smallest file that
/// raises it, with the severity and repair the loader gives.
@Suite struct LoaderNoticeTests {
    /// One file of one table and the notice it must raise.
    struct Case: Sendable, CustomTestStringConvertible {
        var kind: NoticeKind
        var table: String
        var text: String
        /// The field the notice names, nil when it names none.
        var field: String?
        var severity: Severity

        var testDescription: String { kind.code }
    }

    static let cases: [Case] = [
        Case(
            kind: .invalidUrl, table: "routes", text: "route_id,route_short_name,route_type,route_url\nR1,1,3,www.example.com\n",
            field: "route_url", severity: .warning),
        Case(
            kind: .invalidColor, table: "routes", text: "route_id,route_short_name,route_type,route_color\nR1,1,3,GGGGGG\n",
            field: "route_color", severity: .warning),
        Case(
            kind: .invalidEmail, table: "agency",
            text: "agency_name,agency_url,agency_timezone,agency_email\nAgency,https://a.example,Europe/Warsaw,nobody\n",
            field: "agency_email", severity: .warning),
        Case(
            kind: .invalidTimezone, table: "agency", text: "agency_name,agency_url,agency_timezone\nAgency,https://a.example,Mars\n",
            field: "agency_timezone", severity: .error),
        Case(
            kind: .invalidDate, table: "feed_info",
            text: "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date\nP,https://p.example,en,2026-01-01\n",
            field: "feed_start_date", severity: .error),
        Case(
            kind: .invalidQuoting, table: "stops", text: "stop_id,stop_name,stop_lat,stop_lon\nS1,\"One\"x,53.1,18.0\n",
            field: nil, severity: .warning),
        Case(
            kind: .duplicatedColumn, table: "stops", text: "stop_id,stop_name,stop_name,stop_lat,stop_lon\nS1,A,B,53.1,18.0\n",
            field: "stop_name", severity: .error),
        Case(
            kind: .emptyColumnName, table: "stops", text: "stop_id,,stop_name,stop_lat,stop_lon\nS1,x,A,53.1,18.0\n",
            field: nil, severity: .error),
    ]

    @Test(arguments: cases)
    func raises(_ test: Case) throws {
        let schema = try #require(GTFSSchema.tables.first { $0.name == test.table })
        let sink = NoticeSink()
        let table = TableLoader(schema: schema, sink: sink).load(Array(test.text.utf8))
        let notice = try #require(sink.samples.first { $0.code == test.kind.code }, "\(sink.summary.map(\.code))")
        #expect(notice.file == schema.fileName)
        #expect(notice.field == test.field)
        #expect(notice.severity == test.severity)
        // The file stays usable: a bad value is cleared (or kept as text), a bad header column ignored.
        #expect(table?.count == 1)
    }

    @Test func aRepeatedColumnKeepsTheFirst() throws {
        let sink = NoticeSink()
        let table = try #require(
            TableLoader(schema: GTFSSchema.stops, sink: sink)
                .load(Array("stop_id,stop_name,stop_name,stop_lat,stop_lon\nS1,A,B,53.1,18.0\n".utf8)))
        #expect(table.texts(.stopName) == ["A"])
        #expect(sink.samples.first { $0.code == NoticeKind.duplicatedColumn.code }?.repair == "second column ignored")
    }
}
