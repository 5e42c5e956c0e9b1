import BundleFormat
import Crypto
import Foundation

/// AWS Signature Version 4 (header form), as S3 wants it: the path is URI-encoded once and not
/// normalised, the payload hash is signed, every header given is signed. Checked against AWS's
/// published examples (`SigV4Tests`).
package struct SigV4Signer: Sendable {
    package let credentials: AWSCredentials
    package let region: String
    package let service: String

    package init(credentials: AWSCredentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// One request to sign. `path` is the canonical URI, already encoded (`S3Path.encode`);
    /// `query` holds raw names and values; `headers` raw names and values, `host` among them.
    package struct Request: Sendable {
        package var method: String
        package var path: String
        package var query: [(String, String)]
        package var headers: [(String, String)]
        /// Hex SHA-256 of the body (`x-amz-content-sha256`).
        package var payloadHash: String

        package init(method: String, path: String, query: [(String, String)] = [], headers: [(String, String)], payloadHash: String) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    /// `20150830T123600Z`.
    package static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    package static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// Header names lowercased and sorted; values trimmed with inner runs of spaces collapsed;
    /// repeated names joined with commas.
    static func canonicalHeaders(_ headers: [(String, String)]) -> [(String, String)] {
        var merged: [String: [String]] = [:]
        for (name, value) in headers {
            let trimmed = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            merged[name.lowercased(), default: []].append(trimmed)
        }
        return merged.keys.sorted().map { ($0, merged[$0]!.joined(separator: ",")) }
    }

    package func canonicalRequest(_ request: Request) -> String {
        let encoded: [(name: String, value: String)] = request.query.map {
            (S3Path.encode($0.0, encodeSlash: true), S3Path.encode($0.1, encodeSlash: true))
        }
        let sorted = encoded.sorted { a, b in a.name == b.name ? a.value < b.value : a.name < b.name }
        let query = sorted.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let headers = Self.canonicalHeaders(request.headers)
        return [
            request.method,
            request.path,
            query,
            headers.map { "\($0.0):\($0.1)\n" }.joined(),
            headers.map(\.0).joined(separator: ";"),
            request.payloadHash,
        ].joined(separator: "\n")
    }

    package func stringToSign(_ request: Request, timestamp: String) -> String {
        let scope = "\(timestamp.prefix(8))/\(region)/\(service)/aws4_request"
        let hash = hexString(SHA256.hash(data: Data(canonicalRequest(request).utf8)))
        return "AWS4-HMAC-SHA256\n\(timestamp)\n\(scope)\n\(hash)"
    }

    /// The derived key: HMAC chain of date, region, service and `aws4_request`.
    package func signingKey(date: String) -> SymmetricKey {
        var key = SymmetricKey(data: Data(("AWS4" + credentials.secretAccessKey).utf8))
        for part in [date, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return key
    }

    package func signature(_ request: Request, timestamp: String) -> String {
        let key = signingKey(date: String(timestamp.prefix(8)))
        return hexString(Data(HMAC<SHA256>.authenticationCode(for: Data(stringToSign(request, timestamp: timestamp).utf8), using: key)))
    }

    /// The `Authorization` header value. The request's headers must already hold `x-amz-date`
    /// (= `timestamp`) and, for S3, `x-amz-content-sha256`.
    package func authorization(_ request: Request, timestamp: String) -> String {
        let signed = Self.canonicalHeaders(request.headers).map(\.0).joined(separator: ";")
        let scope = "\(timestamp.prefix(8))/\(region)/\(service)/aws4_request"
        return "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signed), Signature=\(signature(request, timestamp: timestamp))"
    }
}

/// S3's URI encoding: every byte but the unreserved characters `A-Z a-z 0-9 - . _ ~` as `%XX`
/// (upper case); `/` kept in paths.
package enum S3Path {
    package static func encode(_ text: String, encodeSlash: Bool) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(Character(UnicodeScalar(byte)))
            case UInt8(ascii: "/") where !encodeSlash:
                out.append("/")
            default:
                out += "%" + hexString(CollectionOfOne(byte), uppercase: true)
            }
        }
        return out
    }
}
