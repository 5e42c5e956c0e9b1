import ArgumentParser
import FeedPipeline
import Foundation

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build and publish every bundle of a pipeline.",
        discussion: """
        Reads pipeline.yaml, fetches each source, validates and repairs it, writes the bundle and \
        publishes it into <output>/<bundle>/ (bundle, report, then manifest.json) when its content \
        changed. A feed that cannot give a correct bundle is refused and the published version stays.

        With a `publish:` target, the build first continues from the live manifest there (a \
        runner without out/ does not restart at version 1), then uploads the folder \
        (`feedc help publish`).

        Exit status: 0 every bundle published or unchanged; 1 a bundle was refused; 2 a \
        configuration or tool error, or a failed upload (a bundle that failed does not stop the \
        others).
        """)

    @Option(name: .shortAndLong, help: "The pipeline file; paths inside it are relative to it.")
    var config = "pipeline.yaml"

    @Flag(help: "Print the build reports as JSON on standard output.")
    var json = false

    @Flag(help: "Rebuild even when the inputs are unchanged since the latest version.")
    var force = false

    func run() throws {
        let parsed = Terminal.pipeline(config)
        var runner = BuildRunner(config: parsed)
        runner.force = force
        if Terminal.isInteractive { runner.progress = { Terminal.status($0) } }
        let reports: [BuildReport]
        do {
            reports = try runner.run()
        } catch {
            Terminal.fail("\(error)")
        }
        if json {
            Terminal.printJSON(reports)
        } else {
            for report in reports { print(ReportText.render(report), terminator: "") }
        }
        if reports.contains(where: { $0.status == .failed || $0.upload?.status == .failed }) { throw ExitCode(2) }
        if reports.contains(where: { $0.status == .refused }) { throw ExitCode(1) }
    }
}
