import BundleFormat
import FeedPipeline
import Foundation
import TestSupport

/// An output folder and a pipeline.yaml in a temporary folder, for building real bundles.
final class Workspace {
    let folder = TemporaryFolder()
    var output: URL { folder.url.appendingPathComponent("out") }

    /// Writes a pipeline with one bundle `name` built from `sources` (id → dump URL).
    func config(bundle name: String = "b", sources: [(String, URL)], extra: String = "", keep: Int = 10) throws -> PipelineConfig {
        var yaml = "output: out\nkeep: \(keep)\nbundles:\n  - name: \(name)\n\(extra)    sources:\n"
        for (id, url) in sources {
            yaml += "      - id: \(id)\n        format: gtfs\n        path: \(url.path)\n"
        }
        let file = folder.url.appendingPathComponent("pipeline.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        return try PipelineConfigParser().parse(contentsOf: file)
    }

    func build(_ config: PipelineConfig) throws -> BuildReport {
        try BuildRunner(config: config).run()[0]
    }

    func manifest(_ bundle: String = "b") throws -> Manifest? {
        let url = output.appendingPathComponent(bundle).appendingPathComponent("manifest.json")
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return try Manifest.decode(data)
    }

    /// Every file under the bundle's folder with its size, modification time and content hash:
    /// equal snapshots mean nothing was touched.
    func snapshot(_ bundle: String = "b") -> [String: String] {
        let root = output.appendingPathComponent(bundle)
        var out: [String: String] = [:]
        for name in (try? FileManager.default.subpathsOfDirectory(atPath: root.path)) ?? [] {
            let path = root.appendingPathComponent(name).path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                attributes[.type] as? FileAttributeType == .typeRegular,
                let data = FileManager.default.contents(atPath: path)
            else { continue }
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            out[name] = "\(data.count) \(modified) \(sha256Hex(data))"
        }
        return out
    }

    /// The latest published bundle, opened.
    func latestBundle(_ bundle: String = "b") throws -> URL {
        let manifest = try requireManifestValue(self.manifest(bundle))
        return output.appendingPathComponent(bundle).appendingPathComponent(manifest.latest.file)
    }
}

struct MissingManifest: Error {}

func requireManifestValue(_ manifest: Manifest?) throws -> Manifest {
    guard let manifest else { throw MissingManifest() }
    return manifest
}
