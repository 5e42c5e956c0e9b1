/// The bounds a client puts on what a server sends (docs/update-protocol.md, "Limits"): every
/// byte received and every byte inflated is bounded by what the manifest declares, and the
/// manifest itself by a fixed size. The Swift and Python clients use the same numbers.
public enum UpdateLimits {
    /// `manifest.json` at most 1 MiB (a manifest of 10 versions and 9 deltas is about 8 KB).
    public static let manifestBytes = 1 << 20
    /// `manifest.json.sig` at most 1 KiB (a signature is 89 bytes).
    public static let signatureBytes = 1 << 10
    /// A file may inflate to at most this many times its gzipped size (bundles inflate 5–10×).
    public static let ratio = 100
    /// A bundle inflates to at most 4 GiB.
    public static let bundleBytes = 4 << 30
    /// A delta's SQL is at most 128 MiB (it is applied from memory; the writer publishes none
    /// larger, and the full bundle serves instead).
    public static let deltaBytes = 128 << 20
    /// Integers in a manifest are within 0…2^53 − 1 (exact in every JSON reader, JavaScript's too).
    public static let largestInteger = (1 << 53) - 1

    /// The most a file declared as `bytes` gzipped (and `unpacked` once inflated, when the
    /// manifest says) may inflate to, capped at `ceiling`.
    public static func inflateLimit(bytes: Int, unpacked: Int?, ceiling: Int) -> Int {
        min(unpacked ?? bytes.multipliedReportingOverflow(by: ratio).partialValue, ceiling)
    }
}
