import FeedSQLite

/// Writes a bundle's packed form (docs/packed-bundle.md): the same schema and rows, column by
/// column, each column one blob coded for gzip, in a SQLite file. Deterministic: the same bundle
/// gives the same bytes.
package enum PackedBundleWriter {
    /// The `packed_meta.format` this writer writes and the installer reads.
    package static let format = "1"
    /// The packed file's own schema.
    static let schema = """
        PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA user_version = 1;
        CREATE TABLE packed_meta (key TEXT NOT NULL, value TEXT NOT NULL);
        CREATE TABLE packed_schema (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, name TEXT NOT NULL, sql TEXT NOT NULL);
        CREATE TABLE packed_tables (name TEXT NOT NULL, rows INTEGER NOT NULL, encodings TEXT NOT NULL, data BLOB NOT NULL);
        """

    /// Packs the bundle at `source` into a new file at `destination` (which must not exist).
    /// Returns false, writing nothing, for a bundle the packed form does not carry: one with
    /// virtual tables (`sqlite_modules`) or triggers.
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
            for (seq, object) in objects.enumerated() {
                try schemaRow.run([.integer(Int64(seq)), object[0], object[1], object[2]])
                guard object[0].string == "table", let table = object[1].string else { continue }
                let packedTable = try PackedTable(bundle: bundle, name: table, keys: keys)
                var data = PackedBytesWriter()
                for column in packedTable.columns {
                    data.varint(UInt64(column.data.count))
                    column.data.withUnsafeBytes { data.append($0) }
                }
                let encodings = packedTable.columns.map { column in
                    column.key.map { "\(column.encoding.name)=\($0.table).\($0.cid)" } ?? column.encoding.name
                }
                try tableRow.run([.text(table), .integer(Int64(packedTable.rows)), .text(encodings.joined(separator: " ")), .blob(data.bytes)])
                keys += packedTable.keys
            }
            try packed.execute("COMMIT")
            return true
        } catch let error as SQLiteError {
            throw .local(path: destination, reason: "cannot pack \(source): \(error.message)")
        } catch let error as PackedBundleError {
            throw error
        } catch {
            throw .local(path: destination, reason: "\(error)")
        }
    }
}

/// One table of a bundle, packed: each column's encoding and blob, and the text keys later
/// tables may refer to.
struct PackedTable {
    struct Column {
        var cid: Int
        var encoding: PackedEncoding
        var key: PackedKeyColumn?
        var data: [UInt8]
    }

    private(set) var columns: [Column] = []
    private(set) var rows = 0
    /// The table's single-column text primary key, when it has one.
    private(set) var keys: [PackedKeyColumn] = []

    init(bundle: Database, name: String, keys earlier: [PackedKeyColumn]) throws {
        let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let info = try bundle.rows("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", [.text(name)])
        let names = info.map { $0[0].string ?? "" }
        let primaryKey = info.filter { ($0[1].int ?? 0) > 0 }.sorted { ($0[1].int ?? 0) < ($1[1].int ?? 0) }.map { $0[0].string ?? "" }
        let hasRowid = (try? bundle.prepare("SELECT rowid FROM \(quoted) LIMIT 0")) != nil
        let selected = (hasRowid ? ["rowid"] : []) + names.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        let order = hasRowid ? "rowid" : primaryKey.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ", ")
        let query = try bundle.prepare("SELECT \(selected.joined(separator: ", ")) FROM \(quoted) ORDER BY \(order)")
        let firstCid = hasRowid ? -1 : 0
        var encoders = selected.indices.map { i in
            PackedColumnEncoder(name: i + firstCid < 0 ? "rowid" : names[i + firstCid], keys: i + firstCid < 0 ? [] : earlier)
        }
        while try query.step() {
            rows += 1
            for i in encoders.indices { encoders[i].survey(query.rawValue(at: i)) }
        }
        for i in encoders.indices { encoders[i].choose() }
        var pending = Array(encoders.indices)
        while !pending.isEmpty {
            try query.bind([])
            var refused = Set<Int>()
            while try query.step() {
                for i in pending where !refused.contains(i) && !encoders[i].append(query.rawValue(at: i)) { refused.insert(i) }
            }
            for i in refused { encoders[i].restartAsReals() }
            pending = refused.sorted()
        }
        columns = encoders.enumerated().map { i, encoder in
            Column(cid: i + firstCid, encoding: encoder.encoding, key: encoder.key, data: encoder.data())
        }
        if primaryKey.count == 1, let cid = names.firstIndex(of: primaryKey[0]) {
            try query.bind([])
            var positions: [[UInt8]: Int64] = [:]
            var texts = true
            while texts, try query.step() {
                if case .text(let text) = query.rawValue(at: cid - firstCid) {
                    positions[[UInt8](text)] = Int64(positions.count)
                } else {
                    texts = false
                }
            }
            if texts && positions.count == rows { keys = [PackedKeyColumn(table: name, cid: cid, name: primaryKey[0], positions: positions)] }
        }
    }
}
