import Crypto

/// Ids derived from content, for bundle rows the feed gives no id to (stop patterns, timings):
/// the same content always gets the same id, so unchanged rows keep their key across versions.
public enum StableID {
    /// 12 hex digits (48 bits) of SHA-256 of `content`.
    public static func make(from content: String) -> String {
        let digest = SHA256.hash(data: Array(content.utf8))
        return hexString(digest.prefix(6))
    }
}
