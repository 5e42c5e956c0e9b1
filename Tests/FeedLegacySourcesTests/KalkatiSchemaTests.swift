import FeedLegacySources
import FeedModel
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// Kalkati dumps against jpdb.xsd (Kalkati.net revision 1.2, in ../shared/data/kalkati; not
/// shipped with the project because its licence is not stated), through the `schema:` key.
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
struct KalkatiSchemaTests {
    static let xsd = SharedData.url("kalkati/jpdb.xsd")

    @Test func projectSampleIsValidAgainstJpdbXSDAndCompiles() throws {
        let workspace = LegacyWorkspace()
        let (report, bundle) = try workspace.build([
            .init(
                id: "m", format: "kalkati", path: KalkatiTests.sample,
                extra: ["schema": Self.xsd.path])
        ])
        #expect(bundle != nil, "\(report.reason ?? "")")
        #expect(
            !report.sources[0].notices.contains { $0.code == "xml_schema_violation" },
            "\(report.sources[0].samples.filter { $0.code == "xml_schema_violation" }.map(\.message))")
        #expect(report.sources[0].errors == 0)
    }

    @Test func smallTestFileCompilesWithItsSchemaViolationsReported() throws {
        let workspace = LegacyWorkspace()
        let (report, bundle) = try workspace.build([
            .init(
                id: "t", format: "kalkati", path: SharedData.url("kalkati/tmfg_test1_SYNTHETIC.xml"),
                extra: ["schema": Self.xsd.path])
        ])
        let database = try #require(bundle, "\(report.reason ?? "")")
        // The hand-written file breaks jpdb.xsd (element order, a non-numeric ServiceId); it is
        // reported line by line, and what it says is still compiled.
        let violations = report.sources[0].samples.filter { $0.code == "xml_schema_violation" }
        #expect(violations.contains { $0.line == 24 && $0.message.contains("Trnsmode") })
        #expect(violations.allSatisfy { ($0.line ?? 0) > 0 && $0.severity == .error && !$0.blocksPublication })
        #expect(try database.strings("SELECT stop_id FROM stops ORDER BY stop_id") == ["s1", "s2", "s3"])
        #expect(try database.strings("SELECT route_id || ' ' || type FROM routes") == ["1 3"])
        #expect(try database.strings("SELECT stop_id || '@' || departure_time FROM stop_times ORDER BY stop_sequence") == ["s1@25200", "s2@27000", "s3@29700"])
        #expect(try database.strings("SELECT date FROM calendar_dates ORDER BY date") == ["20180928", "20180929", "20180930", "20181004", "20181005"])
        // Without a schema the same file reads without schema notices.
        let sink = NoticeSink()
        #expect(KalkatiReader(url: SharedData.url("kalkati/tmfg_test1_SYNTHETIC.xml")).read(into: sink) != nil)
        #expect(sink.count(of: "xml_schema_violation") == 0)
    }

    @Test func unusableSchemaRefusesTheSource() throws {
        let folder = TemporaryFolder()
        let broken = folder.feed(
            "x", ["broken.xsd": "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\"><xs:element name=\"a\" type=\"nope\"/></xs:schema>"])
        let sink = NoticeSink()
        let reader = KalkatiReader(url: KalkatiTests.sample, options: LegacyReadOptions(schema: broken.appendingPathComponent("broken.xsd")))
        #expect(reader.read(into: sink) == nil)
        #expect(sink.samples.contains { $0.code == "xml_invalid_schema" && $0.blocksPublication })
    }
}

/// The legacy keys of pipeline.yaml are checked like the others, with line numbers.
@Suite struct LegacyConfigTests {
    private func parse(_ yaml: String) throws(ConfigError) -> PipelineConfig {
        try PipelineConfigParser().parse(yaml, file: SharedData.projectRoot.appendingPathComponent("pipeline.yaml"))
    }

    private func error(_ yaml: String) -> ConfigError? {
        do {
            _ = try parse(yaml)
            return nil
        } catch { return error }
    }

    private func source(_ lines: String) -> String {
        "bundles:\n  - name: b\n    sources:\n      - id: s\n" + lines
    }

    @Test func legacyFormatsAndKeysParse() throws {
        let config = try parse(
            source(
                "        format: kalkati\n        path: Samples/kalkati/metro.xml\n        schema: Samples/kalkati/metro.xml\n        timezone: Europe/Helsinki\n"
            ))
        let source = config.bundles[0].sources[0]
        #expect(source.format == .kalkati)
        #expect(source.schema == SharedData.sample("kalkati/metro.xml"))
        #expect(source.timezone == "Europe/Helsinki")
        #expect(
            try parse(self.source("        format: nextbus\n        path: Samples/kalkati\n        timezone: America/Chicago\n")).bundles[0].sources[0].format
                == .nextbus)
    }

    @Test func misplacedOrWrongLegacyKeysAreReportedWithLines() throws {
        let schemaOnGTFS = try #require(error(source("        path: Samples/metro\n        schema: Samples/kalkati/metro.xml\n")))
        #expect(schemaOnGTFS.line == 6 && schemaOnGTFS.message.contains("kalkati"))
        let missing = try #require(error(source("        format: kalkati\n        path: Samples/kalkati/metro.xml\n        schema: nowhere/jpdb.xsd\n")))
        #expect(missing.line == 7 && missing.message.contains("no schema file"))
        let zone = try #require(error(source("        format: nextbus\n        path: Samples/kalkati\n        timezone: Mars/Olympus\n")))
        #expect(zone.line == 7 && zone.message.contains("IANA"))
        let format = try #require(error(source("        format: kalkatti\n        path: Samples/metro\n")))
        #expect(format.line == 5 && format.message.contains("gtfs, kalkati, nextbus"))
    }
}
