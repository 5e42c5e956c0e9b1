import FeedSQLite
import Foundation

/// Writes a bundle's packed form (docs/packed-bundle.md): the same schema and rows, column by
/// column, each column one blob coded for gzip, in a SQLite file. Deterministic: the same bundle
/// gives the same bytes.
package enum PackedBundleWriter {
    /// The `packed_meta.format` this writer writes and the installer reads.
    package static let format = "1"
    /// The packed file's own tables, by name, each with the statement that makes it: all that
    /// its `sqlite_master` may hold (the installer checks it before reading anything).
    static let tables: [(name: String, sql: String)] = [
        ("packed_meta", "CREATE TABLE packed_meta (key TEXT NOT NULL, value TEXT NOT NULL)"),
        ("packed_schema", "CREATE TABLE packed_schema (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, name TEXT NOT NULL, sql TEXT NOT NULL)"),
        ("packed_tables", "CREATE TABLE packed_tables (name TEXT NOT NULL, rows INTEGER NOT NULL, encodings TEXT NOT NULL, data BLOB NOT NULL)"),
    ]
    /// The packed file's own schema.
    static let schema =
        "PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA user_version = 1;\n"
        + tables.map { $0.sql + ";" }.joined(separator: "\n")

    /// Packs the bundle at `source` into a new file at `destination` (which must not exist).
    /// Returns false, writing nothing, for a bundle the packed form does not carry: one with
    /// virtual tables (`sqlite_modules`) or triggers, or a row of more than
    /// ``PackedLimits/rowBytes`` of TEXT and BLOB values.
    @discardableResult
    package static func pack(bundleAt source: String, to destination: String) throws(PackedBundleError) -> Bool {
        do {
            let bundle = try Database(path: source)
            let objects = try bundle.rows(
                "SELECT type, name, sql, rootpage FROM sqlite_master WHERE sql IS NOT NULL AND substr(name, 1, 7) <> 'sqlite_' ORDER BY rowid")
            guard objects.allSatisfy({ ["table", "index", "view"].contains($0[0].string) && ($0[0].string != "table" || $0[3].int != 0) }) else {
                return false
            }
            let userVersion = try bundle.scalar("PRAGMA user_version")?.int ?? 0
            let packed = try Database(path: destination, mode: .create)
            try packed.execute(schema)
            try packed.execute("BEGIN")
            let meta = try packed.prepare("INSERT INTO packed_meta VALUES (?, ?)")
            try meta.run([.text("format"), .text(format)])
            try meta.run([.text("user_version"), .text(String(userVersion))])
            let schemaRow = try packed.prepare("INSERT INTO packed_schema VALUES (?, ?, ?, ?)")
            let tableRow = try packed.prepare("INSERT INTO packed_tables VALUES (?, ?, ?, ?)")
            var keys: [PackedKeyColumn] = []
            // The keys `k` columns may refer to, within the limits a client keeps them in.
            var referenced = (rows: 0, bytes: 0)
            for (seq, object) in objects.enumerated() {
                try schemaRow.run([.integer(Int64(seq)), object[0], object[1], object[2]])
                guard object[0].string == "table", let table = object[1].string else { continue }
                var packedTable = try PackedTable(bundle: bundle, name: table, keys: keys)
                let encodings = packedTable.columns.map { column in
                    column.key.map { "\(column.encoding.name)=\($0.table).\($0.cid)" } ?? column.encoding.name
                }
                // Each column's bytes freed once copied, and the blob bound where it is: the
                // table's bytes were held three times (the columns, the blob, SQLite's copy), 200
                // MB more at the end of a hostile square's build (issue 41).
                for key in packedTable.keys {
                    let bytes = packedTable.columns.first { $0.cid == key.cid }?.data.count ?? Int.max
                    guard referenced.rows + packedTable.rows <= PackedLimits.referencedRows,
                        bytes <= PackedLimits.referencedBytes - referenced.bytes
                    else { continue }
                    referenced = (referenced.rows + packedTable.rows, referenced.bytes + bytes)
                    keys.append(key)
                }
                var data = PackedBytesWriter()
                for index in packedTable.columns.indices {
                    let bytes = packedTable.takeData(index)
                    data.varint(UInt64(bytes.count))
                    bytes.withUnsafeBytes { data.append($0) }
                }
                try tableRow.runBindingInPlace(
                    [.text(table), .integer(Int64(packedTable.rows)), .text(encodings.joined(separator: " ")), .blob(data.bytes)])
            }
            try packed.execute("COMMIT")
            return true
        } catch is PackedTable.RowTooLarge {
            try? FileManager.default.removeItem(atPath: destination)
            return false
        } catch let error as SQLiteError {
            throw .local(path: destination, reason: "cannot pack \(source): \(error.message)")
        } catch let error as PackedBundleError {
            throw error
        } catch {
            throw .local(path: destination, reason: "\(error)")
        }
    }
}
