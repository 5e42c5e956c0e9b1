import FeedDiff
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// A published bundle against the dumps and settings it came from is identical (`feedc diff`
/// compiles a dump through the build's own stages, the network stage included): each bundle of
/// the sample pipeline against `pipeline.yaml#NAME` and, for one-source bundles, against the dump
/// itself; BART + Caltrain 2018 (two sources, one network) against its pipeline.
@Suite struct OwnInputsDiffTests {
    /// The sample pipeline's bundles built into a folder of their own.
    private func sample() throws -> (folder: TemporaryFolder, yaml: URL) {
        let folder = TemporaryFolder()
        var yaml = try String(contentsOf: SharedData.projectRoot.appendingPathComponent("pipeline.yaml"), encoding: .utf8)
        yaml = yaml.replacingOccurrences(of: "path: Samples/", with: "path: \(SharedData.projectRoot.path)/Samples/")
        let file = folder.url.appendingPathComponent("pipeline.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let reports = try BuildRunner(config: PipelineConfigParser().parse(contentsOf: file)).run()
        try #require(reports.allSatisfy { $0.status == .published }, "\(reports.map { "\($0.bundle) \($0.status) \($0.reason ?? "")" })")
        return (folder, file)
    }

    @Test func eachSampleBundleEqualsItsInputs() throws {
        let (folder, yaml) = try sample()
        for name in ["sample", "bayarea", "kalkati-sample"] {
            let published = folder.url.appendingPathComponent("out/\(name)").path + "@latest"
            let diff = try DiffRunner().diff(published, yaml.path + "#\(name)")
            #expect(diff.identical, "\(name): \(DiffText().render(diff))")
            #expect(diff.old.digest == diff.new.digest, "\(name)")
        }
        // One source: the dump alone, as the issue's maintainer ran it.
        let metro = try DiffRunner().diff(folder.url.appendingPathComponent("out/sample").path + "@latest", SharedData.sample("metro").path)
        #expect(metro.identical, "\(DiffText().render(metro))")
    }

    @Test func anotherSettingIsAChange() throws {
        let (folder, yaml) = try sample()
        // The same sources with other network settings: the walks differ, and the diff says so.
        var text = try String(contentsOf: yaml, encoding: .utf8)
        text = text.replacingOccurrences(of: "  - name: bayarea\n", with: "  - name: bayarea\n    network: false\n")
        let other = folder.url.appendingPathComponent("other.yaml")
        try text.write(to: other, atomically: true, encoding: .utf8)
        let diff = try DiffRunner().diff(folder.url.appendingPathComponent("out/bayarea").path + "@latest", other.path + "#bayarea")
        #expect(!diff.identical)
        // What changed is the network, and the diff lists it: every walk and link of the published
        // side removed, none added, in the summary, the text, the HTML and the JSON.
        let walks = try #require(diff.counts["stop_transfers"]), links = try #require(diff.counts["same_places"])
        #expect(walks.old > 0 && walks.new == 0 && links.new == 0, "\(walks) \(links)")
        #expect(diff.network.walksRemoved.count == walks.old && diff.network.walksAdded.isEmpty && diff.network.walksChanged.isEmpty)
        #expect(diff.network.split.count == links.old / 2 && diff.network.linked.isEmpty)
        #expect(diff.network.split.allSatisfy { $0.stopId < $0.otherStopId && !$0.evidence.isEmpty && $0.stopName != nil })
        let printed = DiffText(limit: 0).render(diff)
        #expect(printed.contains("  walks "), "the summary lists the network tables:\n\(printed)")
        #expect(printed.contains("walks and transfers removed (\(walks.old))"), "\(printed)")
        let html = DiffHTML().render(diff)
        #expect(html.contains("<h2>Network</h2>") && html.contains("Walks and transfers removed"))
        let json = try JSONSerialization.jsonObject(with: DiffJSON.encode(diff)) as? [String: Any]
        let network = try #require(json?["network"] as? [String: Any])
        #expect((network["walks_removed"] as? [Any])?.count == walks.old && (network["split"] as? [Any])?.count == links.old / 2)
        // The other way round, the same rows are added and linked.
        let back = try DiffRunner().diff(other.path + "#bayarea", folder.url.appendingPathComponent("out/bayarea").path + "@latest")
        #expect(back.network.walksAdded.count == walks.old && back.network.linked == diff.network.split)
        #expect(throws: DiffInputError.self) { try DiffRunner().diff(yaml.path + "#nosuch", yaml.path + "#sample") }
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
    func bartAndCaltrainEqualTheirSources() throws {
        let folder = TemporaryFolder()
        let yaml = folder.url.appendingPathComponent("pipeline.yaml")
        try """
        output: out
        bundles:
          - name: bay
            sources:
              - id: bart
                path: \(SharedData.url("gtfs/versions/bart/bart_2018-05_v47_tlib.zip").path)
              - id: caltrain
                path: \(SharedData.url("gtfs/versions/caltrain/caltrain_2018-06-12_tlib.zip").path)

        """.write(to: yaml, atomically: true, encoding: .utf8)
        let report = try BuildRunner(config: PipelineConfigParser().parse(contentsOf: yaml)).run()[0]
        try #require(report.status == .published, "\(report.reason ?? "")")
        let diff = try DiffRunner().diff(folder.url.appendingPathComponent("out/bay").path + "@latest", yaml.path + "#bay")
        #expect(diff.identical, "\(DiffText().render(diff))")
        // Without the network stage, Millbrae's two stations are no longer one place: the diff
        // says so by name, in the summary and under Network.
        let apart = folder.url.appendingPathComponent("apart.yaml")
        try String(contentsOf: yaml, encoding: .utf8).replacingOccurrences(of: "  - name: bay\n", with: "  - name: bay\n    network: false\n")
            .write(to: apart, atomically: true, encoding: .utf8)
        let split = try DiffRunner().diff(folder.url.appendingPathComponent("out/bay").path + "@latest", apart.path + "#bay")
        let links = try #require(split.counts["same_places"])
        #expect(links.old > 0 && links.removed == links.old && split.network.split.count == links.old / 2, "\(links)")
        let millbrae = split.network.split.first { ($0.stopName ?? "").contains("Millbrae") && ($0.otherStopName ?? "").contains("Millbrae") }
        #expect(millbrae.map { $0.stopId.hasPrefix("bart:") && $0.otherStopId.hasPrefix("caltrain:") } == true, "\(split.network.split.map(\.label))")
        let printed = DiffText(limit: 0).render(split)
        #expect(printed.contains("  same places ") && printed.contains("places split (\(links.old / 2))"), "\(printed)")
        #expect(DiffHTML().render(split).contains("Places split"))
    }
}
