/// Why an XML document was refused. Every case carries the place (file, line, column) and a
/// sentence; readers report it under a notice code of its ``Kind`` (`XMLNotices` in
/// FeedLegacySources: `xml_malformed`, …, `i_o_error`).
///
/// Errors end the reading of a document: a malformed, truncated, hostile or wrongly encoded
/// file is never half-trusted. Schema violations are not errors (see ``XMLIssue``): they are
/// reported and reading goes on.
package struct XMLError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: String, Sendable, Equatable {
        /// Not well-formed XML.
        case malformed
        /// The document ends before its root element is closed (a cut-off download).
        case truncated
        /// Not valid UTF-8 (or the declared encoding), or a character XML forbids.
        case invalidEncoding
        /// A DTD with entity declarations, an entity reference, or an entity expansion libxml2
        /// stopped (billion laughs): refused, nothing outside the document is ever read.
        case entityRefused
        /// A single text or attribute value longer than the limit.
        case valueTooLarge
        /// The root element is not the one the reader expects.
        case wrongRoot
        /// The file could not be opened.
        case unreadable
        /// The schema itself could not be read or compiled.
        case invalidSchema
    }

    package var kind: Kind
    package var file: String
    /// 1-based; 0 when unknown.
    package var line: Int
    /// 1-based; 0 when unknown.
    package var column: Int
    package var message: String

    package init(_ kind: Kind, file: String, line: Int = 0, column: Int = 0, _ message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`.
    package var description: String {
        var out = file
        if line > 0 { out += ":\(line)" }
        if column > 0 { out += ":\(column)" }
        return out + ": " + message
    }
}

/// A schema violation: the document is well-formed but breaks its XSD. Reading goes on.
package struct XMLIssue: Sendable, Equatable {
    package var line: Int
    package var column: Int
    package var message: String

    package init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }
}
