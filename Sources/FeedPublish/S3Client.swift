import BundleFormat
import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How often and how patiently a failed request is tried again: network errors, 5xx, 429,
/// S3's `SlowDown`/`RequestTimeout`/`InternalError`, and a body the store found damaged
/// (`BadDigest`, `XAmzContentSHA256Mismatch`, `IncompleteBody`); never other 4xx answers.
public struct RetryPolicy: Sendable {
    public var attempts: Int
    /// The first wait; each next one doubles, with ±50% jitter, up to `maxDelay`.
    public var baseDelay: TimeInterval
    public var maxDelay: TimeInterval

    public init(attempts: Int = 6, baseDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 20) {
        self.attempts = max(1, attempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    func delay(afterAttempt attempt: Int) -> TimeInterval {
        min(maxDelay, baseDelay * pow(2, Double(attempt - 1))) * Double.random(in: 0.5...1.5)
    }
}

/// What a HEAD (or listing) says of an object.
public struct ObjectInfo: Sendable, Equatable {
    public var key: String
    public var size: Int
    /// Without quotes.
    public var etag: String
    public var lastModified: Date?
    public var contentType: String?
    public var cacheControl: String?
}

/// The few S3 calls publication needs, signed with SigV4, each retried with backoff. Path-style
/// addressing on a custom endpoint, virtual-hosted on AWS. `@unchecked Sendable`: `retriedCount`
/// and `lastDate` are only touched under `lock`; everything else is set in `init` and never changed.
public final class S3Client: @unchecked Sendable {
    public let bucket: String
    let settings: AWSSettings
    let retry: RetryPolicy
    let redactor: Redactor
    private let http: BlockingHTTP
    private let signer: SigV4Signer
    private let lock = NSLock()
    private var retriedCount = 0
    private var lastDate: Date?

    public init(settings: AWSSettings, bucket: String, retry: RetryPolicy = RetryPolicy(), timeout: TimeInterval = 120) {
        self.settings = settings
        self.bucket = bucket
        self.retry = retry
        self.redactor = Redactor(secrets: settings.credentials.secrets)
        self.http = BlockingHTTP(timeout: timeout)
        self.signer = SigV4Signer(credentials: settings.credentials, region: settings.region)
    }

    /// Requests sent again after a failure, since the client was made.
    public var retries: Int { lock.withLock { retriedCount } }
    /// The store's clock (`Date` of the latest answer), for prune ages.
    public var serverDate: Date? { lock.withLock { lastDate } }

    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    // MARK: Objects

    /// nil when there is no such object.
    public func head(_ key: String) throws(RemotePublishError) -> ObjectInfo? {
        let response = try send("HEAD", key, accept: [200, 404])
        return response.status == 404 ? nil : Self.info(key, response.headers)
    }

    /// The object's bytes and what the store says of it; nil when there is none.
    public func get(_ key: String) throws(RemotePublishError) -> (Data, ObjectInfo)? {
        let response = try send("GET", key, accept: [200, 404])
        guard response.status == 200 else { return nil }
        var info = Self.info(key, response.headers)
        if info.size == 0 { info.size = response.body.count }
        return (response.body, info)
    }

    /// Outcome of a conditional write.
    public enum WriteOutcome: Sendable, Equatable {
        case written(etag: String)
        /// 412: the object is not (or no longer) the one the condition named.
        case preconditionFailed
        /// 501: the store does not do conditional writes (nothing was written).
        case conditionsNotImplemented
    }

    /// PUT with `Content-MD5` (the store refuses a body that arrived damaged). `ifMatch` /
    /// `ifNoneMatch` make it conditional where the store honours them.
    public func put(_ key: String, _ body: Data, contentType: String, cacheControl: String,
                    ifMatch: String? = nil, ifNoneMatch: String? = nil) throws(RemotePublishError) -> WriteOutcome {
        var headers = ["content-type": contentType, "cache-control": cacheControl, "content-md5": Data(Insecure.MD5.hash(data: body)).base64EncodedString()]
        if let ifMatch { headers["if-match"] = "\"\(ifMatch)\"" }
        if let ifNoneMatch { headers["if-none-match"] = ifNoneMatch }
        let conditional = ifMatch != nil || ifNoneMatch != nil
        let response = try send("PUT", key, headers: headers, body: body, accept: conditional ? [200, 412, 501] : [200])
        if response.status == 412 { return .preconditionFailed }
        if response.status == 501 { return .conditionsNotImplemented }
        return .written(etag: Self.unquote(response.headers["etag"] ?? ""))
    }

    public func delete(_ key: String) throws(RemotePublishError) {
        _ = try send("DELETE", key, accept: [200, 204, 404])
    }

    /// Every object under `prefix` (ListObjectsV2, page by page).
    public func list(prefix: String) throws(RemotePublishError) -> [ObjectInfo] {
        var objects: [ObjectInfo] = []
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", prefix)]
            if let token { query.append(("continuation-token", token)) }
            let response = try send("GET", nil, query: query, accept: [200])
            let text = String(decoding: response.body, as: UTF8.self)
            for block in XMLText.blocks("Contents", in: text) {
                guard let key = XMLText.value("Key", in: block) else { continue }
                objects.append(ObjectInfo(key: key, size: Int(XMLText.value("Size", in: block) ?? "") ?? 0,
                                          etag: Self.unquote(XMLText.value("ETag", in: block) ?? ""),
                                          lastModified: XMLText.value("LastModified", in: block).flatMap(Self.isoDate)))
            }
            token = XMLText.value("IsTruncated", in: text) == "true" ? XMLText.value("NextContinuationToken", in: text) : nil
        } while token != nil
        return objects
    }

    // MARK: Multipart

    public func createMultipartUpload(_ key: String, contentType: String, cacheControl: String) throws(RemotePublishError) -> String {
        let response = try send("POST", key, query: [("uploads", "")], headers: ["content-type": contentType, "cache-control": cacheControl], accept: [200])
        guard let id = XMLText.value("UploadId", in: String(decoding: response.body, as: UTF8.self)) else {
            throw .request("POST \(key)?uploads: no UploadId in the answer")
        }
        return id
    }

    /// Returns the part's ETag (unquoted).
    public func uploadPart(_ key: String, uploadID: String, number: Int, _ body: Data) throws(RemotePublishError) -> String {
        let headers = ["content-md5": Data(Insecure.MD5.hash(data: body)).base64EncodedString()]
        let response = try send("PUT", key, query: [("partNumber", String(number)), ("uploadId", uploadID)], headers: headers, body: body, accept: [200])
        return Self.unquote(response.headers["etag"] ?? "")
    }

    public func completeMultipartUpload(_ key: String, uploadID: String, parts: [String]) throws(RemotePublishError) {
        var xml = "<CompleteMultipartUpload>"
        for (index, etag) in parts.enumerated() { xml += "<Part><PartNumber>\(index + 1)</PartNumber><ETag>\"\(etag)\"</ETag></Part>" }
        xml += "</CompleteMultipartUpload>"
        let response = try send("POST", key, query: [("uploadId", uploadID)], headers: ["content-type": "application/xml"], body: Data(xml.utf8), accept: [200])
        // S3 may answer 200 and put the error in the body.
        let text = String(decoding: response.body, as: UTF8.self)
        if text.contains("<Error>") {
            throw .request("POST \(key)?uploadId: \(XMLText.value("Code", in: text) ?? "error") \(XMLText.value("Message", in: text) ?? "")")
        }
    }

    public func abortMultipartUpload(_ key: String, uploadID: String) {
        _ = try? send("DELETE", key, query: [("uploadId", uploadID)], accept: [200, 204, 404])
    }

    // MARK: Requests

    private func url(_ key: String?, query: [(String, String)]) -> (URL, host: String, path: String) {
        let encodedKey = key.map { "/" + S3Path.encode($0, encodeSlash: false) } ?? "/"
        var scheme = "https", host: String, port: Int?, path: String
        if let endpoint = settings.endpoint {
            scheme = endpoint.scheme?.lowercased() ?? "https"
            host = endpoint.host ?? ""
            port = endpoint.port
            var base = endpoint.path
            while base.hasSuffix("/") { base.removeLast() }
            path = base + "/" + bucket + (key == nil ? "" : encodedKey)
        } else if bucket.contains(".") {
            host = "s3.\(settings.region).amazonaws.com"
            path = "/" + bucket + (key == nil ? "" : encodedKey)
        } else {
            host = "\(bucket).s3.\(settings.region).amazonaws.com"
            path = encodedKey
        }
        if path.isEmpty { path = "/" }
        let defaultPort = scheme == "https" ? 443 : 80
        let hostHeader = port.map { $0 == defaultPort ? host : "\(host):\($0)" } ?? host
        let queryText = query.map { "\(S3Path.encode($0.0, encodeSlash: true))=\(S3Path.encode($0.1, encodeSlash: true))" }.joined(separator: "&")
        let text = "\(scheme)://\(hostHeader)\(path)" + (queryText.isEmpty ? "" : "?" + queryText)
        return (URL(string: text)!, hostHeader, path)
    }

    /// Signs and sends one request, trying again with backoff on failures worth retrying.
    /// Statuses outside `accept` are errors naming the S3 error code and message.
    private func send(_ method: String, _ key: String?, query: [(String, String)] = [], headers: [String: String] = [:],
                      body: Data? = nil, accept: Set<Int>) throws(RemotePublishError) -> Response {
        let (url, host, path) = self.url(key, query: query)
        let payloadHash = body.map { hexString(SHA256.hash(data: $0)) } ?? SigV4Signer.emptyPayloadHash
        let what = "\(method) \(key.map { "s3://\(bucket)/\($0)" } ?? "s3://\(bucket)")"
        var attempt = 0
        while true {
            attempt += 1
            let timestamp = SigV4Signer.timestamp(Date())
            var signed = headers
            signed["host"] = host
            signed["x-amz-date"] = timestamp
            signed["x-amz-content-sha256"] = payloadHash
            if let token = settings.credentials.sessionToken { signed["x-amz-security-token"] = token }
            let request = SigV4Signer.Request(method: method, path: path, query: query, headers: signed.map { ($0.key, $0.value) }, payloadHash: payloadHash)
            var urlRequest = URLRequest(url: url)
            urlRequest.httpMethod = method
            for (name, value) in signed where name != "host" { urlRequest.setValue(value, forHTTPHeaderField: name) }
            urlRequest.setValue(signer.authorization(request, timestamp: timestamp), forHTTPHeaderField: "Authorization")
            urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
            let failure: String
            switch http.send(urlRequest, body: body ?? (method == "PUT" || method == "POST" ? Data() : nil)) {
            case .success(let response):
                if let date = response.headers["date"].flatMap(Self.httpDate) { lock.withLock { lastDate = date } }
                if accept.contains(response.status) { return Response(status: response.status, headers: response.headers, body: response.body) }
                let text = String(decoding: response.body, as: UTF8.self)
                let code = XMLText.value("Code", in: text)
                failure = "HTTP \(response.status)" + (code.map { " \($0)" } ?? "") + (XMLText.value("Message", in: text).map { ": \($0)" } ?? "")
                // Besides the store's own troubles: a body that arrived damaged or short.
                let retryable = [429, 500, 502, 503, 504].contains(response.status)
                    || ["SlowDown", "RequestTimeout", "InternalError", "BadDigest", "XAmzContentSHA256Mismatch", "IncompleteBody"].contains(code ?? "")
                if !retryable || attempt >= retry.attempts { throw RemotePublishError.request("\(what): \(failure)").redacted(redactor) }
            case .failure(let transport):
                failure = transport.reason
                if attempt >= retry.attempts {
                    throw RemotePublishError.request("\(what): \(failure) (after \(attempt) attempts)").redacted(redactor)
                }
            }
            lock.withLock { retriedCount += 1 }
            Thread.sleep(forTimeInterval: retry.delay(afterAttempt: attempt))
        }
    }

    // MARK: Parsing

    static func unquote(_ etag: String) -> String {
        var text = etag.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("W/") { text.removeFirst(2) }
        return text.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    static func info(_ key: String, _ headers: [String: String]) -> ObjectInfo {
        ObjectInfo(key: key, size: Int(headers["content-length"] ?? "") ?? 0, etag: unquote(headers["etag"] ?? ""),
                   lastModified: headers["last-modified"].flatMap(httpDate), contentType: headers["content-type"],
                   cacheControl: headers["cache-control"])
    }

    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }

    static func isoDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

/// Just enough XML reading for S3's answers: the text of the first `<tag>`, and the inner text
/// of each `<tag>…</tag>` block; entities decoded.
enum XMLText {
    static func value(_ tag: String, in text: String) -> String? {
        guard let start = text.range(of: "<\(tag)>"), let end = text.range(of: "</\(tag)>", range: start.upperBound..<text.endIndex) else { return nil }
        return decode(String(text[start.upperBound..<end.lowerBound]))
    }

    static func blocks(_ tag: String, in text: String) -> [String] {
        var out: [String] = []
        var rest = text[...]
        while let start = rest.range(of: "<\(tag)>"), let end = rest.range(of: "</\(tag)>", range: start.upperBound..<rest.endIndex) {
            out.append(String(rest[start.upperBound..<end.lowerBound]))
            rest = rest[end.upperBound...]
        }
        return out
    }

    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&#34;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }
}
