import BundleFormat
import FeedPipeline
import FeedPublish
import Foundation
import TestSupport
import Testing

/// `feedc publish` and `feedc build` as CI runs them: only public files go up, a second run
/// writes nothing, exit statuses, and the credentials never in any output, report or error.
@Suite(.serialized, .enabled(if: SharedData.isAvailable && RcloneS3.isAvailable, "needs ../shared/data and rclone (.ci/run installs it)"))
struct CommandTests {
    @Test func publishFillsANewBucketWithPublicFilesOnly() throws {
        let feedc = try #require(FeedcBinary.url)
        let store = try Store()
        let pipeline = PublishingPipeline()
        // Built without a target first: out/ exists, the bucket is empty.
        _ = try BuildRunner(config: pipeline.write(source: SharedData.zips(in: "versions/wichita")[0], publish: nil)).run()
        _ = try BuildRunner(config: pipeline.write(source: SharedData.zips(in: "versions/wichita")[1], publish: nil)).run()
        // Things that must never leave the machine.
        let junk = [".cache/w/dump.zip", "w/.manifest.json.tmp-123", "w/notes.txt", "w/bundles/.9-x.sqlite.gz.tmp-1", "w/reports/draft.json"]
        for path in junk {
            let url = pipeline.output.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("private".utf8).write(to: url)
        }
        _ = try pipeline.write(source: SharedData.zips(in: "versions/wichita")[1], publish: "  to: s3://feeds/cli")

        let first = try Subprocess.run(feedc, ["publish", "--config", pipeline.file.path, "--json"], environment: store.environment())
        #expect(first.status == 0, "\(first.error)")
        let reports = try JSONDecoder().decode([UploadReport].self, from: Data(first.output.utf8))
        #expect(reports.map(\.status) == [.uploaded] && reports.first?.target == "s3://feeds/cli/w/")
        let manifest = try Manifest.decode(pipeline.localManifest())
        let expected = Set(UploadPlan.listed(manifest).map { "cli/w/\($0)" } + ["cli/w/manifest.json"])
        #expect(Set(store.keys(under: "cli")) == expected)
        #expect(reports.first?.uploaded.count == expected.count)

        // Again: nothing to write.
        let before = store.proxy.entries.count
        let second = try Subprocess.run(feedc, ["publish", "--config", pipeline.file.path], environment: store.environment())
        #expect(second.status == 0 && second.output.contains("up to date"), "\(second.output)")
        #expect(!store.proxy.entries.dropFirst(before).contains { ["PUT", "POST", "DELETE"].contains($0.method) })
        // And a build with the same dump: unchanged, up to date.
        let build = try Subprocess.run(feedc, ["build", "--config", pipeline.file.path], environment: store.environment())
        #expect(build.status == 0 && build.output.contains("unchanged") && build.output.contains("up to date"), "\(build.output)\(build.error)")
    }

    @Test func credentialsAreNeverPrinted() throws {
        let feedc = try #require(FeedcBinary.url)
        let store = try Store()
        let pipeline = PublishingPipeline()
        let dumps = SharedData.zips(in: "versions/wichita")
        _ = try pipeline.write(source: dumps[0], publish: "  to: s3://feeds/secret")
        let wrongSecret = "feedc+WRONG/secret+8Hn2vQ"
        let sessionToken = "FQoGZXIvYXdzEXAMPLETOKEN+feedc/Zz9"
        var runs: [(String, Subprocess.Result)] = []
        func run(_ label: String, _ arguments: [String], _ environment: [String: String]) throws {
            runs.append((label, try Subprocess.run(feedc, arguments + ["--config", pipeline.file.path], environment: environment)))
        }
        try run("build", ["build"], store.environment())
        try run("build --json", ["build", "--json"], store.environment())
        var withToken = store.environment()
        withToken["AWS_SESSION_TOKEN"] = sessionToken
        try run("with a session token", ["publish"], withToken)
        try run("wrong secret", ["publish", "--json"], store.environment(secret: wrongSecret))
        _ = try pipeline.write(source: dumps[1], publish: "  to: s3://feeds/secret")
        try run("wrong secret, build", ["build", "--json"], store.environment(secret: wrongSecret))
        try run("server down", ["publish"], store.environment(endpoint: URL(string: "http://127.0.0.1:9")!))
        var missing = store.environment()
        missing["AWS_SECRET_ACCESS_KEY"] = nil
        try run("no secret", ["publish"], missing)

        for (label, result) in runs.prefix(3) {
            #expect(result.status == 0, "\(label): \(result.output)\(result.error)")
        }
        for (label, result) in runs.dropFirst(3) {
            #expect(result.status == 2, "\(label): \(result.output)\(result.error)")
        }
        #expect(runs[3].1.output.contains("403"), "the store's refusal is reported: \(runs[3].1.output)")
        #expect(runs.last!.1.error.contains("AWS_SECRET_ACCESS_KEY"))
        // Nothing printed, and nothing written under out/, holds a secret (nor the key id).
        var texts = runs.map { "\($0.0)\n\($0.1.output)\n\($0.1.error)" }
        for path in (try FileManager.default.subpathsOfDirectory(atPath: pipeline.output.path)) {
            if let data = FileManager.default.contents(atPath: pipeline.output.appendingPathComponent(path).path) {
                texts.append(String(decoding: data, as: UTF8.self))
            }
        }
        for text in texts {
            for secret in [RcloneS3.accessKey, RcloneS3.secretKey, wrongSecret, sessionToken] {
                #expect(!text.contains(secret), "a credential in: \(text.prefix(300))")
            }
        }
    }
}
