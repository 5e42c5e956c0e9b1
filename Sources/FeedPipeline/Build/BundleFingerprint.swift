import BundleFormat
import Foundation

/// What decides whether a bundle must be rebuilt: the compiler, the bundle's whole effective
/// configuration and each source's dump, as one SHA-256 (`inputs` in the manifest).
///
/// The configuration is walked field by field (`Mirror`), defaults filled in, so a setting added
/// to ``BundleConfig``, ``SourceConfig`` or any settings type they hold is part of the fingerprint
/// without being listed here; a file a setting names counts by its bytes (a Kalkati source's
/// `schema:`), and `network:`'s `overrides:` file by its rows, which the settings hold. Left out,
/// and listed in README.md ("pipeline.yaml"): what only shapes how a bundle is fetched or
/// published, never its content (``publicationOnly``, ``fetchOnly``); and where the dump lives,
/// which its digest replaces, so a moved checkout is not a change.
struct BundleFingerprint {
    /// Keys of ``BundleConfig`` that shape publication only: where it is uploaded, how the
    /// manifest is signed (an unchanged build still signs it), the service-end warnings of the
    /// report.
    static let publicationOnly: Set<String> = ["publish", "signingKey", "serviceEnd"]
    /// Keys of ``SourceConfig`` that shape how its dump is fetched, which the dump's digest
    /// stands for: where it lives, the download's size and time bounds.
    static let fetchOnly: Set<String> = ["location", "maxDownloadBytes", "downloadDeadline"]

    let bundle: BundleConfig
    let fetched: [FetchedSource]

    /// The fingerprint, `sha256:` and 64 hex digits.
    var value: String { "sha256:" + sha256Hex(Data(text.utf8)) }

    /// The text that is hashed: one line for the compiler, one for the bundle's settings, one
    /// per source.
    var text: String {
        var text = "feedc bundle format \(BundleSchema.formatVersion) compiler \(BundleSchema.compilerIdentity)\n"
        text += "bundle " + Self.describe(bundle, leaving: Self.publicationOnly.union(["sources"])) + "\n"
        for source in fetched {
            let schema = source.config.schema.map { (try? SourceFetcher.fingerprint(of: $0)) ?? "unreadable \($0.path)" } ?? "-"
            text += "source " + Self.describe(source.config, leaving: Self.fetchOnly.union(["schema"]))
            text += " schema \(schema) dump \(source.fingerprint)\n"
        }
        return text
    }

    /// `value` field by field, in declaration order, without the top-level fields named in
    /// `leaving`. Deterministic: dictionaries and sets by their sorted descriptions.
    static func describe(_ value: Any, leaving: Set<String> = []) -> String {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return "nil" }
            return describe(wrapped)
        case .collection, .tuple:
            return "[" + mirror.children.map { describe($0.value) }.joined(separator: ", ") + "]"
        case .dictionary, .set:
            return "{" + mirror.children.map { describe($0.value) }.sorted().joined(separator: ", ") + "}"
        case .struct, .class, .enum:
            if let url = value as? URL { return url.absoluteString.debugDescription }
            guard !mirror.children.isEmpty else { return "\(value)" }  // OptionSets, plain enums
            let fields = mirror.children.compactMap { child -> String? in
                guard let label = child.label else { return describe(child.value) }
                return leaving.contains(label) ? nil : "\(label): \(describe(child.value))"
            }
            let name = mirror.displayStyle == .enum ? "\(type(of: value)).\(fields.isEmpty ? "\(value)" : "")" : "\(type(of: value))"
            return name + "(" + fields.joined(separator: ", ") + ")"
        default:
            if let text = value as? String { return text.debugDescription }
            return "\(value)"
        }
    }
}
