import Foundation

/// Access key, secret and optional session token. Never printed: `description` is redacted, and
/// every error that leaves this module is scrubbed of these values (`Redactor`).
package struct AWSCredentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    package let accessKeyID: String
    let secretAccessKey: String
    package let sessionToken: String?

    package init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    package var description: String { "AWS credentials (redacted)" }
    package var debugDescription: String { description }

    /// Every value that must not appear in output.
    var secrets: [String] { [accessKeyID, secretAccessKey, sessionToken].compactMap { $0 }.filter { !$0.isEmpty } }
}

/// Where and as whom to reach the object store, from the standard AWS environment variables
/// only: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_REGION` (or
/// `AWS_DEFAULT_REGION`; default us-east-1), `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL` (an
/// S3-compatible store: MinIO, R2, rclone; path-style addressing). Never from pipeline.yaml.
package struct AWSSettings: Sendable {
    package var credentials: AWSCredentials
    package var region: String
    /// nil: AWS itself (`https://<bucket>.s3.<region>.amazonaws.com`).
    package var endpoint: URL?

    package init(credentials: AWSCredentials, region: String = "us-east-1", endpoint: URL? = nil) {
        self.credentials = credentials
        self.region = region
        self.endpoint = endpoint
    }

    package static func fromEnvironment(_ environment: [String: String]) throws(RemotePublishError) -> AWSSettings {
        func value(_ name: String) -> String? {
            environment[name].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let key = value("AWS_ACCESS_KEY_ID"), let secret = value("AWS_SECRET_ACCESS_KEY") else {
            throw .configuration("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set in the environment to publish to object storage")
        }
        let credentials = AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: value("AWS_SESSION_TOKEN"))
        let region = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") ?? "us-east-1"
        var endpoint: URL?
        if let text = value("AWS_ENDPOINT_URL_S3") ?? value("AWS_ENDPOINT_URL") {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                url.host != nil, url.user == nil, url.password == nil
            else {
                throw .configuration("AWS_ENDPOINT_URL is not an http(s) URL without user information")
            }
            endpoint = url
        }
        return AWSSettings(credentials: credentials, region: region, endpoint: endpoint)
    }
}

/// Removes credentials from text that leaves the process (errors, reports, logs).
struct Redactor: Sendable {
    let secrets: [String]

    func scrub(_ text: String) -> String {
        // Longest first, so a secret containing another is removed whole.
        secrets.sorted { $0.count > $1.count }.reduce(text) { $0.replacingOccurrences(of: $1, with: "[redacted]") }
    }
}
