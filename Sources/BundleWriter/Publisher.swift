import BundleFormat
import Foundation

/// Publishes bundle versions into `<output>/<bundle>/`: the gzipped bundle, its validation
/// report, then the manifest, last. Old versions beyond the retention are pruned after the
/// manifest no longer lists them.
public struct Publisher {
    /// `<output>/<bundle>`.
    public let folder: URL
    public let bundle: String

    public init(output: URL, bundle: String) {
        self.folder = output.appendingPathComponent(bundle)
        self.bundle = bundle
    }

    public var manifestURL: URL { folder.appendingPathComponent("manifest.json") }

    /// The published manifest, nil when nothing was published yet.
    public func manifest() throws(PublishError) -> Manifest? {
        guard let data = FileManager.default.contents(atPath: manifestURL.path) else { return nil }
        do {
            return try Manifest.decode(data)
        } catch {
            throw .corruptManifest(path: manifestURL.path, reason: "\(error)")
        }
    }

    /// What one publication needs.
    public struct Candidate {
        public var sqlite: [UInt8]
        public var digest: String
        public var report: Data
        public var inputs: String
        public var serviceRange: ServiceRange?
        public var rows: [String: Int]
        /// The diff against the previous version, as JSON; nil for a first version.
        public var diff: Data?

        public init(sqlite: [UInt8], digest: String, report: Data, inputs: String, serviceRange: ServiceRange?, rows: [String: Int],
                    diff: Data? = nil) {
            self.sqlite = sqlite
            self.digest = digest
            self.report = report
            self.inputs = inputs
            self.serviceRange = serviceRange
            self.rows = rows
            self.diff = diff
        }
    }

    /// Publishes `candidate` as version `version` and returns the new manifest.
    public func publish(_ candidate: Candidate, version: Int, previous: Manifest?, keep: Int) throws -> Manifest {
        let gzipped = try Gzip.compress(candidate.sqlite)
        let digestHex = candidate.digest.split(separator: ":").last.map(String.init) ?? candidate.digest
        let file = "bundles/\(version)-\(digestHex.prefix(12)).sqlite.gz"
        let report = "reports/\(version).json"
        try writeAtomically(Data(gzipped), to: folder.appendingPathComponent(file))
        try writeAtomically(candidate.report, to: folder.appendingPathComponent(report))
        var diff: String?
        if let data = candidate.diff {
            diff = "reports/\(version).diff.json"
            try writeAtomically(data, to: folder.appendingPathComponent(diff!))
        }
        let entry = BundleVersion(
            version: version, digest: candidate.digest, file: file, bytes: gzipped.count, sha256: sha256Hex(gzipped),
            serviceStart: candidate.serviceRange?.start, serviceEnd: candidate.serviceRange?.end,
            inputs: candidate.inputs, report: report, diff: diff, rows: candidate.rows)
        let all = [entry] + (previous?.versions ?? [])
        let retained = Array(all.prefix(max(1, keep)))
        let pruned = all.dropFirst(retained.count)
        let manifest = Manifest(bundle: bundle, latest: entry, versions: retained,
                                deltas: (previous?.deltas ?? []).filter { d in retained.contains { $0.version == d.from } && d.to == entry.version })
        try writeAtomically(try manifest.encoded(), to: manifestURL)
        for old in pruned {
            for path in [old.file, old.report, old.diff].compactMap({ $0 }) {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(path))
            }
        }
        return manifest
    }
}
