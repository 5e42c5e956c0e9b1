import FeedModel

/// A value of one field in a row of an ``InMemoryFeed``, written as a literal: `"S1"` (text),
/// `3` (integer), `53.1` (real), `.time("08:00:00")`, `.date(20260601)`, or ``empty`` (the
/// column is there, this row leaves it empty).
enum FieldValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    case text(String)
    case integer(Int)
    case real(Double)
    /// A missing value in a column the file has (a key left out of a row is missing too; this
    /// keeps the column when no row of the table has a value for it).
    case empty

    init(stringLiteral value: String) { self = .text(value) }
    init(integerLiteral value: Int) { self = .integer(value) }
    init(floatLiteral value: Double) { self = .real(value) }

    /// A GTFS time, `H:MM:SS` or `HH:MM:SS` (hours may pass 24), as stored: seconds since the
    /// start of the service day.
    static func time(_ text: String) -> FieldValue {
        let parts = text.split(separator: ":").map { Int($0)! }
        precondition(parts.count == 3, "a time is H:MM:SS")
        return .integer(parts[0] * 3600 + parts[1] * 60 + parts[2])
    }

    /// A GTFS date, `YYYYMMDD`, as stored: the integer of the same digits.
    static func date(_ yyyymmdd: Int) -> FieldValue { .integer(yyyymmdd) }
}

/// A row of an ``InMemoryFeed`` table: its values by field, keys left out are missing values.
typealias InMemoryRow = [FieldKey: FieldValue]

/// Builds a ``Feed`` straight from rows, without the CSV reader, so that one rule can be tested
/// on exactly the tables it reads.
///
/// Each table named is present, with a column for every field some row mentions (in schema
/// order, typed by the schema's ``FieldKind/storage``) and ``Column/absent`` for the others;
/// row `i` comes from line `i + 2`, as under a header. Tables not named are missing, as files
/// the dump lacks. `locations` (the GeoJSON features) is taken like any other table.
enum InMemoryFeed {
    static func feed(_ rows: [String: [InMemoryRow]], dumpFiles: Set<String>? = nil, subfolder: String? = nil) -> Feed {
        var tables: [String: Table] = [:]
        for schema in GTFSSchema.tables { tables[schema.name] = .missing(schema) }
        for (name, tableRows) in rows {
            guard let schema = GTFSSchema.table(named: name) else { preconditionFailure("no GTFS table \(name)") }
            tables[name] = table(schema, tableRows)
        }
        return Feed(tables: tables, dumpFiles: dumpFiles, subfolder: subfolder)
    }

    /// One present table of `rows`.
    static func table(_ schema: TableSchema, _ rows: [InMemoryRow]) -> Table {
        let mentioned = Set(rows.flatMap(\.keys))
        for key in mentioned where schema.field(key.name) == nil {
            preconditionFailure("\(schema.name) has no field \(key)")
        }
        let columns = schema.fields.map { field -> Column in
            guard mentioned.contains(field.key) else { return .absent }
            let values = rows.map { $0[field.key] ?? .empty }
            return column(values, of: field, in: schema)
        }
        return Table(schema: schema, columns: columns, lines: rows.indices.map { Int32($0 + 2) })
    }

    private static func column(_ values: [FieldValue], of field: FieldSchema, in schema: TableSchema) -> Column {
        func mismatch(_ value: FieldValue) -> Never {
            preconditionFailure("\(schema.name).\(field.name) is stored as \(field.kind.storage), not \(value)")
        }
        switch field.kind.storage {
        case .text:
            return .text(
                values.map { value in
                    switch value {
                    case .text(let text): text
                    case .empty: nil
                    default: mismatch(value)
                    }
                })
        case .integer:
            return .integer(
                values.map { value in
                    switch value {
                    case .integer(let number): number
                    case .empty: Column.nullInteger
                    default: mismatch(value)
                    }
                })
        case .real:
            return .real(
                values.map { value in
                    switch value {
                    case .real(let number): number
                    case .integer(let number): Double(number)
                    case .empty: .nan
                    default: mismatch(value)
                    }
                })
        }
    }
}
