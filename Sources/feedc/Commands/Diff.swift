import ArgumentParser
import FeedDiff
import FeedPipeline
import Foundation

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what changed between two versions of a bundle: lines, stops, service, calendar.",
        discussion: """
            Each side is a published version (out/<bundle>@<version>, out/<bundle>@latest, or the \
            folder out/<bundle> for its latest version), a bundle file (.sqlite or .sqlite.gz), a \
            raw dump (GTFS zip or folder, Kalkati XML, NextBus folder), or a bundle of a pipeline, \
            PIPELINE.yaml#NAME: its sources (url: sources from the last build's download cache) \
            compiled with its settings, as feedc build would, for a bundle of several sources or \
            with settings of its own. Dumps are compiled on the fly through the build's stages, \
            never published: `feedc diff out/NAME@latest pipeline.yaml#NAME` exits 0 when the \
            published bundle is what its sources and settings give.

            Trips per day are counted on each side's representative date of each day type: the busiest \
            weekday, Saturday and Sunday within its first 28 days of full service (from the first date \
            with at least half the trips of the busiest date).

            Exit status: 0 both sides hold the same content; 1 they differ; 2 an error.
            """)

    @Argument(help: "The old side.")
    var old: String

    @Argument(help: "The new side.")
    var new: String

    @Flag(help: "Print the diff as JSON (the schema of docs/diff-format.md).")
    var json = false

    @Option(help: ArgumentHelp("Also write a self-contained HTML report with a map.", valueName: "file"))
    var html: String?

    @Option(help: "Items listed per group in the text output; 0 lists all.")
    var limit = 10

    @Option(help: "Metres: a stop moved further than this is reported as moved; a renumbered stop lies within it.")
    var samePlace = 25.0

    func run() throws {
        var runner = DiffRunner(settings: DiffSettings(samePlaceMetres: samePlace))
        if Terminal.isInteractive { runner.progress = { Terminal.status($0) } }
        let diff: FeedDiff
        do {
            diff = try runner.diff(old, new)
        } catch {
            Terminal.fail(error)
        }
        if let html {
            do {
                try ReportFile.write(DiffHTML().render(diff), to: html)
            } catch {
                Terminal.fail(error.description, file: html)
            }
        }
        if json {
            guard let data = try? DiffJSON.encode(diff) else { Terminal.fail("cannot encode JSON") }
            Terminal.writeStandardOutput(data)
        } else {
            print(DiffText(limit: max(0, limit)).render(diff), terminator: "")
        }
        if !diff.identical { throw ExitCode(1) }
    }
}
