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

        let data = try blob()
        var reader = PackedBytesReader(data.bytes, context: context)
        var cursors: [PackedColumnCursor] = []
        for (i, column) in columns.enumerated() {
            let name = i + firstCid < 0 ? "rowid" : names[i + firstCid]
            var reference: [RawValue] = []
            if let key = column.reference {
                guard let values = references.values[key] else {
                    throw .corrupt("\(context), column `\(name)`: refers to \(key.table).\(key.cid), not a column installed before it")
                }
                reference = values
            }
            let bytes = try reader.slice(try reader.count(atMost: data.count))
            cursors.append(try PackedColumnCursor(bytes, encoding: column.encoding, rows: rows, reference: reference, context: "\(context), column `\(name)`"))
        }
        guard reader.atEnd else { throw .corrupt("\(context): \(data.count - reader.offset) bytes after its columns") }
        let kept = columns.indices.map { references.needed.contains(PackedBundleInstaller.ColumnKey(table: table, cid: $0 + firstCid)) }
        var keptValues = kept.map { _ in [RawValue]() }

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
            for i in cursors.indices {
                row[i] = try cursors[i].next()
                if kept[i] { keptValues[i].append(row[i]) }
            }
            try PackedBundleInstaller.sqlite(target, capped: maxBytes) { () throws(SQLiteError) in try insert.runBinding(raw: row) }
        }
        for cursor in cursors { try cursor.finish() }
        for i in columns.indices where kept[i] {
            references.keep(PackedBundleInstaller.ColumnKey(table: table, cid: i + firstCid), keptValues[i], bytes: data)
        }
        withExtendedLifetime(data) {}
    }

    private func blob() throws(PackedBundleError) -> OwnedBytes {
        do {
            let query = try source.prepare("SELECT data FROM packed_tables WHERE rowid = ?")
            try query.bind([.integer(entry.rowid)])
            guard try query.step(), case .blob(let bytes) = query.rawValue(at: 0) else {
                throw PackedBundleError.corrupt("\(context): its data is not a blob")
            }
            return OwnedBytes(bytes)
        } catch let error as PackedBundleError {
            throw error
        } catch {
            throw .corrupt("\(context): \(error)")
        }
    }

}
