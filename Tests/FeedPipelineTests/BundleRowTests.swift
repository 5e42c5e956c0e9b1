import BundleFormat
import FeedSQLite
import Testing

@testable import BundleWriter

/// The writer builds and reads every bundle table's rows through one struct a table
/// (`BundleRow`, issue 31): its fields must be the columns of the table's `BundleSchema`
/// declaration, in order, of the column's SQLite type, and its `values()` and `read` must keep that
/// order, or the rows would silently land in the wrong columns.
@Suite struct BundleRowTests {
    /// Every row type, one a bundle table.
    static let rowTypes: [any BundleRow.Type] = [
        MetaRow.self, FeedRow.self, AgencyRow.self, RouteRow.self, StopRow.self, StopRouteRow.self, ShapeRow.self,
        PatternRow.self, PatternStopRow.self, TimingStopRow.self, TripRow.self, FrequencyRow.self, CalendarRow.self,
        CalendarDateRow.self, DirectionRow.self, DirectionStopRow.self, StopDirectionRow.self, StopOppositeRow.self,
        StopOppositeRouteRow.self, StopGridRow.self, StopTokenRow.self, TranslationRow.self, TransferRow.self,
        SamePlaceRow.self, StopTransferRow.self, RealtimeTripRow.self,
    ]

    @Test func everyBundleTableHasOneRowType() {
        #expect(Self.rowTypes.map { $0.table.name } == BundleSchema.tables.map(\.name))
    }

    /// For each table: the row's field names, `trip_count` written `tripCount`, are the table's
    /// column names in order, each field of its column's type; a row read from distinct values
    /// holds each in the field of its column, and gives them back in the same order.
    @Test(arguments: BundleRowTests.rowTypes.map { RowType($0) })
    func theFieldsAreTheTableColumnsInOrder(_ rowType: RowType) throws {
        let table = rowType.type.table
        let fields = rowType.fields(of: rowType.type.init(values: table.columns.map { _ in .null }))
        #expect(fields.map { Self.columnName($0.label) } == table.columnNames, "\(table.name)")
        try #require(fields.count == table.columns.count)
        for (field, column) in zip(fields, table.columns) {
            #expect(Self.sqlType(of: field.type) == column.sqlType, "\(table.name).\(column.name): \(field.type)")
        }
        // Distinct values: text, integers and reals told apart by column (a Bool field holds 1).
        let sample: [SQLValue] = zip(fields, table.columns).enumerated().map { index, pair in
            switch pair.1.sqlType {
            case "TEXT": .text("\(pair.1.name) \(index)")
            case "REAL": .real(Double(index) + 0.5)
            default: pair.0.type == Bool.self ? .integer(1) : .integer(Int64(100 + index))
            }
        }
        let row = rowType.type.init(values: sample)
        #expect(rowType.fields(of: row).map(\.value) == sample.map { $0 as SQLValue? }, "\(table.name): read into other fields")
        #expect(row.values() == sample, "\(table.name): values in another order")
    }

    /// `tripCount` → `trip_count`.
    static func columnName(_ label: String) -> String {
        label.reduce(into: "") { name, character in
            if character.isUppercase { name += "_" + character.lowercased() } else { name.append(character) }
        }
    }

    /// The SQLite type a field's Swift type is stored as.
    static func sqlType(of type: Any.Type) -> String? {
        switch type {
        case is String.Type, is String?.Type: "TEXT"
        case is Int.Type, is Int?.Type, is Bool.Type, is Bool?.Type: "INTEGER"
        case is Double.Type, is Double?.Type: "REAL"
        default: nil
        }
    }
}

/// A row type as a test argument, named after its table.
struct RowType: CustomTestStringConvertible, Sendable {
    let type: any BundleRow.Type

    init(_ type: any BundleRow.Type) { self.type = type }

    var testDescription: String { type.table.name }

    /// The stored fields of `row` in declaration order: each name, Swift type and value as stored.
    func fields(of row: any BundleRow) -> [(label: String, type: Any.Type, value: SQLValue?)] {
        Mirror(reflecting: row).children.map { child in
            (child.label ?? "", Swift.type(of: child.value), (child.value as? any BundleValue)?.sqlValue)
        }
    }
}
