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
    /// feed's ids, as a one-source pipeline bundle does.
    public static func compile(
        dump: URL, bundle name: String, source sourceId: String = "feed", to file: URL,
        opposites: OppositeStopsSettings = OppositeStopsSettings()
    ) throws(Failure) -> String {
        let check = FeedCheck(url: dump, source: dump.lastPathComponent, format: nil)
        if let refusal = check.refusal(under: Strictness()) {
            throw .refused(path: dump.path, reason: refusal)
        }
        let source = EnhanceStages.run(check.feed!, source: sourceId, prefix: "", opposites: opposites).source
        let content = BundleCompiler().compile(bundle: name, version: 0, sources: [source])
        do {
            return try BundleFileWriter.write(content, to: file.path)
        } catch {
            throw .write(path: file.path, reason: error.description)
        }
    }
}
