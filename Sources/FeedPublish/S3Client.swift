import BundleFormat
import Crypto
import FeedHTTP
import FeedModel
import Foundation

/// What a HEAD (or listing) says of an object.
package struct ObjectInfo: Sendable, Equatable {
    package var key: String
    package var size: Int
    /// Without quotes.
    package var etag: String
    package var lastModified: Date?
    package var contentType: String?
    package var cacheControl: String?
}

/// The few S3 calls publication needs, signed with SigV4, each retried with backoff. Path-style
/// addressing on a custom endpoint, virtual-hosted on AWS. Requests go over FeedHTTP's
/// ``HTTPTransfer``, one at a time and waited for (the publisher works through its files in
/// order, and order is the point), each on a connection of its own, never redirected.
package final class S3Client: Sendable {
    /// The bucket every key is in.
    package let bucket: String
    let settings: AWSSettings
    let retry: RetryPolicy
    let redactor: Redactor
    private let transfer: HTTPTransfer
    private let signer: SigV4Signer
    /// Requests sent again after a failure, and the `Date` of the latest answer.
    private let counters = Locked<(retried: Int, lastDate: Date?)>((0, nil))

    /// The most bytes an answer may hold (an object read back into memory).
    static let maxAnswerBytes = 1 << 31
    /// The most seconds one request may take in all, however steadily its bytes move.
    static let requestDeadline: TimeInterval = 3600

    /// A client for `bucket`; `timeout`: seconds a request may go without a byte either way
    /// before it is given up (and tried again).
    package init(settings: AWSSettings, bucket: String, retry: RetryPolicy = RetryPolicy(), timeout: TimeInterval = 120) {
        self.settings = settings
        self.bucket = bucket
        self.retry = retry
        self.redactor = Redactor(secrets: settings.credentials.secrets)
        self.transfer = HTTPTransfer(idle: timeout, overall: max(timeout, Self.requestDeadline), redirects: .none, userAgent: "feedc")
        self.signer = SigV4Signer(credentials: settings.credentials, region: settings.region)
    }

    /// Requests sent again after a failure, since the client was made.
    package var retries: Int { counters.value.retried }
    /// The store's clock (`Date` of the latest answer), for prune ages.
    package var serverDate: Date? { counters.value.lastDate }

    // MARK: Objects

    /// nil when there is no such object.
    package func head(_ key: String) throws(RemotePublishError) -> ObjectInfo? {
        let response = try send("HEAD", key, accept: [200, 404])
        return response.status == 404 ? nil : Self.info(key, response.headers)
    }

    /// The object's bytes and what the store says of it; nil when there is none.
    package func get(_ key: String) throws(RemotePublishError) -> (Data, ObjectInfo)? {
        let response = try send("GET", key, accept: [200, 404])
        guard response.status == 200 else { return nil }
        var info = Self.info(key, response.headers)
        if info.size == 0 { info.size = response.body.count }
        return (response.body, info)
    }

    /// Outcome of a conditional write.
    package enum WriteOutcome: Sendable, Equatable {
        case written(etag: String)
        /// 412: the object is not (or no longer) the one the condition named.
        case preconditionFailed
        /// 501: the store does not do conditional writes (nothing was written).
        case conditionsNotImplemented
    }

    /// PUT with `Content-MD5` (the store refuses a body that arrived damaged). `ifMatch` /
    /// `ifNoneMatch` make it conditional where the store honours them.
    package func put(
        _ key: String, _ body: Data, contentType: String, cacheControl: String,
        ifMatch: String? = nil, ifNoneMatch: String? = nil
    ) throws(RemotePublishError) -> WriteOutcome {
        var headers = ["content-type": contentType, "cache-control": cacheControl, "content-md5": Data(Insecure.MD5.hash(data: body)).base64EncodedString()]
        if let ifMatch { headers["if-match"] = "\"\(ifMatch)\"" }
        if let ifNoneMatch { headers["if-none-match"] = ifNoneMatch }
        let conditional = ifMatch != nil || ifNoneMatch != nil
        let response = try send("PUT", key, headers: headers, body: body, accept: conditional ? [200, 412, 501] : [200])
        if response.status == 412 { return .preconditionFailed }
        if response.status == 501 { return .conditionsNotImplemented }
        return .written(etag: Self.unquote(response.headers["etag"] ?? ""))
    }

    package func delete(_ key: String) throws(RemotePublishError) {
        _ = try send("DELETE", key, accept: [200, 204, 404])
    }

    /// Every object under `prefix` (ListObjectsV2, page by page).
    package func list(prefix: String) throws(RemotePublishError) -> [ObjectInfo] {
        var objects: [ObjectInfo] = []
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", prefix)]
            if let token { query.append(("continuation-token", token)) }
            let response = try send("GET", nil, query: query, accept: [200])
            let text = String(decoding: response.body, as: UTF8.self)
            for block in XMLText.blocks("Contents", in: text) {
                guard let key = XMLText.value("Key", in: block) else { continue }
                objects.append(
                    ObjectInfo(
                        key: key, size: Int(XMLText.value("Size", in: block) ?? "") ?? 0,
                        etag: Self.unquote(XMLText.value("ETag", in: block) ?? ""),
                        lastModified: XMLText.value("LastModified", in: block).flatMap(Self.isoDate)))
            }
            token = XMLText.value("IsTruncated", in: text) == "true" ? XMLText.value("NextContinuationToken", in: text) : nil
        } while token != nil
        return objects
    }

    // MARK: Multipart

    package func createMultipartUpload(_ key: String, contentType: String, cacheControl: String) throws(RemotePublishError) -> String {
        let response = try send("POST", key, query: [("uploads", "")], headers: ["content-type": contentType, "cache-control": cacheControl], accept: [200])
        guard let id = XMLText.value("UploadId", in: String(decoding: response.body, as: UTF8.self)) else {
            throw .request("POST \(key)?uploads: no UploadId in the answer")
        }
        return id
    }

    /// Returns the part's ETag (unquoted).
    package func uploadPart(_ key: String, uploadID: String, number: Int, _ body: Data) throws(RemotePublishError) -> String {
        let headers = ["content-md5": Data(Insecure.MD5.hash(data: body)).base64EncodedString()]
        let response = try send("PUT", key, query: [("partNumber", String(number)), ("uploadId", uploadID)], headers: headers, body: body, accept: [200])
        return Self.unquote(response.headers["etag"] ?? "")
    }

    package func completeMultipartUpload(_ key: String, uploadID: String, parts: [String]) throws(RemotePublishError) {
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

    package func abortMultipartUpload(_ key: String, uploadID: String) {
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
    private func send(
        _ method: String, _ key: String?, query: [(String, String)] = [], headers: [String: String] = [:],
        body: Data? = nil, accept: Set<Int>
    ) throws(RemotePublishError) -> HTTPResponse {
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
            var fields = signed.filter { $0.key != "host" }
            fields["Authorization"] = signer.authorization(request, timestamp: timestamp)
            let failure: String
            switch exchange(method, url, headers: fields, body: body) {
            case .success(let response):
                if let date = response.headers["date"].flatMap(Self.httpDate) { counters.withLock { $0.lastDate = date } }
                if accept.contains(response.status) { return response }
                let text = String(decoding: response.body, as: UTF8.self)
                let code = XMLText.value("Code", in: text)
                failure = "HTTP \(response.status)" + (code.map { " \($0)" } ?? "") + (XMLText.value("Message", in: text).map { ": \($0)" } ?? "")
                // Besides the store's own troubles: a body that arrived damaged or short.
                let retryable =
                    [429, 500, 502, 503, 504].contains(response.status)
                    || ["SlowDown", "RequestTimeout", "InternalError", "BadDigest", "XAmzContentSHA256Mismatch", "IncompleteBody"].contains(code ?? "")
                if !retryable || attempt >= retry.attempts { throw RemotePublishError.request("\(what): \(failure)").redacted(redactor) }
            case .failure(let transport):
                failure = Self.words(transport)
                // A connection refused, cut or silent is the network's trouble, and may pass;
                // an answer larger than any object read back, or a cancellation, will not.
                guard transport.isTransient else {
                    throw RemotePublishError.request("\(what): \(failure)").redacted(redactor)
                }
                if attempt >= retry.attempts {
                    throw RemotePublishError.request("\(what): \(failure) (after \(attempt) attempts)").redacted(redactor)
                }
            }
            counters.withLock { $0.retried += 1 }
            Thread.sleep(forTimeInterval: retry.delay(afterAttempt: attempt))
        }
    }

    /// One exchange over the shared transfer, the answer's body (an error's too) in memory.
    private func exchange(_ method: String, _ url: URL, headers: [String: String], body: Data?) -> Result<HTTPResponse, HTTPFailure> {
        let sink = TransferSink(file: nil, maxBytes: Self.maxAnswerBytes, keepsErrorBodies: true)
        do throws(HTTPFailure) {
            return .success(try transfer.runBlocking(url, method: method, headers: headers, body: body, into: sink))
        } catch {
            return .failure(error)
        }
    }

    /// A transfer's failure in the words of a request's error.
    static func words(_ failure: HTTPFailure) -> String {
        switch failure {
        case .cancelled: "cancelled"
        case .local(let path, let reason): "\(path): \(reason)"
        case .overLimit(let maxBytes, _): "the answer is larger than \(maxBytes) bytes"
        case .refused(let reason): reason
        case .timedOut(let seconds, let idle): HTTPFailure.timeoutWords(seconds: seconds, idle: idle)
        case .network(let reason): reason
        }
    }

    // MARK: Parsing

    static func unquote(_ etag: String) -> String {
        var text = etag.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("W/") { text.removeFirst(2) }
        return text.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    static func info(_ key: String, _ headers: [String: String]) -> ObjectInfo {
        ObjectInfo(
            key: key, size: Int(headers["content-length"] ?? "") ?? 0, etag: unquote(headers["etag"] ?? ""),
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
