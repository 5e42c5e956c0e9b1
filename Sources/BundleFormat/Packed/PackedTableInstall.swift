import FeedSQLite

/// Installs one table's rows from its packed columns.
struct PackedTableInstall {
    let entry: PackedBundleInstaller.TableEntry
    let source: Database
    let target: Database
    let maxBytes: Int?

    private var table: String { entry.name }
    private var context: String { "table `\(table)`" }

    func run(references: inout ReferencedColumns) throws(PackedBundleError) {
        let quoted = SQLName.quoted(table)
        let names: [String]
        let hasRowid: Bool
        do {
            names = try target.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)]).map { $0[0].string ?? "" }
            hasRowid = (try? target.prepare("SELECT rowid FROM \(quoted) LIMIT 0")) != nil
        } catch {
            throw .corrupt("\(context): \(error)")
        }
        let firstCid = hasRowid ? -1 : 0
        let columns = try entry.columns()
        guard columns.count == names.count - firstCid else {
            throw .corrupt("\(context): \(columns.count) packed columns, the table has \(names.count - firstCid)")
        }
        let rows = entry.rows
        guard rows >= 0, rows <= entry.length else { throw .corrupt("\(context): \(rows) rows in \(entry.length) bytes") }

        let blob = try self.blob()
        // Each column read through two windows; a table of many columns gets smaller ones.
        let window = max(4096, min(PackedLimits.window, PackedLimits.tableWindows / (2 * max(1, columns.count))))
        let layout = PackedByteStream(blob, from: 0, to: blob.count, window: 64, context: context)
        var cursors: [PackedColumnCursor] = []
        // The columns later `k` columns refer to, checked against the limits before they are read.
        var keptColumns: [KeptColumn?] = []
        for (i, column) in columns.enumerated() {
            let name = i + firstCid < 0 ? "rowid" : names[i + firstCid]
            var reference: [RawValue] = []
            if let key = column.reference {
                guard let values = references.values[key] else {
                    throw .corrupt("\(context), column `\(name)`: refers to \(key.table).\(key.cid), not a column installed before it")
                }
                reference = values
            }
            let length = try layout.count(atMost: blob.count)
            let from = layout.position
            try layout.skip(length)
            let key = PackedBundleInstaller.ColumnKey(table: table, cid: i + firstCid)
            keptColumns.append(
                references.needed.contains(key)
                    ? try references.column(
                        bytes: length, rows: rows, copies: column.encoding != .reference, context: "\(context), column `\(name)`")
                    : nil)
            cursors.append(
                try PackedColumnCursor(
                    blob, from: from, to: layout.position, window: window, encoding: column.encoding, rows: rows, reference: reference,
                    context: "\(context), column `\(name)`"))
        }
        guard layout.atEnd else { throw .corrupt("\(context): \(blob.count - layout.position) bytes after its columns") }

        let insert: Statement
        do {
            let names = (hasRowid ? ["rowid"] : []) + names.map(SQLName.quoted)
            let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
            insert = try target.prepare("INSERT INTO \(quoted) (\(names.joined(separator: ", "))) VALUES (\(placeholders))")
        } catch {
            throw .corrupt("\(context): \(error)")
        }
        var row = Array(repeating: RawValue.null, count: cursors.count)
        for _ in 0..<rows {
            var bytes = 0
            for i in cursors.indices {
                row[i] = try cursors[i].next()
                switch row[i] {
                case .text(let value), .blob(let value): bytes += value.count
                default: break
                }
                guard bytes <= PackedLimits.rowBytes else {
                    throw .corrupt("\(context): a row of more than \(PackedLimits.rowBytes) bytes of TEXT and BLOB values")
                }
                try keptColumns[i]?.append(row[i])
            }
            try PackedBundleInstaller.sqlite(target, capped: maxBytes) { () throws(SQLiteError) in try insert.runBinding(raw: row) }
            for cursor in cursors { cursor.shrink() }
        }
        for cursor in cursors { try cursor.finish() }
        for i in columns.indices {
            if let column = keptColumns[i] { references.keep(PackedBundleInstaller.ColumnKey(table: table, cid: i + firstCid), column) }
        }
    }

    /// The table's `data`, opened to be read a window at a time (never loaded whole).
    private func blob() throws(PackedBundleError) -> BlobReader {
        do {
            guard try source.scalar("SELECT typeof(data) FROM packed_tables WHERE rowid = ?", [.integer(entry.rowid)])?.string == "blob" else {
                throw PackedBundleError.corrupt("\(context): its data is not a blob")
            }
            return try BlobReader(source, table: "packed_tables", column: "data", rowid: entry.rowid)
        } catch let error as PackedBundleError {
            throw error
        } catch {
            throw .corrupt("\(context): \(error)")
        }
    }

}
