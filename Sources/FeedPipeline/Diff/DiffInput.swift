import BundleFormat
import FeedLegacySources
import FeedSQLite
import Foundation

/// One side of `feedc diff`, as named on the command line: a published version
/// (`out/<bundle>@<version>`, `@latest`, or the bundle's folder for its latest version), a bundle
/// file (`.sqlite` or `.sqlite.gz`), a raw dump (a GTFS zip or folder, compiled when needed), or a
/// bundle of a pipeline (`pipeline.yaml#NAME`: its sources compiled with its settings, as
/// `feedc build` would).
public struct DiffInput: Sendable, Equatable {
    /// What an argument names.
    public enum Kind: Sendable, Equatable {
        /// A version listed in a bundle folder's manifest.json.
        case published(version: Int)
        case bundleFile
        case dump
        /// Bundle `bundle` of the pipeline.yaml at `url`.
        case pipeline(bundle: String)
    }

    /// The argument as given.
    public var argument: String
    /// What the argument names: a published version, a bundle file or a dump.
    public var kind: Kind
    /// The bundle file, or the dump.
    public var url: URL

    /// Whether the argument names a pipeline's bundle (`pipeline.yaml#NAME`).
    public var isPipeline: Bool {
        if case .pipeline = kind { return true }
        return false
    }

    /// Resolves a command-line argument.
    public static func resolve(_ argument: String) throws(DiffInputError) -> DiffInput {
        let fm = FileManager.default
        if let hash = argument.lastIndex(of: "#"), !fm.fileExists(atPath: argument) {
            let file = String(argument[..<hash]), name = String(argument[argument.index(after: hash)...])
            if [".yaml", ".yml"].contains(where: { file.lowercased().hasSuffix($0) }) {
                guard fm.fileExists(atPath: file) else { throw .unknown(argument: argument, reason: "no such pipeline file \(file)") }
                guard !name.isEmpty else { throw .unknown(argument: argument, reason: "name a bundle after `#`") }
                return DiffInput(argument: argument, kind: .pipeline(bundle: name), url: URL(fileURLWithPath: file))
            }
        }
        var isFolder: ObjCBool = false
        if fm.fileExists(atPath: argument, isDirectory: &isFolder) {
            let url = URL(fileURLWithPath: argument)
            if isFolder.boolValue {
                if fm.fileExists(atPath: url.appendingPathComponent("manifest.json").path) {
                    return try published(argument, folder: url, version: "latest")
                }
                return DiffInput(argument: argument, kind: .dump, url: url)
            }
            let head = [UInt8]((try? FileHandle(forReadingFrom: url).read(upToCount: 16)) ?? Data())
            if head.starts(with: [0x1F, 0x8B]) || head.starts(with: Array("SQLite format 3".utf8)) {
                return DiffInput(argument: argument, kind: .bundleFile, url: url)
            }
            if head.starts(with: [0x50, 0x4B]) || url.pathExtension.lowercased() == "zip" || LegacyFormat.detect(url) != nil {
                return DiffInput(argument: argument, kind: .dump, url: url)
            }
            throw .unknown(argument: argument, reason: "neither a bundle (.sqlite, .sqlite.gz) nor a dump (GTFS zip or folder, Kalkati XML)")
        }
        if let at = argument.lastIndex(of: "@") {
            let folder = URL(fileURLWithPath: String(argument[..<at]))
            if fm.fileExists(atPath: folder.appendingPathComponent("manifest.json").path) {
                return try published(argument, folder: folder, version: String(argument[argument.index(after: at)...]))
            }
            throw .unknown(argument: argument, reason: "no manifest.json in \(folder.path)")
        }
        throw .unknown(argument: argument, reason: "no such file or folder")
    }

    private static func published(_ argument: String, folder: URL, version: String) throws(DiffInputError) -> DiffInput {
        let path = folder.appendingPathComponent("manifest.json").path
        let manifest: Manifest
        do {
            manifest = try Manifest.decode(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw .unknown(argument: argument, reason: "\(path): \(error)")
        }
        let wanted = version == "latest" ? manifest.latest.version : Int(version)
        guard let entry = manifest.versions.first(where: { $0.version == wanted }) ?? (manifest.latest.version == wanted ? manifest.latest : nil) else {
            let listed = manifest.versions.map { String($0.version) }.joined(separator: ", ")
            throw .unknown(argument: argument, reason: "no version \(version) in \(path) (listed: \(listed))")
        }
        return DiffInput(argument: argument, kind: .published(version: entry.version), url: folder.appendingPathComponent(entry.file))
    }
}

/// Why an argument of `feedc diff` names nothing it can compare.
public enum DiffInputError: Error, Sendable, CustomStringConvertible {
    case unknown(argument: String, reason: String)

    /// The argument and the reason, in one line.
    public var description: String {
        switch self {
        case .unknown(let argument, let reason): "\(argument): \(reason)"
        }
    }
}
