import ArgumentParser
import FeedModel
import FeedPipeline
import Foundation

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate one dump (GTFS zip or folder, Kalkati XML, NextBus responses) and report its problems.",
        discussion: """
            Notices carry MobilityData gtfs-validator's codes and severities, with file, line, field \
            and value, and the repair a build would make.

            The format is detected from the content: an XML file whose root is jp_database is a \
            Kalkati.net dump; a folder of XML files whose root is body holds NextBus responses; \
            anything else is read as GTFS. Kalkati dumps are not schema-checked here (no schema \
            path); `feedc build` checks them against a source's `schema:`.

            --html FILE also writes the report as one self-contained HTML page (no script, nothing \
            fetched): counts, whether a build would publish the feed, every code with its description \
            and example rows, and the repairs a build makes. Standard output is unchanged.

            --date YYYY-MM-DD is the validation date, as MobilityData gtfs-validator's --date: the \
            calendar warnings (expired_calendar, feed_expiration_date7_days and _30_days, \
            trip_coverage_not_active_for_next7_days) are measured against it. Default: FEEDC_TODAY \
            (YYYY-MM-DD) when set, as for feedc build, else today in UTC.

            Exit status: 0 no errors; 1 error-level notices; 2 the dump could not be opened, or the \
            HTML file could not be written.
            """)

    @Argument(help: "A GTFS zip file or folder, a Kalkati XML file, or a folder of NextBus responses.")
    var dump: String

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Option(help: "Examples printed per notice code in the readable report.")
    var examples = 3

    @Option(help: ArgumentHelp("Also write the report as a self-contained HTML page.", valueName: "file"))
    var html: String?

    @Option(help: "Example rows per notice code in the HTML page.")
    var htmlExamples = 50

    @Option(
        help: ArgumentHelp(
            "The validation date the calendar warnings are measured against (default: FEEDC_TODAY, else today, UTC).",
            valueName: "YYYY-MM-DD"))
    var date: String?

    func validate() throws {
        if let date, Self.day(date) == nil {
            throw ValidationError("--date must be a calendar date, YYYY-MM-DD: `\(date)`")
        }
    }

    /// The day number of exactly `YYYY-MM-DD` naming a real date (not 2026-02-30), or nil.
    static func day(_ text: String) -> Int? {
        guard text.utf8.count == 10,
            text.utf8.enumerated().allSatisfy({
                [4, 7].contains($0.offset) ? $0.element == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0.element)
            }),
            let day = CivilDate.parse(text), CivilDate.iso(day) == text
        else { return nil }
        return day
    }

    func run() throws {
        let url = URL(fileURLWithPath: dump)
        guard FileManager.default.fileExists(atPath: url.path) else {
            Terminal.fail("\(dump): no such file or folder", code: .fileNotFound, file: dump)
        }
        let check = FeedCheck(
            url: url, source: url.lastPathComponent, format: nil, samplesPerCode: max(50, htmlExamples),
            today: date.flatMap(Self.day) ?? ServiceEndCheck.today())
        if let html {
            let page = ValidationHTML(examplesPerCode: max(0, htmlExamples), version: Feedc.configuration.version)
            do {
                try ReportFile.write(page.render(check.report), to: html)
            } catch {
                Terminal.fail(error.description, file: html)
            }
        }
        if json {
            Terminal.printJSON(check.report)
        } else {
            print(ReportText.render(check.report, examplesPerCode: examples), terminator: "")
        }
        if check.feed == nil { throw ExitCode(2) }
        if check.report.errors > 0 { throw ExitCode(1) }
    }
}
