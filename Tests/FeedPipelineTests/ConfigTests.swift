import FeedPipeline
import Foundation
import TestSupport
import Testing

/// pipeline.yaml errors name the line and column.
@Suite struct ConfigTests {
    private func parse(_ yaml: String) throws(ConfigError) -> PipelineConfig {
        try PipelineConfigParser().parse(yaml, file: SharedData.projectRoot.appendingPathComponent("pipeline.yaml"))
    }

    private func error(_ yaml: String) -> ConfigError? {
        do {
            _ = try parse(yaml)
            return nil
        } catch {
            return error
        }
    }

    @Test func theMinimalContractParses() throws {
        let config = try parse(
            "output: out\nkeep: 10\nbundles:\n  - name: sample\n    sources:\n      - id: metro\n        format: gtfs\n        path: Samples/metro\n")
        #expect(config.keep == 10)
        #expect(config.output.path == SharedData.projectRoot.appendingPathComponent("out").path)
        #expect(config.bundles[0].sources[0].prefix == "")
        #expect(config.bundles[0].sources[0].location == .path(SharedData.sample("metro")))
    }

    @Test func theProjectsOwnPipelineParses() throws {
        let config = try PipelineConfigParser().parse(contentsOf: SharedData.projectRoot.appendingPathComponent("pipeline.yaml"))
        #expect(config.bundles.map(\.name).contains("sample"))
    }

    @Test func typoInKeyIsReportedWithLineAndHint() throws {
        let e = try #require(error("output: out\nbundles:\n  - name: sample\n    sorces:\n      - id: metro\n"))
        #expect(e.line == 4)
        #expect(e.column == 5)
        #expect(e.message.contains("unknown key `sorces`"))
        #expect(e.message.contains("did you mean `sources`"))
    }

    @Test func wrongTypeIsReportedWithLine() throws {
        let e = try #require(error("output: out\nkeep: ten\nbundles: []\n"))
        #expect(e.line == 2)
        #expect(e.message.contains("whole number"))
    }

    @Test func missingDumpIsReportedWithLine() throws {
        let e = try #require(error("bundles:\n  - name: s\n    sources:\n      - id: a\n        path: Samples/nope.zip\n"))
        #expect(e.line == 5)
        #expect(e.message.contains("no file or folder"))
    }

    /// A command that never reads the sources (`feedc publish`) parses a pipeline whose dumps are
    /// not on this machine (issue 33); the build still refuses it.
    @Test func publishingNeedsNoSourceFiles() throws {
        let yaml =
            "publish: s3://bucket/feeds\nbundles:\n  - name: s\n    sources:\n      - id: a\n        path: Samples/nope.zip\n"
            + "      - id: b\n        format: kalkati\n        url: file:elsewhere/k.xml\n        schema: nope.xsd\n"
        let file = SharedData.projectRoot.appendingPathComponent("pipeline.yaml")
        let config = try PipelineConfigParser(checksSourceFiles: false).parse(yaml, file: file)
        #expect(config.bundles[0].sources.count == 2)
        #expect(config.bundles[0].publish != nil)
        #expect(throws: ConfigError.self) { try PipelineConfigParser().parse(yaml, file: file) }

        // Through the binary: publish gets past the pipeline and stops at the missing credentials.
        let folder = TemporaryFolder()
        let pipeline = folder.url.appendingPathComponent("pipeline.yaml")
        try yaml.write(to: pipeline, atomically: true, encoding: .utf8)
        let feedc = try #require(FeedcBinary.url)
        let run = try Subprocess.run(
            feedc, ["publish", "-c", pipeline.path], environment: ["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": ""],
            directory: folder.url, timeout: 60)
        #expect(run.status == 2)
        #expect(!run.error.contains("no file or folder"), "\(run.error)")
        #expect(run.error.contains("AWS_ACCESS_KEY_ID"), "\(run.error)")
    }

    @Test func invalidYAMLIsReportedWithLine() throws {
        let e = try #require(error("bundles:\n  - name: s\n   sources: [\n"))
        #expect(e.line != nil)
        #expect(e.message.hasPrefix("invalid YAML"))
    }

    @Test func severalSourcesGetPrefixes() throws {
        let config = try parse(
            "bundles:\n  - name: bay\n    sources:\n      - id: metro\n        path: Samples/metro\n      - id: rail\n        path: Samples/rail\n        prefix: 'br-'\n"
        )
        #expect(config.bundles[0].sources.map(\.prefix) == ["metro:", "br-"])
    }

    @Test func clashingPrefixesAreRefused() throws {
        let e = try #require(
            error(
                "bundles:\n  - name: bay\n    sources:\n      - id: a\n        path: Samples/metro\n        prefix: 'x:'\n      - id: b\n        path: Samples/rail\n        prefix: 'x:'\n"
            ))
        #expect(e.line == 7)
        #expect(e.message.contains("clashes"))
        // A single source may say explicitly that it wants no prefix.
        let config = try parse("bundles:\n  - name: s\n    sources:\n      - id: a\n        path: Samples/metro\n        prefix: ''\n")
        #expect(config.bundles[0].sources[0].prefix == "")
    }

    @Test func oppositesThresholds() throws {
        let config = try parse("bundles:\n  - name: s\n    opposites:\n      max_distance: 180\n    sources:\n      - id: a\n        path: Samples/metro\n")
        #expect(config.bundles[0].opposites.maxDistance == 180)
        #expect(config.bundles[0].opposites.railMaxDistance == 600)
        #expect(error("bundles:\n  - name: s\n    opposites:\n      max_distanse: 180\n    sources:\n      - id: a\n        path: Samples/metro\n")?.line == 4)
    }

    @Test func relativeFileURLIsRelativeToTheConfig() throws {
        let config = try parse("bundles:\n  - name: s\n    sources:\n      - id: a\n        url: file:Samples/metro\n")
        #expect(config.bundles[0].sources[0].location == .path(SharedData.sample("metro")))
    }

    @Test func strictnessKeys() throws {
        let config = try parse(
            "bundles:\n  - name: s\n    fail_on_error: true\n    max_dropped_share: 0.05\n    sources:\n      - id: a\n        path: Samples/metro\n")
        #expect(config.bundles[0].strictness == Strictness(failOnError: true, maxDroppedShare: 0.05))
        #expect(error("bundles:\n  - name: s\n    max_dropped_share: 5\n    sources:\n      - id: a\n        path: Samples/metro\n")?.line == 3)
    }

    @Test func urlSchemes() throws {
        let config = try parse("bundles:\n  - name: s\n    sources:\n      - id: a\n        url: https://example.org/gtfs.zip\n")
        #expect(config.bundles[0].sources[0].location == .remote(URL(string: "https://example.org/gtfs.zip")!))
        #expect(error("bundles:\n  - name: s\n    sources:\n      - id: a\n        url: ftp://example.org/x.zip\n")?.line == 5)
    }
}
