import FeedPipeline
import Foundation
import TestSupport
import Testing

/// `feedc build --bundle NAME` and `--shard K/N` (issue 45: one job per bundle): which bundles a
/// selection keeps, and the command building only those.
struct BundleSelectionTests {
    private static func config(_ names: [String]) -> PipelineConfig {
        let file = URL(fileURLWithPath: "/pipelines/pipeline.yaml")
        return PipelineConfig(
            file: file, output: URL(fileURLWithPath: "/pipelines/out"), keep: 10,
            bundles: names.map { BundleConfig(name: $0, sources: []) })
    }

    private static let seven = ["a", "b", "c", "d", "e", "f", "g"]

    @Test func namesKeepTheFilesOrder() throws {
        let kept = try BundleSelection(names: ["e", "b"], shard: nil).apply(to: Self.config(Self.seven))
        #expect(kept.bundles.map(\.name) == ["b", "e"])
        #expect(try BundleSelection.all.apply(to: Self.config(Self.seven)).bundles.map(\.name) == Self.seven)
    }

    @Test func theShardsAreEveryBundleOnce() throws {
        for count in 1...9 {
            var seen: [String] = []
            for index in 1...count {
                let shard = try #require(BundleSelection.Shard("\(index)/\(count)"))
                seen += try BundleSelection(names: [], shard: shard).apply(to: Self.config(Self.seven)).bundles.map(\.name)
            }
            #expect(seen.sorted() == Self.seven, "\(count) shards")
        }
        let second = try BundleSelection(names: [], shard: .init(index: 2, count: 3)).apply(to: Self.config(Self.seven))
        #expect(second.bundles.map(\.name) == ["b", "e"])
        let past = try BundleSelection(names: [], shard: .init(index: 9, count: 9)).apply(to: Self.config(Self.seven))
        #expect(past.bundles.isEmpty, "a shard past the last bundle is empty")
        let both = try BundleSelection(names: ["b", "c"], shard: .init(index: 2, count: 3)).apply(to: Self.config(Self.seven))
        #expect(both.bundles.map(\.name) == ["b"], "names and a shard: the named bundles in the shard")
    }

    @Test func badShardsAndUnknownNames() {
        for text in ["0/3", "4/3", "1/0", "-1/2", "a/b", "1", "1/2/3", "", "/2", " 1/2"] {
            #expect(BundleSelection.Shard(text) == nil, "\(text)")
        }
        #expect(BundleSelection.Shard("3/3") == .init(index: 3, count: 3))
        #expect {
            try BundleSelection(names: ["a", "nope"], shard: nil).apply(to: Self.config(["a", "b"]))
        } throws: { error in
            (error as? ConfigError)?.description == "/pipelines/pipeline.yaml: no bundle named `nope` (its bundles: a, b)"
        }
    }

    /// The sample pipeline's three bundles, built one job at a time as a matrix would.
    @Test(.enabled(if: FeedcBinary.suitesRun, "needs the feedc binary"))
    func theCommandBuildsOnlyWhatItIsAsked() throws {
        let feedc = try #require(FeedcBinary.url)
        let folder = TemporaryFolder()
        let yaml = folder.url.appendingPathComponent("pipeline.yaml")
        try """
        output: out
        bundles:
          - name: sample
            sources:
              - id: metro
                path: \(SharedData.sample("metro").path)
          - name: bayarea
            sources:
              - id: metro
                path: \(SharedData.sample("metro").path)
              - id: rail
                path: \(SharedData.sample("rail").path)
          - name: kalkati-sample
            sources:
              - id: metro
                format: kalkati
                path: \(SharedData.projectRoot.appendingPathComponent("Samples/kalkati/metro.xml").path)
                timezone: Europe/Helsinki

        """.write(to: yaml, atomically: true, encoding: .utf8)
        let out = folder.url.appendingPathComponent("out")
        func built() -> Set<String> {
            Set(((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).filter { !$0.hasPrefix(".") })
        }
        func build(_ arguments: [String]) throws -> Subprocess.Result {
            try Subprocess.run(feedc, ["build", "--config", yaml.path, "--json"] + arguments)
        }

        let first = try build(["--bundle", "sample"])
        #expect(first.status == 0, "\(first.error)")
        #expect(built() == ["sample"])
        #expect(first.output.contains("\"bundle\" : \"sample\""), "\(first.output)")
        #expect(!first.output.contains("bayarea"))

        #expect(try build(["--shard", "3/3"]).status == 0)
        #expect(built() == ["sample", "kalkati-sample"])

        let unknown = try build(["--bundle", "bayarea", "--bundle", "helsinki"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("no bundle named `helsinki` (its bundles: sample, bayarea, kalkati-sample)"), "\(unknown.error)")
        #expect(unknown.error.contains(yaml.path), "the message names the file: \(unknown.error)")
        #expect(built() == ["sample", "kalkati-sample"], "nothing built on a bad selection")

        let badShard = try build(["--shard", "0/2"])
        #expect(badShard.status != 0)
        #expect(badShard.error.contains("--shard must be K/N"), "\(badShard.error)")

        #expect(try build(["--bundle", "bayarea", "--shard", "2/3"]).status == 0)
        #expect(built() == ["sample", "bayarea", "kalkati-sample"])
    }
}
