import BundleFormat
import FeedModel
import Foundation

/// Publishes bundle versions into `<output>/<bundle>/`: the gzipped bundle, its validation
/// report, then the manifest, last. Old versions beyond the retention are pruned after the
/// manifest no longer lists them.
package struct Publisher {
    /// `<output>/<bundle>`.
    package let folder: URL
    package let bundle: String
    /// `<output>/.tmp/`, where files are written before they are renamed into place.
    package let scratch: ScratchFolder

    package init(output: URL, bundle: String) {
        self.folder = output.appendingPathComponent(bundle)
        self.bundle = bundle
        self.scratch = ScratchFolder(output: output)
    }

    package var manifestURL: URL { folder.appendingPathComponent("manifest.json") }

    /// The published manifest, nil when nothing was published yet.
    package func manifest() throws(PublishError) -> Manifest? {
        guard let data = FileManager.default.contents(atPath: manifestURL.path) else { return nil }
        do {
            return try Manifest.decode(data)
        } catch {
            throw .corruptManifest(path: manifestURL.path, reason: "\(error)")
        }
    }

    /// Makes sure `manifest.json.sig` is the configured key's signature of the published
    /// manifest, writing it when it is missing or does not verify (a key added or changed while
    /// the content stays the same). Returns true when it wrote one.
    @discardableResult
    package func ensureSignature(privateKey: String, publicKey: String) throws -> Bool {
        guard let manifest = FileManager.default.contents(atPath: manifestURL.path) else { return false }
        let signatureURL = folder.appendingPathComponent("manifest.json.sig")
        if let existing = FileManager.default.contents(atPath: signatureURL.path),
            ManifestSignature.verify(manifest, signature: String(decoding: existing, as: UTF8.self), publicKey: publicKey)
        {
            return false
        }
        let signature = try ManifestSignature.sign(manifest, privateKey: privateKey)
        try writeAtomically(Data((signature + "\n").utf8), to: signatureURL, scratch: scratch)
        return true
    }

    /// What one publication needs.
    package struct Candidate {
        /// The written SQLite file: gzipped when published, and read for deltas.
        package var sqlitePath: URL
        /// The file gzipped, when already made (``BundleFileWriter/writePacked(_:to:modules:workers:)``).
        package var gzipped: [UInt8]?
        package var digest: String
        /// The digest of each table (``ContentDigest/tableDigests(_:only:)``): deltas from older
        /// versions compare them with those kept in each older version's report.
        package var tableDigests: [String: String]?
        package var report: Data
        package var inputs: String
        package var serviceRange: ServiceRange?
        package var rows: [String: Int]
        /// The diff against the previous version, as JSON; nil for a first version.
        package var diff: Data?

        package init(
            sqlitePath: URL, digest: String, report: Data, inputs: String, serviceRange: ServiceRange?, rows: [String: Int],
            diff: Data? = nil, gzipped: [UInt8]? = nil, tableDigests: [String: String]? = nil
        ) {
            self.sqlitePath = sqlitePath
            self.tableDigests = tableDigests
            self.gzipped = gzipped
            self.digest = digest
            self.report = report
            self.inputs = inputs
            self.serviceRange = serviceRange
            self.rows = rows
            self.diff = diff
        }
    }

    /// What a publication wrote.
    package struct Published {
        package var manifest: Manifest
        /// What changed since the previous version, when a delta was computed from it.
        package var changes: DeltaStatistics?
        /// Retained versions that got no delta (their clients download the full bundle), and why.
        package var droppedDeltas: [DroppedDelta] = []
    }

    /// Publishes `candidate` as version `version`: bundle, report, deltas from the retained
    /// versions (each at most `maxDeltaShare` of the bundle's size, computed by up to `workers`
    /// at once), then the manifest.
    package func publish(
        _ candidate: Candidate, version: Int, previous: Manifest?, keep: Int, maxDeltaShare: Double = 0.8,
        signingKey: String? = nil, workers: Workers = Workers(1)
    ) throws -> Published {
        let gzipped = try candidate.gzipped ?? BundleGzip.compress(fileAt: candidate.sqlitePath.path)
        let digestHex = candidate.digest.split(separator: ":").last.map(String.init) ?? candidate.digest
        let file = "bundles/\(version)-\(digestHex.prefix(12)).sqlite.gz"
        // Every name carries its content (the digest, or the file's own SHA-256): two builds
        // racing to one version number in a shared bucket never write one name twice.
        let report = "reports/\(version)-\(sha256Hex(candidate.report).prefix(12)).json"
        try writeAtomically(gzipped, to: folder.appendingPathComponent(file), scratch: scratch)
        try writeAtomically(candidate.report, to: folder.appendingPathComponent(report), scratch: scratch)
        var diff: String?
        if let data = candidate.diff {
            diff = "reports/\(version)-\(sha256Hex(data).prefix(12)).diff.json"
            try writeAtomically(data, to: folder.appendingPathComponent(diff!), scratch: scratch)
        }
        let packed = try writePackedEncoding(of: candidate.sqlitePath, as: "bundles/\(version)-\(digestHex.prefix(12)).packed.sqlite.gz")
        let entry = BundleVersion(
            version: version, digest: candidate.digest, file: file, bytes: gzipped.count, sha256: sha256Hex(gzipped),
            serviceStart: candidate.serviceRange?.start, serviceEnd: candidate.serviceRange?.end,
            inputs: candidate.inputs, report: report, diff: diff, rows: candidate.rows,
            unpackedBytes: try unpackedSize(of: candidate.sqlitePath), encodings: packed.map { [$0] })
        let all = [entry] + (previous?.versions ?? [])
        let retained = Array(all.prefix(max(1, keep)))
        let pruned = all.dropFirst(retained.count)
        let written = try DeltaWriter(folder: folder, maxShare: maxDeltaShare, scratch: scratch)
            .write(
                to: entry, newSQLite: candidate.sqlitePath, newTables: candidate.tableDigests,
                olderVersions: Array(retained.dropFirst()), workers: workers)
        let deltas = written.files, changes = written.fromPrevious
        let manifest = Manifest(bundle: bundle, latest: entry, versions: retained, deltas: deltas)
        let manifestData = try manifest.encoded()
        // The signature is computed before anything is replaced: a bad key changes nothing.
        let signature = try signingKey.map { try ManifestSignature.sign(manifestData, privateKey: $0) }
        let signatureURL = folder.appendingPathComponent("manifest.json.sig")
        if let signature {
            // First the live manifest's signature and the new one's together: whenever this
            // process dies, the manifest in place verifies with the file beside it.
            let live = FileManager.default.contents(atPath: signatureURL.path).map { String(decoding: $0, as: UTF8.self) }
            try writeAtomically(Data(ManifestSignature.bridge(live: live, new: signature).utf8), to: signatureURL, scratch: scratch)
        }
        try writeAtomically(manifestData, to: manifestURL, scratch: scratch)
        if let signature {
            try writeAtomically(Data((signature + "\n").utf8), to: signatureURL, scratch: scratch)
        } else {
            // A signature of an earlier manifest never stays beside this one.
            try? FileManager.default.removeItem(at: signatureURL)
        }
        // After the manifest: files no version or delta it lists refers to any more.
        for old in pruned {
            for path in [old.file, old.report, old.diff].compactMap({ $0 }) + (old.encodings ?? []).map(\.file) {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(path))
            }
        }
        let listed = Set(deltas.map { ($0.file as NSString).lastPathComponent })
        let deltaFolder = folder.appendingPathComponent("deltas")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: deltaFolder.path)) ?? [] where !listed.contains(name) {
            try? FileManager.default.removeItem(at: deltaFolder.appendingPathComponent(name))
        }
        return Published(manifest: manifest, changes: changes, droppedDeltas: written.dropped)
    }

    /// Writes the bundle's packed form, gzipped, as `file` (docs/packed-bundle.md); nil for a
    /// bundle it does not carry (one with `sqlite_modules`).
    private func writePackedEncoding(of sqlite: URL, as file: String) throws -> EncodedBundle? {
        let packed = try scratch.file(".packed")
        defer { try? FileManager.default.removeItem(at: packed) }
        try? FileManager.default.removeItem(at: packed)
        guard try PackedBundleWriter.pack(bundleAt: sqlite.path, to: packed.path) else { return nil }
        let gzipped = try BundleGzip.compress(fileAt: packed.path)
        try writeAtomically(gzipped, to: folder.appendingPathComponent(file), scratch: scratch)
        return EncodedBundle(
            encoding: EncodedBundle.packedGzip, file: file, bytes: gzipped.count, sha256: sha256Hex(gzipped),
            unpackedBytes: try unpackedSize(of: packed))
    }

    /// The size of the written `.sqlite` file, declared in the manifest as `unpacked_bytes`.
    private func unpackedSize(of file: URL) throws(PublishError) -> Int {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int else {
            throw .io(path: file.path, reason: "cannot read the written bundle's size")
        }
        return size
    }
}

/// An older version that got no delta to the new one: its clients take the full bundle.
public struct DroppedDelta: Codable, Sendable, Equatable {
    /// The older version's number.
    public var from: Int
    /// Why, in words ("84.1% of the bundle, over max_delta_share 0.8").
    public var reason: String
    /// The delta's gzipped size, when it was computed.
    public var bytes: Int?
}
