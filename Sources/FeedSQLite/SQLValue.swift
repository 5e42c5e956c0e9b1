/// A value stored in or read from SQLite.
public enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// Text, or NULL for nil.
    public init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    /// An integer, or NULL for nil.
    public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    /// A real, or NULL for nil.
    public init(_ value: Double?) { self = value.map { .real($0) } ?? .null }

    /// The integer; nil for any other type.
    public var int: Int? {
        if case .integer(let v) = self { return Int(v) }
        return nil
    }
    /// The real, or the integer as a real; nil for any other type.
    public var double: Double? {
        switch self {
        case .real(let v): v
        case .integer(let v): Double(v)
        default: nil
        }
    }
    /// The text; nil for any other type.
    public var string: String? {
        if case .text(let v) = self { return v }
        return nil
    }
    /// True for NULL.
    public var isNull: Bool { self == .null }
}
