/// One event of a streamed document: an element's start or end, or a run of text.
///
/// Empty elements (`<Stop .../>`) give a start and then an end, like any other element.
package struct XMLNode: Sendable {
    package enum Kind: Sendable, Equatable {
        case start
        case end
        case text
    }

    package var kind: Kind
    /// The element's name; empty for text.
    package var name: String
    /// 0 for the root element.
    package var depth: Int
    /// 1-based line of the element's start tag (of the text for text).
    package var line: Int
    /// Attributes in document order (start events only).
    package var attributes: [(name: String, value: String)]
    /// The text (text events only).
    package var text: String

    /// The value of an attribute, or nil.
    package subscript(_ attribute: String) -> String? {
        for pair in attributes where pair.name == attribute { return pair.value }
        return nil
    }
}
