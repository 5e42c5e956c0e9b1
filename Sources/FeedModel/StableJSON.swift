import Foundation

/// The one JSON setup of every file and output the package writes (manifests, reports, diffs,
/// `--json`): sorted keys and unescaped slashes, so the same value always gives the same bytes.
package enum StableJSON {
    /// An encoder: indented, or on one line (`oneLine`, for JSON lines).
    package static func encoder(oneLine: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = oneLine ? [.sortedKeys, .withoutEscapingSlashes] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
