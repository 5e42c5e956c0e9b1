import BundleFormat
import FeedSQLite

// The rows of the portable search tables (``StopIndexCompiler``) and of names in other languages
// (``TranslationsCompiler``); one struct a table, its fields its columns in order (``BundleRow``).

/// A `stop_grid` row (``BundleSchema/stopGrid``): a stop by strip of latitude, then longitude.
struct StopGridRow: BundleRow {
    static let table = BundleSchema.stopGrid
    let strip: Int
    let lon: Double
    let stopId: String?

    @inline(__always) consuming func values() -> [SQLValue] { [strip.sqlValue, lon.sqlValue, stopId.sqlValue] }
    static func read(_ c: inout RowCursor) -> Self { Self(strip: c.next(), lon: c.next(), stopId: c.next()) }
}

/// A `stop_tokens` row (``BundleSchema/stopTokens``): a folded word of a stop's names.
struct StopTokenRow: BundleRow {
    static let table = BundleSchema.stopTokens
    let token: String
    let stopId: String?

    @inline(__always) consuming func values() -> [SQLValue] { [token.sqlValue, stopId.sqlValue] }
    static func read(_ c: inout RowCursor) -> Self { Self(token: c.next(), stopId: c.next()) }
}

/// A `translations` row (``BundleSchema/translations``): a record's or a value's name in one
/// language.
struct TranslationRow: BundleRow {
    static let table = BundleSchema.translations
    let tableName: String
    let fieldName: String
    let recordId: String
    let recordSubId: String
    let fieldValue: String
    let language: String
    let translation: String

    @inline(__always) consuming func values() -> [SQLValue] {
        [
            tableName.sqlValue, fieldName.sqlValue, recordId.sqlValue, recordSubId.sqlValue, fieldValue.sqlValue,
            language.sqlValue, translation.sqlValue,
        ]
    }
    static func read(_ c: inout RowCursor) -> Self {
        Self(
            tableName: c.next(), fieldName: c.next(), recordId: c.next(), recordSubId: c.next(), fieldValue: c.next(),
            language: c.next(), translation: c.next())
    }
}
