import Foundation

/// Which bundles of a pipeline one `feedc build` builds: all of them (the default), those named
/// (`--bundle NAME`, repeatable), or one shard of them (`--shard K/N`), so that a CI matrix or a
/// Kubernetes Indexed Job runs the nightly job as one job per bundle or per shard, side by side.
///
/// A shard is every N-th bundle in the file's order, starting with the K-th (1-based, as test
/// runners count shards: `--shard 1/3` … `--shard 3/3`; a Kubernetes Indexed Job passes
/// `$((JOB_COMPLETION_INDEX + 1))/N`). The N shards together are every bundle exactly once, and a
/// shard may be empty when N is larger than the number of bundles. Names and a shard together
/// select the named bundles that fall in the shard.
public struct BundleSelection: Sendable, Equatable {
    /// The bundles named, in the order given; empty for no restriction by name.
    public var names: [String]
    /// The shard (`index` 1…`count`), or nil for every bundle.
    public var shard: Shard?

    public struct Shard: Sendable, Equatable {
        public var index: Int
        public var count: Int

        public init(index: Int, count: Int) {
            self.index = index
            self.count = count
        }

        /// `K/N` with 1 ≤ K ≤ N, or nil.
        public init?(_ text: String) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else { return nil }
            self.init(index: k, count: n)
        }
    }

    /// Every bundle.
    public static let all = BundleSelection(names: [], shard: nil)

    public init(names: [String], shard: Shard?) {
        self.names = names
        self.shard = shard
    }

    /// `config` with only the selected bundles, in the file's order; a name the file does not
    /// have is an error naming the file and the bundles it has.
    public func apply(to config: PipelineConfig) throws -> PipelineConfig {
        let known = config.bundles.map(\.name)
        if let unknown = names.first(where: { !known.contains($0) }) {
            throw ConfigError(
                file: config.file.path, "no bundle named `\(unknown)` (its bundles: \(known.joined(separator: ", ")))")
        }
        var selected = config
        selected.bundles = config.bundles.enumerated().filter { position, bundle in
            let inShard = shard.map { position % $0.count == $0.index - 1 } ?? true
            return inShard && (names.isEmpty || names.contains(bundle.name))
        }.map(\.element)
        return selected
    }
}
