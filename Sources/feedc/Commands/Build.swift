import ArgumentParser
import FeedModel
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

            Each bundle's last date with service (the published version's, or the one in place) is \
            measured against today, in UTC, or FEEDC_TODAY=YYYY-MM-DD when set: the report says \
            `service ends …, in N days`, with a warning within `service_end: warn_days` (default \
            30 and 7), and `service_end` in --json and the version's report file.

            `--bundle NAME` (repeatable) builds only the bundles named, `--shard K/N` only every N-th \
            bundle in the file's order from the K-th (1-based): one job per bundle or per shard in a CI \
            matrix or a Kubernetes Indexed Job (docs/operations.md). Without them, every bundle.

            Exit status: 0 every bundle published or unchanged; 1 a bundle was refused; 2 a \
            configuration or tool error, or a failed upload (a bundle that failed does not stop the \
            others); 3 a bundle's service ends within its `service_end: fail_within_days` (the \
            bundle is still published: riders keep the last service).
            """)

    @Option(name: .shortAndLong, help: "The pipeline file; paths inside it are relative to it.")
    var config = "pipeline.yaml"

    @Flag(help: "Print the build reports as JSON on standard output.")
    var json = false

    @Flag(help: "Rebuild even when the inputs are unchanged since the latest version.")
    var force = false

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "How many pieces of work run at once: sources read, validated, enhanced and compiled, tables sorted, deltas computed (default: FEEDC_WORKERS, else one per active processor). The output is the same whatever the number.",
            valueName: "n"))
    var jobs: Int?

    @Option(
        name: .customLong("bundle"),
        help: ArgumentHelp("Build only the bundle of this name (repeatable; default: every bundle).", valueName: "name"))
    var bundles: [String] = []

    @Option(
        help: ArgumentHelp(
            "Build only shard K of N: every N-th bundle in the file's order, from the K-th (1 ≤ K ≤ N).", valueName: "K/N"))
    var shard: String?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let shard, BundleSelection.Shard(shard) == nil {
            throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N, e.g. 2/4 (got `\(shard)`)")
        }
    }

    func run() throws {
        let selection = BundleSelection(names: bundles, shard: shard.flatMap(BundleSelection.Shard.init))
        let parsed: PipelineConfig
        do { parsed = try selection.apply(to: Terminal.pipeline(config)) } catch { Terminal.fail(error) }
        guard let today = ServiceEndCheck.today() else {
            throw ValidationError("FEEDC_TODAY must be a date, YYYY-MM-DD")
        }
        var runner = BuildRunner(config: parsed)
        runner.today = today
        runner.force = force
        runner.workers = jobs.map(Workers.init) ?? Workers.fromEnvironment()
        // One line rewritten in place, on a terminal only, and never beside JSON for scripts.
        let line = ProgressLine()
        if Terminal.isInteractive && !json { runner.progress = { line.show($0) } }
        let reports: [BuildReport]
        do {
            reports = try runner.run()
            line.finish()
        } catch {
            line.finish()
            Terminal.fail(error)
        }
        if json {
            Terminal.printJSON(reports)
        } else {
            for report in reports { print(ReportText.render(report), terminator: "") }
        }
        if reports.contains(where: { $0.status == .failed || $0.upload?.status == .failed }) { throw ExitCode(2) }
        if reports.contains(where: { $0.status == .refused }) { throw ExitCode(1) }
        if reports.contains(where: { $0.serviceEnd?.level == .fail }) { throw ExitCode(3) }
    }
}
