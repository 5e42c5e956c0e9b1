import BundleFormat
import BundleWriter
import FeedDiff
import FeedEnhancement
import FeedLegacySources
import FeedModel
import FeedPublish
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
    /// Where AWS settings are read from, for bundles with a `publish:` target.
    public var environment = ProcessInfo.processInfo.environment
    /// Retries, part sizes and test hooks of the upload to object storage.
    public var remoteOptions = RemoteOptions()

    public init(config: PipelineConfig) {
        self.config = config
    }

    /// Builds every bundle. A feed problem is reported as a refused bundle; a tool failure in one
    /// bundle (download, disk, manifest) is reported as failed and the others still build. Only a
    /// failure to take the output folder's lock is thrown.
    public func run() throws -> [BuildReport] {
        let lock = try OutputLock(folder: config.output)
        defer { withExtendedLifetime(lock) {} }
        return config.bundles.map { bundle in
            do {
                // With a publish target, the live manifest decides where versions continue.
                let remote = try bundle.publish.map { try restoreFromRemote(bundle, $0) }
                var report = try build(bundle)
                if let remote { report.upload = upload(bundle, remote) }
                return report
            } catch {
                return BuildReport(bundle: bundle.name, status: .failed, reason: "\(error); nothing was published")
            }
        }
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
            try ensureSignature(bundle, publisher)
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
        var sources: [SourceFeed] = []
        var enhancements: [EnhancementReport] = []
        for (source, check) in zip(fetched, checks) {
            progress("\(bundle.name): directions and opposite stops of \(source.config.id)")
            let enhanced = EnhanceStages.run(check.feed!, source: source.config.id, prefix: source.config.prefix,
                                             opposites: bundle.opposites) { clock.lap($0) }
            sources.append(enhanced.source)
            enhancements.append(enhanced.report)
        }
        progress("\(bundle.name): writing the bundle")
        let content = BundleCompiler().compile(bundle: bundle.name, version: version, sources: sources)
        clock.lap("compile")
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("feedc-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let digest = try BundleFileWriter.write(content, to: temporary.path, modules: bundle.sqliteModules)
        var rows = Dictionary(uniqueKeysWithValues: BundleSchema.tables.map { ($0.name, content.count($0)) })
        rows["stop_times"] = sources.reduce(0) { $0 + $1.feed.stopTimes.count }
        clock.lap("write+digest")
        if let latest = previous?.latest, latest.digest == digest {
            try ensureSignature(bundle, publisher)
            return BuildReport(bundle: bundle.name, status: .unchanged, version: latest.version, digest: digest,
                               reason: "same content as version \(latest.version); nothing published",
                               sources: checks.map(\.report), enhancements: enhancements, rows: rows, seconds: clock.seconds)
        }
        guard let sqlite = FileManager.default.contents(atPath: temporary.path) else {
            throw PublishError.io(path: temporary.path, reason: "cannot read the written bundle back")
        }
        var report = BuildReport(bundle: bundle.name, status: .published, version: version, digest: digest,
                                 sources: checks.map(\.report), enhancements: enhancements, rows: rows, seconds: clock.seconds)
        var diff: Data?
        if let latest = previous?.latest {
            progress("\(bundle.name): comparing with version \(latest.version)")
            diff = diffAgainst(latest, in: publisher, bundle: bundle.name, new: temporary, version: version)
            clock.lap("diff")
        }
        progress("\(bundle.name): publishing version \(version)")
        let candidate = Publisher.Candidate(sqlite: [UInt8](sqlite), digest: digest, report: report.json(), inputs: inputs,
                                            serviceRange: ServiceRange(sources.map(\.feed)), rows: rows, sqlitePath: temporary, diff: diff)
        let signingKey = try bundle.signingKey.map { try String(contentsOf: $0, encoding: .utf8) }
        let published = try publisher.publish(candidate, version: version, previous: previous, keep: config.keep,
                                              maxDeltaShare: bundle.maxDeltaShare, signingKey: signingKey)
        clock.lap("publish")
        report.seconds = clock.seconds
        report.deltas = published.manifest.deltas
        report.changes = published.changes
        if let renumbered = published.changes?.renumbered, !renumbered.isEmpty {
            report.reason = "ids renumbered wholesale since version \(version - 1) in: \(renumbered.joined(separator: ", ")) (the delta is large; most clients will take the full bundle)"
        }
        return report
    }

    /// The diff from the latest published version to the one about to be published, as JSON
    /// (`reports/<version>.diff.json`). A previous bundle that cannot be read (pruned by hand,
    /// damaged) gives no diff rather than stopping the publication.
    private func diffAgainst(_ latest: BundleVersion, in publisher: Publisher, bundle: String, new: URL, version: Int) -> Data? {
        let old = publisher.folder.appendingPathComponent(latest.file)
        do {
            let diff = try BundleDiffer().diff(old: old, new: new, oldLabel: "\(bundle)@\(latest.version)", newLabel: "\(bundle)@\(version)")
            return try DiffJSON.encode(diff)
        } catch {
            progress("\(bundle): no diff against version \(latest.version): \(error)")
            return nil
        }
    }

    /// With a signing key, an unchanged manifest still gets (or keeps) a valid signature: adding
    /// or changing the key must not wait for the next content change.
    private func ensureSignature(_ bundle: BundleConfig, _ publisher: Publisher) throws {
        guard let keyFile = bundle.signingKey else { return }
        let privateKey = try String(contentsOf: keyFile, encoding: .utf8)
        if try publisher.ensureSignature(privateKey: privateKey, publicKey: ManifestSignature.publicKey(of: privateKey)) {
            progress("\(bundle.name): signed the unchanged manifest")
        }
    }

    /// What decides whether a rebuild is needed: the dumps' bytes and the bundle's settings.
    private func fingerprint(_ bundle: BundleConfig, _ fetched: [FetchedSource]) -> String {
        var text = "feedc bundle format \(BundleSchema.formatVersion) compiler \(BundleSchema.compilerIdentity)\n"
        text += "fail_on_error \(bundle.strictness.failOnError)\n"
        text += "max_delta_share \(bundle.maxDeltaShare)\n"
        text += "opposites \(bundle.opposites.maxDistance) \(bundle.opposites.railMaxDistance) \(bundle.opposites.minConfidence)\n"
        text += "max_dropped_share \(bundle.strictness.maxDroppedShare.map { String($0) } ?? "-")\n"
        text += "sqlite_modules \(bundle.sqliteModules.names.joined(separator: ","))\n"
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
