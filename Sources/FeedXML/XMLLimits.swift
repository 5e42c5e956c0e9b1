/// Limits a reader enforces on top of libxml2's own.
///
/// libxml2 is used with its default safety limits (no `XML_PARSE_HUGE`): nesting depth 256,
/// names of 50,000 bytes, text nodes of 10 MB, and its entity-amplification checks. These are
/// the project's, tighter ones.
package struct XMLLimits: Sendable, Equatable {
    /// Longest single text node or attribute value, in bytes. Transit dumps hold short values;
    /// a megabyte-long name is an attack or a broken file.
    package var maximumValueBytes: Int
    /// Schema violations stored with their text (all are counted).
    package var storedIssues: Int

    package init(maximumValueBytes: Int = 1 << 20, storedIssues: Int = 50) {
        self.maximumValueBytes = maximumValueBytes
        self.storedIssues = storedIssues
    }

    package static let standard = XMLLimits()
}
