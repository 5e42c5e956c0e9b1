import ArgumentParser
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

    func run() throws {
        let url = URL(fileURLWithPath: dump)
        guard FileManager.default.fileExists(atPath: url.path) else {
            Terminal.fail("\(dump): no such file or folder", code: "file_not_found", file: dump)
        }
        let check = FeedCheck(url: url, source: url.lastPathComponent, format: nil, samplesPerCode: max(50, htmlExamples))
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
