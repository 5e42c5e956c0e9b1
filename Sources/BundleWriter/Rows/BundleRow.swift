import BundleFormat
import FeedModel
import FeedSQLite

/// A row of one bundle table, built and read through named, typed fields rather than positions
/// (issue 31): one struct per table of ``BundleSchema``, its fields declared in the table's
/// column order and named after its columns (`trip_count` is `tripCount`), so a swapped or
/// misspelt column does not compile. `BundleRowTests` checks every table's fields against its
/// declaration, and that ``values()`` and ``read(_:)`` keep that order.
protocol BundleRow {
    /// The table the row belongs to.
    static var table: BundleTable { get }
    /// The row's values, in the table's column order: what is bound to its `INSERT`. Consumed
    /// and inlined (`@inline(__always)`) where a row is appended, so its texts move into the
    /// values uncopied.
    consuming func values() -> [SQLValue]
    /// The row whose values `cursor` holds, read field by field in declaration order (the order
    /// of the memberwise initialiser).
    static func read(_ cursor: inout RowCursor) -> Self
}

extension BundleRow {
    /// The row whose values are `values`, in the table's column order.
    init(values: [SQLValue]) {
        var cursor = RowCursor(values)
        self = Self.read(&cursor)
    }
}

/// The values of one stored row, read in column order: each ``next()`` takes the next column's
/// value as the type the field it fills has.
struct RowCursor {
    private let values: [SQLValue]
    private var index = 0

    init(_ values: [SQLValue]) { self.values = values }

    /// The next column's value.
    mutating func next<Value: BundleValue>() -> Value {
        defer { index += 1 }
        return Value(sqlValue: values[index])
    }
}

/// A Swift type a bundle column holds, and how it is stored: `String` in `TEXT`, `Int` and
/// `Bool` in `INTEGER`, `Double` in `REAL`; an optional one as `NULL` when nil.
protocol BundleValue {
    /// The value as SQLite stores it.
    var sqlValue: SQLValue { get }
    /// The value that was stored as `value` (a value the writer stored: a mismatched one reads
    /// as the type's zero).
    init(sqlValue value: SQLValue)
}

extension String: BundleValue {
    var sqlValue: SQLValue { .text(self) }
    init(sqlValue value: SQLValue) { self = value.string ?? "" }
}

extension Int: BundleValue {
    var sqlValue: SQLValue { .integer(Int64(self)) }
    init(sqlValue value: SQLValue) { self = value.int ?? 0 }
}

extension Double: BundleValue {
    var sqlValue: SQLValue { .real(self) }
    init(sqlValue value: SQLValue) { self = value.double ?? 0 }
}

extension Bool: BundleValue {
    var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    init(sqlValue value: SQLValue) { self = (value.int ?? 0) != 0 }
}

extension Optional: BundleValue where Wrapped: BundleValue {
    var sqlValue: SQLValue { self?.sqlValue ?? .null }
    init(sqlValue value: SQLValue) {
        if case .null = value { self = nil } else { self = Wrapped(sqlValue: value) }
    }
}

extension Int {
    /// The value, or nil for ``Column/nullInteger``: a missing value of an integer column.
    var nilIfMissing: Int? { self == Column.nullInteger ? nil : self }
}

extension Double {
    /// The value, or nil for NaN: a missing value of a real column.
    var nilIfMissing: Double? { isNaN ? nil : self }
}
