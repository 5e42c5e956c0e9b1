import BundleFormat
import FeedDiff
import FeedSQLite
import Foundation

/// `feedc diff`: resolves both sides, compiles a dump side into a temporary bundle (never
/// published), and compares the two bundles.
public struct DiffRunner {
    /// The thresholds of the comparison.
    public var settings: DiffSettings
    /// Receives one line per step, for a terminal.
    public var progress: (String) -> Void = { _ in }

    /// A runner with the given thresholds, the defaults unless told.
    public init(settings: DiffSettings = DiffSettings()) {
        self.settings = settings
    }

    /// The diff from `old` to `new`, each a command-line argument (see `DiffInput`).
    public func diff(_ old: String, _ new: String) throws -> FeedDiff {
        let inputs = try [DiffInput.resolve(old), DiffInput.resolve(new)]
        // A dump is compiled under the other side's bundle name and source id when that side is a
        // one-source bundle, so the same content compares equal.
        var name = "dump", source = "feed"
        if let bundle = inputs.first(where: { $0.kind != .dump && !$0.isPipeline }) {
            (name, source) = identity(of: bundle.url) ?? (name, source)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feedc-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [URL] = []
        for (i, input) in inputs.enumerated() {
            let file = folder.appendingPathComponent("\(i).sqlite")
            switch input.kind {
            case .published, .bundleFile:
                files.append(input.url)
                continue
            case .dump:
                progress("compiling \(input.argument)")
                _ = try DumpBundle.compile(dump: input.url, bundle: name, source: source, to: file)
            case .pipeline(let bundleName):
                progress("compiling \(input.argument)")
                let config = try PipelineConfigParser().parse(contentsOf: input.url)
                guard let bundle = config.bundles.first(where: { $0.name == bundleName }) else {
                    throw DiffInputError.unknown(
                        argument: input.argument,
                        reason: "no bundle `\(bundleName)` in \(input.url.path) (it has: \(config.bundles.map(\.name).joined(separator: ", ")))")
                }
                _ = try DumpBundle.compile(bundle, of: config, to: file)
            }
            files.append(file)
        }
        progress("comparing")
        var diff = try BundleDiffer(settings: settings).diff(old: files[0], new: files[1], oldLabel: old, newLabel: new)
        if inputs[0].kind == .dump || inputs[0].isPipeline { diff.old.version = nil }
        if inputs[1].kind == .dump || inputs[1].isPipeline { diff.new.version = nil }
        return diff
    }

    /// The bundle name and only source id of a bundle file, when it has exactly one source.
    private func identity(of url: URL) -> (String, String)? {
        guard let (database, cleanup) = try? BundleFile.open(url) else { return nil }
        defer { cleanup() }
        guard let name = try? database.scalar("SELECT value FROM meta WHERE key = 'bundle'")?.string,
            let sources = try? database.rows("SELECT source_id FROM feeds"), sources.count == 1,
            let source = sources[0][0].string
        else { return nil }
        return (name, source)
    }
}
