import FeedPublish
import Foundation
import TestSupport
import Testing

/// Which failures `S3Client` tries again, against the test server (no S3 store needed): a
/// refused connection and a 5xx are transient, retried up to the policy's attempts and counted;
/// a 4xx is permanent, given up at once. Each error keeps its cause: the HTTP status and S3 code,
/// or the network's words.
@Suite struct RetryClassificationTests {
    static let retry = RetryPolicy(attempts: 3, baseDelay: 0.01, maxDelay: 0.02)

    static func client(_ endpoint: String, bucket: String) -> S3Client {
        let settings = AWSSettings(
            credentials: AWSCredentials(accessKeyID: "AKIDTEST", secretAccessKey: "not-a-secret"),
            endpoint: URL(string: endpoint))
        return S3Client(settings: settings, bucket: bucket, retry: retry, timeout: 5)
    }

    @Test func serverErrorsAreRetriedRefusalsAreNot() throws {
        let folder = TemporaryFolder()
        let server = try EtagServer(serving: folder.url, log: folder.url.appendingPathComponent("log"))
        // The bucket is the path's first segment: /error/503 and /error/403.
        let client = Self.client("http://127.0.0.1:\(server.port)", bucket: "error")
        #expect {
            _ = try client.get("503")
        } throws: { error in
            let failure = error as? RemotePublishError
            return failure?.kind == .request && failure?.message == "GET s3://error/503: HTTP 503 SlowDown: refused by the test server"
        }
        #expect(client.retries == 2)
        #expect {
            _ = try client.put("403", Data("x".utf8), contentType: "text/plain", cacheControl: "no-cache")
        } throws: { error in
            (error as? RemotePublishError)?.message == "PUT s3://error/403: HTTP 403 AccessDenied: refused by the test server"
        }
        #expect(client.retries == 2, "a 4xx is not tried again")
        #expect(server.requests.filter { $0.hasPrefix("GET /error/503 ") }.count == 3)
        #expect(server.requests.filter { $0.hasPrefix("PUT /error/403 ") }.count == 1)
    }

    @Test func aRefusedConnectionIsRetried() throws {
        let closed = try ClosedPort()
        let port = closed.port
        let client = Self.client("http://127.0.0.1:\(port)", bucket: "b")
        #expect {
            _ = try client.head("k")
        } throws: { error in
            let failure = error as? RemotePublishError
            return failure?.kind == .request && failure?.message.hasPrefix("HEAD s3://b/k: cannot connect to 127.0.0.1:\(port): ") == true
                && failure?.message.contains("refused") == true && failure?.message.hasSuffix("(after 3 attempts)") == true
        }
        #expect(client.retries == 2)
    }
}
