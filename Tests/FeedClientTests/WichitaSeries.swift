import BundleFormat
import FeedPipeline
import Foundation
import TestSupport

/// Every Wichita dump of `../shared/data/gtfs/versions/wichita`, published in date order with
/// `feedc build` into one output folder, every version retained and a delta from each older
/// version to the latest listed.
///
/// Deltas are written for every retained version at each build, so building all 27 dumps with
/// every version retained would encode about 300 deltas that the next build replaces. The
/// dumps before the last are therefore built retaining one version, each bundle kept aside,
/// then put back with their manifest entries before the last build, which retains them all
/// and encodes the 25 deltas clients use.
struct WichitaSeries {
    let output: URL
    let manifest: Manifest
    var bundleFolder: URL { output.appendingPathComponent("w") }

    init(in folder: URL) throws {
        output = folder.appendingPathComponent("out")
        let current = folder.appendingPathComponent("wichita.zip")
        let yaml = folder.appendingPathComponent("pipeline.yaml")
        func build(_ dump: URL, keep: Int) throws {
            try "output: out\nkeep: \(keep)\nbundles:\n  - name: w\n    max_delta_share: 1.0\n    sources:\n      - id: w\n        path: wichita.zip\n"
                .write(to: yaml, atomically: true, encoding: .utf8)
            try? FileManager.default.removeItem(at: current)
            try FileManager.default.copyItem(at: dump, to: current)
            _ = try BuildRunner(config: PipelineConfigParser().parse(contentsOf: yaml)).run()
        }
        let dumps = SharedData.zips(in: "versions/wichita")
        guard let last = dumps.last else { throw SeriesError(reason: "no Wichita dumps") }
        let kept = folder.appendingPathComponent("kept")
        try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
        let bundles = output.appendingPathComponent("w")
        var history: [BundleVersion] = []  // newest first, as a manifest lists them
        for dump in dumps.dropLast() {
            try build(dump, keep: 1)
            let latest = try Manifest.decode(Data(contentsOf: bundles.appendingPathComponent("manifest.json"))).latest
            guard latest.version != history.first?.version else { continue }  // unchanged (a republish)
            let saved = kept.appendingPathComponent((latest.file as NSString).lastPathComponent)
            try FileManager.default.copyItem(at: bundles.appendingPathComponent(latest.file), to: saved)
            history.insert(latest, at: 0)
        }
        for version in history.dropFirst() {
            try FileManager.default.copyItem(
                at: kept.appendingPathComponent((version.file as NSString).lastPathComponent),
                to: bundles.appendingPathComponent(version.file))
        }
        try Manifest(bundle: "w", latest: history[0], versions: history).encoded()
            .write(to: bundles.appendingPathComponent("manifest.json"))
        try build(last, keep: 100)
        manifest = try Manifest.decode(Data(contentsOf: bundles.appendingPathComponent("manifest.json")))
    }

    /// The unpacked bundle of `version`, written to `file`.
    func writeBundle(of version: BundleVersion, to file: URL) throws {
        let gzipped = try Data(contentsOf: bundleFolder.appendingPathComponent(version.file))
        try Data(Gzip.decompress([UInt8](gzipped))).write(to: file)
    }
}

struct SeriesError: Error { let reason: String }
