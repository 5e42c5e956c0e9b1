import BundleFormat
import BundleWriter
import FeedDiff
import FeedEnhancement
import FeedLegacySources
import FeedModel
import FeedPublish
import FeedSQLite
import FeedSources
import Foundation

/// Runs the pipeline for every bundle of a config: fetch, read, validate, freeze, write, publish.
/// Data flows one way; no stage calls back into an earlier one.
public struct BuildRunner {
    /// The parsed pipeline.yaml.
    public let config: PipelineConfig
    /// Receives one line per stage, for a terminal; called from the workers' threads too.
    public var progress: @Sendable (String) -> Void = { _ in }
    /// Rebuild even when the inputs are unchanged since the latest version.
    public var force = false
    /// Where AWS settings are read from, for bundles with a `publish:` target.
    public var environment = ProcessInfo.processInfo.environment
    /// Retries, part sizes and test hooks of the upload to object storage.
    public var remoteOptions = RemoteOptions()
    /// How many sources are read, validated, enhanced and compiled at once, and deltas computed;
    /// the output is byte-identical whatever the count.
    public var workers = Workers.fromEnvironment()
    /// Today as a day number (``CivilDate``), against which `service_end` is measured.
    public var today = ServiceEndCheck.today() ?? 0

    /// A runner for every bundle of `config`, with the defaults above.
    public init(config: PipelineConfig) {
        self.config = config
    }

    /// Builds every bundle. A feed problem is reported as a refused bundle; a tool failure in one
    /// bundle (download, disk, manifest) is reported as failed and the others still build. Only a
    /// failure to take the output folder's lock is thrown.
    ///
    /// Under the lock, first removes what an interrupted run left (``ScratchFolder``,
    /// ``LeftoverSweep``): a killed build leaves no trace after the next one.
    public func run() throws -> [BuildReport] {
        let lock = try OutputLock(folder: config.output)
        defer { withExtendedLifetime(lock) {} }
        let scratch = ScratchFolder(output: config.output)
        scratch.clear()
        defer { scratch.clear() }
        for bundle in config.bundles {
            let publisher = Publisher(output: config.output, bundle: bundle.name)
            // An unreadable manifest cannot say what it lists: nothing is removed (the build then fails).
            let manifest: Manifest?
            do { manifest = try publisher.manifest() } catch { continue }
            for path in LeftoverSweep.sweep(publisher.folder, manifest: manifest) {
                progress("\(bundle.name): removed \(path), left by an interrupted build")
            }
        }
        return config.bundles.map { bundle in
            do {
                // With a publish target, the live manifest decides where versions continue.
                let remote = try bundle.publish.map { try restoreFromRemote(bundle, $0) }
                var report = try build(bundle)
                if report.serviceEnd == nil, report.status != .failed,
                    let last = try? Publisher(output: config.output, bundle: bundle.name).manifest()?.latest.serviceEnd
                {
                    // Unchanged or refused: the version riders keep is the one in place.
                    report.serviceEnd = ServiceEndCheck(lastDate: last, today: today, settings: bundle.serviceEnd)
                }
                if let remote { report.upload = upload(bundle, remote) }
                return report
            } catch {
                return BuildReport(bundle: bundle.name, status: .failed, reason: "\(error); nothing was published")
            }
        }
    }

    private func build(_ bundle: BundleConfig) throws -> BuildReport {
        // The jobs below take what they need of the runner, not the runner (not Sendable: its
        // remote options hold test hooks).
        let progress = self.progress, workers = self.workers
        var clock = StageClock()
        let publisher = Publisher(output: config.output, bundle: bundle.name)
        let previous = try publisher.manifest()
        let fetcher = SourceFetcher(cache: config.output.appendingPathComponent(".cache").appendingPathComponent(bundle.name))
        let fetched = try bundle.sources.map { source in
            progress("\(bundle.name): fetching \(source.id)")
            return try fetcher.fetch(source)
        }
        clock.lap("fetch")
        let inputs = BundleFingerprint(bundle: bundle, fetched: fetched).value
        if let latest = previous?.latest, latest.inputs == inputs, !force {
            try ensureSignature(bundle, publisher)
            return BuildReport(
                bundle: bundle.name, status: .unchanged, version: latest.version, digest: latest.digest,
                reason: "inputs unchanged since version \(latest.version); nothing parsed", seconds: clock.seconds)
        }

        let version = (previous?.latest.version ?? 0) + 1
        var stages = BundleStages(bundle: bundle, workers: workers)
        stages.progress = progress
        stages.today = today == 0 ? nil : today  // 0: FEEDC_TODAY is not a date
        let compiled: BundleStages.Compiled
        switch stages.run(fetched.map(BundleStages.Input.init), version: version, clock: &clock) {
        case .refused(let reason, let sources):
            return BuildReport(
                bundle: bundle.name, status: .refused, version: previous?.latest.version,
                digest: previous?.latest.digest, reason: reason + "; the published version stays as it was",
                sources: sources, seconds: clock.seconds)
        case .compiled(let result):
            compiled = result
        }
        let sourceReports = compiled.sources, enhancements = compiled.enhancements
        let network = compiled.network, serviceRange = compiled.serviceRange
        var rows = ["stop_times": compiled.stopTimes]
        // The rows have one owner from here on, freed once written.
        let content = compiled.content
        _ = consume compiled
        let total = BundleSchema.tables.reduce(0) { $0 + content.count($1) }
        progress("\(bundle.name): writing the bundle, \(RowRate.describe(rows: total, seconds: 0))")
        let writing = Date()
        let temporary = try publisher.scratch.file(".sqlite")
        defer { try? FileManager.default.removeItem(at: temporary) }
        for table in BundleSchema.tables { rows[table.name] = content.count(table) }
        // The content is consumed: its rows are freed once the file is written (with more than
        // one worker, while it is gzipped).
        let written = try BundleFileWriter.writePacked(consume content, to: temporary.path, modules: bundle.sqliteModules, workers: workers)
        let digest = written.digest
        clock.lap("write+digest")
        progress("\(bundle.name): wrote the bundle, \(RowRate.describe(rows: total, seconds: Date().timeIntervalSince(writing)))")
        if let latest = previous?.latest, latest.digest == digest {
            try ensureSignature(bundle, publisher)
            return BuildReport(
                bundle: bundle.name, status: .unchanged, version: latest.version, digest: digest,
                reason: "same content as version \(latest.version); nothing published",
                sources: sourceReports, enhancements: enhancements, rows: rows, seconds: clock.seconds)
        }
        var report = BuildReport(
            bundle: bundle.name, status: .published, version: version, digest: digest,
            sources: sourceReports, enhancements: enhancements, rows: rows, seconds: clock.seconds)
        report.network = network
        var diff: Data?
        if let latest = previous?.latest {
            progress("\(bundle.name): comparing with version \(latest.version)")
            diff = diffAgainst(latest, in: publisher, bundle: bundle.name, new: temporary, version: version)
            clock.lap("diff")
        }
        progress("\(bundle.name): publishing version \(version)")
        report.serviceEnd = serviceRange.flatMap { ServiceEndCheck(lastDate: $0.end, today: today, settings: bundle.serviceEnd) }
        // The table digests are for the published report, where later deltas read them; `--json`
        // and the returned report leave them out.
        var stored = report
        stored.tableDigests = written.tableDigests
        let candidate = Publisher.Candidate(
            sqlitePath: temporary, digest: digest, report: stored.json(), inputs: inputs,
            serviceRange: serviceRange, rows: rows, diff: diff,
            gzipped: written.gzipped, tableDigests: written.tableDigests)
        let signingKey = try bundle.signingKey.map { try String(contentsOf: $0, encoding: .utf8) }
        let published = try publisher.publish(
            candidate, version: version, previous: previous, keep: config.keep,
            maxDeltaShare: bundle.maxDeltaShare, signingKey: signingKey, workers: workers)
        clock.lap("publish")
        report.seconds = clock.seconds
        report.deltas = published.manifest.deltas
        report.droppedDeltas = published.droppedDeltas.isEmpty ? nil : published.droppedDeltas
        report.changes = published.changes
        if let renumbered = published.changes?.renumbered, !renumbered.isEmpty {
            report.reason =
                "ids renumbered wholesale since version \(version - 1) in: \(renumbered.joined(separator: ", ")) (the delta is large; most clients will take the full bundle)"
        }
        return report
    }

    /// The diff from the latest published version to the one about to be published, as JSON
    /// (`reports/<version>.diff.json`). A previous bundle that cannot be read (pruned by hand,
    /// damaged) gives no diff rather than stopping the publication.
    private func diffAgainst(_ latest: BundleVersion, in publisher: Publisher, bundle: String, new: URL, version: Int) -> Data? {
        do {
            // Unpacked into out/.tmp/ here, not by the differ into the system's temporary folder.
            let old = try publisher.scratch.file(".sqlite")
            defer { try? FileManager.default.removeItem(at: old) }
            let packed = try Data(contentsOf: publisher.folder.appendingPathComponent(latest.file))
            try Data(Gzip.decompress([UInt8](packed))).write(to: old)
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

}

/// Seconds per stage: wall-clock, except for the stages each source runs in its own job after it
/// is validated (directions, opposites, compile), whose times are summed over the sources. A timetable
/// drafted beside a source's enhancement counts in that source's compile only for what it took
/// after the enhancement ended.
struct StageClock {
    private var last = Date()
    private(set) var seconds: [String: Double] = [:]

    mutating func lap(_ stage: String) {
        let now = Date()
        seconds[stage, default: 0] += (now.timeIntervalSince(last) * 1000).rounded() / 1000
        last = now
    }

    /// Adds stage times measured elsewhere (by a worker).
    mutating func add(_ other: [String: Double]) {
        for (stage, value) in other { seconds[stage, default: 0] += value }
    }

    /// The next lap starts now.
    mutating func restart() {
        last = Date()
    }
}
