import BundleFormat
import BundleWriter
import FeedEnhancement
import FeedModel
import Foundation

/// Compiles one raw dump into a bundle file without publishing anything: the read, validate,
/// enhance and write stages of a build, for `feedc diff` when a side is a dump.
public enum DumpBundle {
    /// Why a dump could not be compiled.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The dump cannot give a bundle (unreadable, a required file missing, no usable rows).
        case refused(path: String, reason: String)
        case write(path: String, reason: String)

        /// The path and the reason, in one line.
        public var description: String {
            switch self {
            case .refused(let path, let reason): "\(path): \(reason)"
            case .write(let path, let reason): "\(path): cannot write the bundle (\(reason))"
            }
        }
    }

    /// Compiles `dump` (GTFS zip or folder, Kalkati XML, or a folder of NextBus responses: the
    /// format is detected from the content) as the only source (`source`) of bundle `name` into a
    /// new SQLite file at `file`, and returns its content digest. A single source keeps the
    /// feed's ids, as a one-source pipeline bundle does; `settings` are the bundle's (its sources
    /// are ignored), the defaults unless told.
    public static func compile(
        dump: URL, bundle name: String, source sourceId: String = "feed", to file: URL,
        settings: BundleConfig? = nil
    ) throws(Failure) -> String {
        var bundle = settings ?? BundleConfig(name: name, sources: [])
        bundle.name = name
        let source = SourceConfig(id: sourceId, format: .gtfs, location: .path(dump), prefix: "")
        bundle.sources = [source]
        return try compile(bundle, [BundleStages.Input(detecting: source, at: dump)], to: file)
    }

    /// Compiles bundle `bundle` of a pipeline from its sources as configured, with its settings,
    /// into a new SQLite file at `file`, and returns its content digest: what `feedc build` would
    /// publish from the same dumps (`feedc diff out/NAME@latest pipeline.yaml#NAME`). A `url:`
    /// source is read from the build's download cache (`out/.cache/`): what the last build
    /// fetched; nothing is downloaded.
    public static func compile(_ bundle: BundleConfig, of config: PipelineConfig, to file: URL) throws(Failure) -> String {
        let cache = config.output.appendingPathComponent(".cache").appendingPathComponent(bundle.name)
        var inputs: [BundleStages.Input] = []
        for source in bundle.sources {
            switch source.location {
            case .path(let url):
                inputs.append(BundleStages.Input(FetchedSource(config: source, local: url, fingerprint: "")))
            case .remote(let url):
                guard let cached = SourceFetcher(cache: cache).cached(source) else {
                    throw .refused(path: url.absoluteString, reason: "not in the build's download cache (\(cache.path)): run feedc build first")
                }
                inputs.append(BundleStages.Input(FetchedSource(config: source, local: cached, fingerprint: "")))
            }
        }
        return try compile(bundle, inputs, to: file)
    }

    private static func compile(_ bundle: BundleConfig, _ inputs: [BundleStages.Input], to file: URL) throws(Failure) -> String {
        var clock = StageClock()
        var stages = BundleStages(bundle: bundle, workers: .fromEnvironment())
        stages.today = ServiceEndCheck.today()
        switch stages.run(inputs, version: 0, clock: &clock) {
        case .refused(let reason, _):
            throw .refused(path: inputs.map(\.fetched.local.path).joined(separator: ", "), reason: reason)
        case .compiled(let compiled):
            do {
                return try BundleFileWriter.write(compiled.content, to: file.path, modules: bundle.sqliteModules)
            } catch {
                throw .write(path: file.path, reason: error.description)
            }
        }
    }
}
