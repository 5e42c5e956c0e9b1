/// One event of a streamed document: an element's start or end, or a run of text.
///
/// Empty elements (`<Stop .../>`) give a start and then an end, like any other element.
public struct XMLNode: Sendable {
    public enum Kind: Sendable, Equatable {
        case start
        case end
        case text
    }

    public var kind: Kind
    /// The element's name; empty for text.
    public var name: String
    /// 0 for the root element.
    public var depth: Int
    /// 1-based line of the element's start tag (of the text for text).
    public var line: Int
    /// Attributes in document order (start events only).
    public var attributes: [(name: String, value: String)]
    /// The text (text events only).
    public var text: String

    /// The value of an attribute, or nil.
    public subscript(_ attribute: String) -> String? {
        for pair in attributes where pair.name == attribute { return pair.value }
        return nil
    }
}
