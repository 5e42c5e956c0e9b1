import FeedPipeline
import FeedPublish
import Foundation
import TestSupport
import Testing

/// `publish:` in pipeline.yaml: a target for all bundles or per bundle, its settings, and
/// credentials refused wherever someone tries to put them (without repeating them).
struct PublishConfigTests {
    private func parse(_ yaml: String) throws(ConfigError) -> PipelineConfig {
        try PipelineConfigParser().parse(yaml, file: SharedData.projectRoot.appendingPathComponent("pipeline.yaml"))
    }

    private func bundles(_ publish: String, bundleExtra: String = "") -> String {
        "output: out\n\(publish)bundles:\n  - name: a\n\(bundleExtra)    sources:\n      - id: m\n        path: Samples/metro\n  - name: b\n    sources:\n      - id: m\n        path: Samples/metro\n"
    }

    private func message(_ yaml: String) -> String? {
        do {
            _ = try parse(yaml)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func oneTargetForEveryBundle() throws {
        let config = try parse(bundles("publish: s3://feeds/transit/nightly/\n"))
        let target = try #require(config.publish)
        #expect(target.bucket == "feeds" && target.prefix == "transit/nightly")
        #expect(target.manifestCacheControl == "max-age=60" && target.pruneAfter == 3600)
        #expect(config.bundles.map(\.publish) == [target, target])
        #expect(target.key(bundle: "a", "manifest.json") == "transit/nightly/a/manifest.json")
        #expect(try parse(bundles("publish: s3://feeds\n")).publish?.key(bundle: "a", "bundles/1.gz") == "a/bundles/1.gz")
    }

    @Test func perBundleTargetsAndSettings() throws {
        let config = try parse(
            bundles(
                "publish: s3://feeds/all\n",
                bundleExtra:
                    "    publish:\n      to: s3://other-bucket/x\n      manifest_cache_control: \"public, max-age=30, stale-while-revalidate=30\"\n      prune_after: 2d\n"
            ))
        let own = try #require(config.bundles[0].publish)
        #expect(own.bucket == "other-bucket" && own.prefix == "x")
        #expect(own.manifestCacheControl == "public, max-age=30, stale-while-revalidate=30" && own.pruneAfter == 2 * 86400)
        #expect(config.bundles[1].publish?.bucket == "feeds")
        let off = try parse(bundles("publish: s3://feeds/all\n", bundleExtra: "    publish: false\n"))
        #expect(off.bundles[0].publish == nil && off.bundles[1].publish != nil)
        for (text, seconds) in [("90s", 90.0), ("30m", 1800), ("1h", 3600), ("0", 0), ("45", 45)] {
            #expect(try parse(bundles("publish:\n  to: s3://feeds\n  prune_after: \(text)\n")).publish?.pruneAfter == seconds)
        }
    }

    @Test func mistakesAreReportedWithTheirLine() throws {
        #expect(
            message(bundles("publish: https://feeds.example/x\n"))?.contains("pipeline.yaml:2:10: the publish target must be an `s3://bucket/prefix` URL")
                == true)
        #expect(message(bundles("publish: s3://Feeds_Bucket/x\n"))?.contains("not a bucket name") == true)
        #expect(message(bundles("publish: s3://feeds/a//b\n"))?.contains("without empty, `.` or `..` parts") == true)
        #expect(message(bundles("publish: s3://feeds/a/../b\n"))?.contains("`..`") == true)
        #expect(message(bundles("publish:\n  to: s3://feeds\n  prune_after: soon\n"))?.contains("`prune_after` must be a duration") == true)
        #expect(message(bundles("publish:\n  to: s3://feeds\n  cache: 1\n"))?.contains("unknown key `cache`") == true)
        #expect(message(bundles("publish:\n  prune_after: 1h\n"))?.contains("`publish` needs `to: s3://bucket/prefix`") == true)
    }

    @Test func credentialsNeverComeFromTheFile() throws {
        for key in ["aws_secret_access_key", "access_key_id", "secret", "session_token", "endpoint", "region"] {
            let text = try #require(message(bundles("publish:\n  to: s3://feeds\n  \(key): AKIAHIDDENVALUE12345\n")), "\(key)")
            #expect(text.contains("`\(key)` does not belong in pipeline.yaml") && text.contains("AWS_ACCESS_KEY_ID"), "\(text)")
            #expect(!text.contains("AKIAHIDDENVALUE12345"))
        }
        // Nor in the URL; the message does not repeat it.
        let text = try #require(message(bundles("publish: s3://AKIAHIDDENVALUE12345:s3cr3tv4lue@feeds/x\n")))
        #expect(text.contains("must not hold credentials") && !text.contains("s3cr3tv4lue") && !text.contains("AKIAHIDDENVALUE12345"), "\(text)")
    }

    @Test func environmentSettings() throws {
        #expect(throws: RemotePublishError.self) { try AWSSettings.fromEnvironment(["AWS_ACCESS_KEY_ID": "k"]) }
        let aws = try AWSSettings.fromEnvironment(["AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s", "AWS_DEFAULT_REGION": "eu-west-1"])
        #expect(aws.region == "eu-west-1" && aws.endpoint == nil && aws.credentials.sessionToken == nil)
        let custom = try AWSSettings.fromEnvironment([
            "AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s", "AWS_SESSION_TOKEN": "t",
            "AWS_REGION": "auto", "AWS_ENDPOINT_URL": "https://acct.r2.cloudflarestorage.com",
            "AWS_ENDPOINT_URL_S3": "http://127.0.0.1:9000",
        ])
        #expect(custom.region == "auto" && custom.endpoint?.absoluteString == "http://127.0.0.1:9000" && custom.credentials.sessionToken == "t")
        do {
            _ = try AWSSettings.fromEnvironment(["AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s", "AWS_ENDPOINT_URL": "http://user:pw@host"])
            Issue.record("an endpoint with user information was accepted")
        } catch {
            #expect(!error.message.contains("pw@host"))
        }
    }
}
