import BundleFormat
import BundleWriter
import FeedLegacySources
import FeedModel
import FeedSQLite
import Foundation

/// Runs the pipeline for every bundle of a config: fetch, read, validate, freeze, write, publish.
/// Data flows one way; no stage calls back into an earlier one.
public struct BuildRunner {
    public let config: PipelineConfig
    /// Receives one line per stage, for a terminal.
    public var progress: (String) -> Void = { _ in }
    /// Rebuild even when the inputs are unchanged since the latest version.
    public var force = false

    public init(config: PipelineConfig) {
        self.config = config
    }

    /// Builds every bundle; a tool failure (lock held, disk error) is thrown, a feed problem is
    /// reported as a refused bundle.
    public func run() throws -> [BuildReport] {
        let lock = try OutputLock(folder: config.output)
        defer { withExtendedLifetime(lock) {} }
        return try config.bundles.map { try build($0) }
    }

    private func build(_ bundle: BundleConfig) throws -> BuildReport {
        var clock = StageClock()
        let publisher = Publisher(output: config.output, bundle: bundle.name)
        let previous = try publisher.manifest()
        let fetcher = SourceFetcher(cache: config.output.appendingPathComponent(".cache").appendingPathComponent(bundle.name))
        let fetched = try bundle.sources.map { source in
            progress("\(bundle.name): fetching \(source.id)")
            return try fetcher.fetch(source)
        }
        clock.lap("fetch")
        let inputs = fingerprint(bundle, fetched)
        if let latest = previous?.latest, latest.inputs == inputs, !force {
            return BuildReport(bundle: bundle.name, status: .unchanged, version: latest.version, digest: latest.digest,
                               reason: "inputs unchanged since version \(latest.version); nothing parsed", seconds: clock.seconds)
        }

        var checks: [FeedCheck] = []
        for source in fetched {
            progress("\(bundle.name): reading and validating \(source.config.id)")
            checks.append(FeedCheck(url: source.local, source: source.config.id, fingerprint: source.fingerprint,
                                    format: source.config.format,
                                    options: LegacyReadOptions(schema: source.config.schema, timezone: source.config.timezone)))
        }
        clock.lap("read+validate")
        if let refusal = zip(fetched, checks).compactMap({ f, c in c.refusal(under: bundle.strictness).map { "\(f.config.id): \($0)" } }).first {
            return BuildReport(bundle: bundle.name, status: .refused, version: previous?.latest.version,
                               digest: previous?.latest.digest, reason: refusal + "; the published version stays as it was",
                               sources: checks.map(\.report), seconds: clock.seconds)
        }

        let version = (previous?.latest.version ?? 0) + 1
        let sources = zip(fetched, checks).map { SourceFeed(id: $0.config.id, prefix: $0.config.prefix, feed: $1.feed!) }
        progress("\(bundle.name): writing the bundle")
        let content = BundleCompiler().compile(bundle: bundle.name, version: version, sources: sources)
        clock.lap("compile")
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("feedc-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let digest = try BundleFileWriter.write(content, to: temporary.path)
        var rows = Dictionary(uniqueKeysWithValues: BundleSchema.tables.map { ($0.name, content.count($0)) })
        rows["stop_times"] = sources.reduce(0) { $0 + $1.feed.stopTimes.count }
        clock.lap("write+digest")
        if let latest = previous?.latest, latest.digest == digest {
            return BuildReport(bundle: bundle.name, status: .unchanged, version: latest.version, digest: digest,
                               reason: "same content as version \(latest.version); nothing published",
                               sources: checks.map(\.report), rows: rows, seconds: clock.seconds)
        }
        guard let sqlite = FileManager.default.contents(atPath: temporary.path) else {
            throw PublishError.io(path: temporary.path, reason: "cannot read the written bundle back")
        }
        var report = BuildReport(bundle: bundle.name, status: .published, version: version, digest: digest,
                                 sources: checks.map(\.report), rows: rows, seconds: clock.seconds)
        progress("\(bundle.name): publishing version \(version)")
        let candidate = Publisher.Candidate(sqlite: [UInt8](sqlite), digest: digest, report: report.json(), inputs: inputs,
                                            serviceRange: ServiceRange(sources.map(\.feed)), rows: rows)
        _ = try publisher.publish(candidate, version: version, previous: previous, keep: config.keep)
        clock.lap("publish")
        report.seconds = clock.seconds
        return report
    }

    /// What decides whether a rebuild is needed: the dumps' bytes and the bundle's settings.
    private func fingerprint(_ bundle: BundleConfig, _ fetched: [FetchedSource]) -> String {
        var text = "feedc bundle format \(BundleSchema.formatVersion)\nfail_on_error \(bundle.strictness.failOnError)\n"
        text += "max_dropped_share \(bundle.strictness.maxDroppedShare.map { String($0) } ?? "-")\n"
        for source in fetched {
            text += "\(source.config.id)\t\(source.config.format.rawValue)\t\(source.config.prefix)\t\(source.fingerprint)\n"
            // Legacy settings change the content (time zone) or the report (schema); GTFS lines stay as they were.
            if source.config.format != .gtfs {
                let schema = source.config.schema.flatMap { try? SourceFetcher.fingerprint(of: $0) } ?? "-"
                text += "  timezone \(source.config.timezone ?? "-")\tschema \(schema)\n"
            }
        }
        return "sha256:" + sha256Hex(Data(text.utf8))
    }
}

/// Wall-clock seconds per stage.
struct StageClock {
    private var last = Date()
    private(set) var seconds: [String: Double] = [:]

    mutating func lap(_ stage: String) {
        let now = Date()
        seconds[stage, default: 0] += (now.timeIntervalSince(last) * 1000).rounded() / 1000
        last = now
    }
}
