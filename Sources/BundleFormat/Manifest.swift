import FeedModel
import Foundation

/// `manifest.json`: what a bundle's output folder holds. Written last on every publication;
/// clients read it first.
public struct Manifest: Codable, Sendable, Equatable {
    /// The bundle format version of the listed bundles (``BundleSchema/formatVersion``).
    public var format: Int
    /// The bundle's name, as pipeline.yaml gives it.
    public var bundle: String
    /// The newest version: what clients download.
    public var latest: BundleVersion
    /// Every retained version, newest first.
    public var versions: [BundleVersion]
    /// Deltas from older versions to the latest; an older version may have none (dropped as too large).
    public var deltas: [DeltaFile]

    /// A manifest in the current format.
    public init(bundle: String, latest: BundleVersion, versions: [BundleVersion], deltas: [DeltaFile] = []) {
        self.format = BundleSchema.formatVersion
        self.bundle = bundle
        self.latest = latest
        self.versions = versions
        self.deltas = deltas
    }

    /// Stable, sorted-key JSON, so an unchanged manifest has unchanged bytes.
    public func encoded() throws -> Data {
        var data = try StableJSON.encoder().encode(self)
        data.append(0x0A)
        return data
    }

    /// Reads a manifest the way the publisher wrote it, unchecked (clients use ``ManifestCheck``).
    public static func decode(_ data: Data) throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: data)
    }

    /// Every file the manifest refers to (bundles, reports, diffs, deltas), relative to the
    /// bundle's folder: what is uploaded, and what a cleanup never removes.
    public var listedFiles: Set<String> {
        var paths = Set<String>()
        for version in versions + [latest] {
            paths.insert(version.file)
            for encoded in version.encodings ?? [] { paths.insert(encoded.file) }
            if let report = version.report { paths.insert(report) }
            if let diff = version.diff { paths.insert(diff) }
        }
        for delta in deltas { paths.insert(delta.file) }
        return paths
    }
}

/// One published version of a bundle.
public struct BundleVersion: Codable, Sendable, Equatable {
    /// The version number, counting up from 1.
    public var version: Int
    /// The content digest, `sha256:…`.
    public var digest: String
    /// Path of the gzipped bundle, relative to the manifest.
    public var file: String
    /// Size of the gzipped file.
    public var bytes: Int
    /// SHA-256 of the gzipped file, hex.
    public var sha256: String
    /// First and last service dates (`YYYY-MM-DD`), from calendar and calendar_dates.
    public var serviceStart: String?
    /// The last service date, `YYYY-MM-DD`.
    public var serviceEnd: String?
    /// Fingerprint of the inputs (dump bytes and bundle settings) this version was built from;
    /// a run with the same fingerprint stops before parsing.
    public var inputs: String?
    /// Path of the validation report, relative to the manifest.
    public var report: String?
    /// Path of the diff against the previous version (`docs/diff-format.md`), relative to the
    /// manifest; nil for a first version.
    public var diff: String?
    /// Row counts per table.
    public var rows: [String: Int]?
    /// Size of the bundle once gunzipped (the `.sqlite` file): clients inflate no more than this
    /// (docs/update-protocol.md, "Limits"). Absent in manifests written before 2026-11-27.
    public var unpackedBytes: Int?
    /// Other encodings of the same bundle, in the publisher's order of preference
    /// (docs/packed-bundle.md): a client takes the first it knows, else ``file``.
    public var encodings: [EncodedBundle]?

    /// A version entry; the optional facts nil when unknown.
    public init(
        version: Int, digest: String, file: String, bytes: Int, sha256: String,
        serviceStart: String? = nil, serviceEnd: String? = nil, inputs: String? = nil,
        report: String? = nil, diff: String? = nil, rows: [String: Int]? = nil, unpackedBytes: Int? = nil,
        encodings: [EncodedBundle]? = nil
    ) {
        self.encodings = encodings
        self.version = version
        self.digest = digest
        self.file = file
        self.bytes = bytes
        self.sha256 = sha256
        self.unpackedBytes = unpackedBytes
        self.serviceStart = serviceStart
        self.serviceEnd = serviceEnd
        self.inputs = inputs
        self.report = report
        self.diff = diff
        self.rows = rows
    }

    enum CodingKeys: String, CodingKey {
        case version, digest, file, bytes, sha256, inputs, report, diff, rows, encodings
        case serviceStart = "service_start"
        case serviceEnd = "service_end"
        case unpackedBytes = "unpacked_bytes"
    }

    /// Decodes a version; an entry of `encodings` that does not decode is left out (a client
    /// that cannot read it takes the plain bundle), where any other field that does not decode
    /// refuses the manifest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        digest = try container.decode(String.self, forKey: .digest)
        file = try container.decode(String.self, forKey: .file)
        bytes = try container.decode(Int.self, forKey: .bytes)
        sha256 = try container.decode(String.self, forKey: .sha256)
        serviceStart = try container.decodeIfPresent(String.self, forKey: .serviceStart)
        serviceEnd = try container.decodeIfPresent(String.self, forKey: .serviceEnd)
        inputs = try container.decodeIfPresent(String.self, forKey: .inputs)
        report = try container.decodeIfPresent(String.self, forKey: .report)
        diff = try container.decodeIfPresent(String.self, forKey: .diff)
        rows = try container.decodeIfPresent([String: Int].self, forKey: .rows)
        unpackedBytes = try container.decodeIfPresent(Int.self, forKey: .unpackedBytes)
        encodings = (try? container.decodeIfPresent([Lenient].self, forKey: .encodings))?.compactMap(\.value)
    }

    /// An element that decodes to nil rather than failing the list.
    private struct Lenient: Decodable {
        var value: EncodedBundle?
        init(from decoder: any Decoder) throws { value = try? EncodedBundle(from: decoder) }
    }
}

/// Another encoding of a version's bundle (docs/packed-bundle.md, "In the manifest").
public struct EncodedBundle: Codable, Sendable, Equatable {
    /// ``packedGzip`` (`packed-gzip`), or a name a newer client knows.
    public var encoding: String
    /// Path relative to the manifest.
    public var file: String
    /// Size of the file.
    public var bytes: Int
    /// SHA-256 of the file, hex.
    public var sha256: String
    /// Size of the file once gunzipped.
    public var unpackedBytes: Int

    /// The packed bundle, gzipped.
    public static let packedGzip = "packed-gzip"

    /// An entry.
    public init(encoding: String, file: String, bytes: Int, sha256: String, unpackedBytes: Int) {
        self.encoding = encoding
        self.file = file
        self.bytes = bytes
        self.sha256 = sha256
        self.unpackedBytes = unpackedBytes
    }

    enum CodingKeys: String, CodingKey {
        case encoding, file, bytes, sha256
        case unpackedBytes = "unpacked_bytes"
    }
}

/// A delta from an older version to the latest: gzipped SQL (docs/bundle-format.md, "Deltas").
public struct DeltaFile: Codable, Sendable, Equatable {
    /// The version the delta applies to.
    public var from: Int
    /// The version it brings the database to.
    public var to: Int
    /// Path relative to the manifest.
    public var file: String
    /// Size of the gzipped file.
    public var bytes: Int
    /// SHA-256 of the gzipped file, hex.
    public var sha256: String
    /// Size of the SQL once gunzipped; absent in manifests written before 2026-11-27.
    public var unpackedBytes: Int?

    /// A delta entry; `unpackedBytes` nil when unknown.
    public init(from: Int, to: Int, file: String, bytes: Int, sha256: String, unpackedBytes: Int? = nil) {
        self.from = from
        self.to = to
        self.file = file
        self.bytes = bytes
        self.sha256 = sha256
        self.unpackedBytes = unpackedBytes
    }

    enum CodingKeys: String, CodingKey {
        case from, to, file, bytes, sha256
        case unpackedBytes = "unpacked_bytes"
    }
}

/// The file a client downloads to install a version whole: the first encoding it knows (the
/// packed bundle, docs/packed-bundle.md) when the version declares its plain bundle's
/// `unpacked_bytes` (which caps the install), else the version's plain bundle.
public struct FullDownload: Sendable, Equatable {
    /// Path relative to the manifest.
    public var file: String
    /// Size of the file.
    public var bytes: Int
    /// SHA-256 of the file, hex.
    public var sha256: String
    /// Size once gunzipped, when the manifest says.
    public var unpackedBytes: Int?
    /// True for the packed bundle, which is installed once unpacked.
    public var isPacked: Bool
}

extension BundleVersion {
    /// What a client of this format downloads for a full install (docs/packed-bundle.md).
    public var fullDownload: FullDownload {
        if unpackedBytes != nil, let packed = encodings?.first(where: { $0.encoding == EncodedBundle.packedGzip }) {
            return FullDownload(file: packed.file, bytes: packed.bytes, sha256: packed.sha256, unpackedBytes: packed.unpackedBytes, isPacked: true)
        }
        return FullDownload(file: file, bytes: bytes, sha256: sha256, unpackedBytes: unpackedBytes, isPacked: false)
    }
}
