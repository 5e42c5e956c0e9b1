import BundleFormat
import BundleWriter
import FeedEnhancement
import FeedLegacySources
import FeedModel
import FeedSources
import Foundation

/// The stages that make a bundle's content from its sources' dumps, in order: read and validate
/// each source, refuse or freeze it, enhance it (directions, opposite stops, pathways), compile
/// it, join the sources and make one network of them. The one sequence `feedc build`
/// (``BuildRunner``, which then writes and publishes), `feedc diff` on dumps (``DumpBundle``) and
/// the tests' fixture builds run, so what a diff or a test compiles is what a build publishes.
struct BundleStages {
    /// One source's dump on disk: `format` nil detects it from the content (`feedc diff`).
    struct Input: Sendable {
        var fetched: FetchedSource
        var format: SourceFormat?

        var config: SourceConfig { fetched.config }
        var bytes: Int { fetched.bytes }

        /// A fetched source, read in its configured format.
        init(_ fetched: FetchedSource) {
            self.fetched = fetched
            format = fetched.config.format
        }

        /// A dump given as it is (no fingerprint), its format detected from the content.
        init(detecting config: SourceConfig, at local: URL) {
            fetched = FetchedSource(config: config, local: local, fingerprint: "")
            format = nil
        }
    }

    /// The stages' result: the bundle's rows (its `meta` table as `version` says), or the refusal.
    enum Outcome {
        case refused(reason: String, sources: [FeedCheckReport])
        case compiled(Compiled)
    }

    /// A bundle's content, with what each stage reported.
    struct Compiled {
        var content: BundleContent
        var sources: [FeedCheckReport]
        var enhancements: [EnhancementReport]
        var network: NetworkReport
        var serviceRange: ServiceRange?
        var stopTimes: Int
    }

    let bundle: BundleConfig
    var workers: Workers
    var progress: @Sendable (String) -> Void = { _ in }
    /// The validation date (a day number) the calendar rules measure against: the build's
    /// today (`FEEDC_TODAY` when set), as its service-end check; nil is today in UTC.
    var today: Int?

    /// Runs the stages on `inputs`, the bundle's sources in its order; `clock` gets each stage's
    /// time.
    func run(_ inputs: [Input], version: Int, clock: inout StageClock) -> Outcome {
        let bundle = self.bundle, progress = self.progress, workers = self.workers, today = self.today
        // Sources side by side, the largest first; each check is independent of the others.
        var checks = workers.map(inputs, largestFirst: \.bytes) { source in
            progress("\(bundle.name): reading and validating \(source.config.id)")
            let check = FeedCheck(
                url: source.fetched.local, source: source.config.id,
                fingerprint: source.fetched.fingerprint.isEmpty ? nil : source.fetched.fingerprint,
                format: source.format,
                options: LegacyReadOptions(schema: source.config.schema, timezone: source.config.timezone),
                limits: bundle.archiveLimits, today: today, workers: workers)
            let rate = RowRate.describe(rows: check.report.rowsRead.values.reduce(0, +), seconds: check.report.seconds.values.reduce(0, +))
            progress("\(bundle.name): \(source.config.id) read and validated, \(rate)")
            return check
        }
        clock.lap("read+validate")
        if let refusal = zip(inputs, checks).compactMap({ f, c in c.refusal(under: bundle.strictness).map { "\(f.config.id): \($0)" } }).first {
            return .refused(reason: refusal, sources: checks.map(\.report))
        }
        let sourceReports = checks.map(\.report)
        let feeds = checks.map(\.feed!)
        // From here on each source's tables have one owner, so each is freed once compiled.
        checks = []
        let stopTimes = feeds.reduce(0) { $0 + $1.stopTimes.count }
        let serviceRange = ServiceRange(feeds)
        // Each source enhanced and compiled on its own (links never cross sources), one job per
        // source with no barrier between the stages; stage times are summed over sources. With a
        // worker to spare (fewer sources than workers), a source's timetable, which needs nothing
        // of the enhancement but its patterns' directions, is compiled meanwhile on a pool thread
        // if one is free (BundleWriter.DraftedTimetable; the same rows either way).
        let beside = workers.count > feeds.count
        // Each feed handed to its job alone: freed once its source is compiled.
        let slots = zip(inputs, feeds).map { Handover(($0, $1), cost: $1.stopTimes.count) }
        _ = consume feeds
        var compiled = workers.map(slots, largestFirst: \.cost) { slot in
            let (source, feed) = slot.take()
            progress("\(bundle.name): directions and opposite stops of \(source.config.id)")
            let prefix = source.config.prefix
            let drafting = beside ? workers.beside { DraftedTimetable(feed: feed, prefix: prefix) } : nil
            var stages = StageClock()
            let enhanced = EnhanceStages.run(
                feed, source: source.config.id, prefix: prefix,
                opposites: bundle.opposites, network: bundle.network
            ) { stages.lap($0) }
            let part = BundleCompiler().compile(source: enhanced.source, drafting: drafting)
            stages.lap("compile")
            return (part, enhanced.report, stages.seconds)
        }
        for (_, _, seconds) in compiled { clock.add(seconds) }
        clock.restart()
        let enhancements = compiled.map(\.1)
        let parts = compiled.map(\.0)
        compiled = []
        var content = BundleCompiler().join(bundle: bundle.name, version: version, parts: consume parts, range: serviceRange)
        clock.lap("compile")
        progress("\(bundle.name): joining the sources into one network")
        let networkSink = NoticeSink()
        var compiler = NetworkCompiler(
            settings: bundle.network, sources: bundle.sources.map { ($0.id, $0.prefix) },
            nyctTripIds: RealtimeTripIds.nyct(inputs.map(\.fetched), sink: networkSink),
            overridesFile: bundle.networkOverridesFile ?? "overrides")
        compiler.workers = workers
        let network = NetworkReport(compiler.compile(into: &content, sink: networkSink), sink: networkSink)
        clock.lap("network")
        return .compiled(
            Compiled(
                content: content, sources: sourceReports, enhancements: enhancements, network: network,
                serviceRange: serviceRange, stopTimes: stopTimes))
    }
}
