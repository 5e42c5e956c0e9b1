import FeedPipeline
import Foundation
import TestSupport
import Testing

/// Every command with `--json` prints an `ErrorReport` on standard output when it fails, with the
/// exit status it has without `--json`; run through the real binary.
@Suite(.enabled(if: FeedcBinary.suitesRun, "needs the feedc binary of this build"))
struct JSONErrorTests {
    /// Runs feedc with and without `--json`; returns the decoded error and the JSON object's keys.
    private func failure(_ arguments: [String], status: Int32 = 2) throws -> ErrorReport {
        let feedc = try #require(FeedcBinary.url)
        let text = try Subprocess.run(feedc, arguments)
        let json = try Subprocess.run(feedc, arguments + ["--json"])
        #expect(text.status == status, "\(arguments) without --json")
        #expect(json.status == status, "\(arguments) with --json")
        #expect(!text.output.contains("\"error\""), "no JSON without --json")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any],
            "stdout is one JSON object: \(json.output)")
        let detail = try #require(object["error"] as? [String: Any])
        #expect(Set(detail.keys) == ["code", "message", "file", "line", "column"], "every key present, null when unknown")
        return try JSONDecoder().decode(ErrorReport.self, from: Data(json.output.utf8))
    }

    @Test func validateMissingDump() throws {
        let folder = TemporaryFolder()
        let missing = folder.url.appendingPathComponent("MISSING.zip").path
        let report = try failure(["validate", missing])
        #expect(report.error.code == "file_not_found")
        #expect(report.error.file == missing)
        #expect(report.error.message.contains("MISSING.zip"))
        #expect(report.error.line == nil)
    }

    @Test func buildAndPublishBadConfig() throws {
        let folder = TemporaryFolder()
        let config = folder.url.appendingPathComponent("pipeline.yaml")
        try Data("output: out\nbundles:\n  - name: x\n    sorces: []\n".utf8).write(to: config)
        for command in ["build", "publish"] {
            let report = try failure([command, "--config", config.path])
            #expect(report.error.code == "config_error", "\(command)")
            #expect(report.error.file?.hasSuffix("pipeline.yaml") == true, "\(command)")
            #expect(report.error.line == 4, "\(command): the line of the unknown key")
            #expect(report.error.column != nil, "\(command)")
        }
        let absent = try failure(["build", "--config", folder.url.appendingPathComponent("none.yaml").path])
        #expect(absent.error.code == "config_error")
    }

    @Test func inspectMissingAndBrokenBundle() throws {
        let folder = TemporaryFolder()
        let missing = folder.url.appendingPathComponent("none.sqlite.gz").path
        #expect(try failure(["inspect", missing]).error.code == "file_not_found")
        #expect(try failure(["inspect", missing, "--routes"]).error.code == "file_not_found")
        let junk = folder.url.appendingPathComponent("junk.sqlite")
        try Data("not a database".utf8).write(to: junk)
        for extra in [[], ["--routes"], ["--opposites"]] {
            let report = try failure(["inspect", junk.path] + extra)
            #expect(report.error.code == "tool_error", "\(extra)")
            #expect(report.error.file == junk.path, "\(extra)")
        }
    }

    @Test func diffMissingSide() throws {
        let folder = TemporaryFolder()
        let old = folder.feed("old", TinyFeed.files)
        let report = try failure(["diff", old.path, folder.url.appendingPathComponent("nothing.zip").path])
        #expect(report.error.code == "tool_error")
        #expect(report.error.message.contains("nothing.zip"))
    }

    @Test func usageErrorUnderJSON() throws {
        let report = try failure(["validate", "--examples", "many", "x"])
        #expect(report.error.code == "usage_error")
    }
}
