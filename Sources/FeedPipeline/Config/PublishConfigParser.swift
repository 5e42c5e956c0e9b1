import FeedPublish
import Foundation
import Yams

/// `publish:` (top level or per bundle): `s3://bucket/prefix`, or a mapping with `to:` and the
/// cache and prune settings; `false` (per bundle) publishes that bundle locally only.
/// Credentials are never read from the file: keys that look like them are refused by name.
struct PublishConfigParser {
    let doc: YAMLReader

    static let credentialKeys = [
        "access_key_id", "aws_access_key_id", "secret_access_key", "aws_secret_access_key", "session_token",
        "aws_session_token", "access_key", "secret_key", "secret", "password", "credentials", "endpoint", "region",
    ]

    func parse(_ node: Node) throws(ConfigError) -> PublishTarget? {
        if case .scalar = node, let off = node.bool, !off { return nil }
        if case .scalar = node { return try target(node) }
        if case .mapping(let mapping) = node,
            let key = mapping.keys.compactMap(\.string).first(where: { Self.credentialKeys.contains($0.lowercased()) })
        {
            throw doc.error(
                node,
                "`\(key)` does not belong in pipeline.yaml: credentials, endpoint and region come from the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION, AWS_ENDPOINT_URL)"
            )
        }
        let map = try doc.mapping(node, allowed: ["to", "manifest_cache_control", "prune_after"], context: "`publish`")
        guard let to = map["to"] else { throw doc.error(node, "`publish` needs `to: s3://bucket/prefix`") }
        var target = try target(to)
        if let n = map["manifest_cache_control"] {
            target.manifestCacheControl = try doc.string(n, "manifest_cache_control")
            guard target.manifestCacheControl.allSatisfy({ $0.isASCII && !$0.isNewline }) else {
                throw doc.error(n, "`manifest_cache_control` must be one line of ASCII (a Cache-Control value such as max-age=60)")
            }
        }
        if let n = map["prune_after"] { target.pruneAfter = try duration(n) }
        return target
    }

    private func target(_ node: Node) throws(ConfigError) -> PublishTarget {
        let text = try doc.string(node, "publish")
        switch PublishTarget.parse(text) {
        case .success(let target): return target
        case .failure(let error): throw doc.error(node, error.description)
        }
    }

    /// `90s`, `30m`, `1h`, `2d`, or a number of seconds.
    private func duration(_ node: Node) throws(ConfigError) -> TimeInterval {
        let text = try doc.string(node, "prune_after").trimmingCharacters(in: .whitespaces)
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        let (number, unit) = text.last.flatMap { units[$0] }.map { (String(text.dropLast()), $0) } ?? (text, 1)
        guard let value = Double(number), value >= 0, value.isFinite else {
            throw doc.error(node, "`prune_after` must be a duration such as 90s, 30m, 1h or 2d")
        }
        return value * unit
    }
}
