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
    }
}
