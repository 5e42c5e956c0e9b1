import FeedSQLite

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

    /// Takes column `index`'s bytes out, leaving none (the writer frees each once copied).
    mutating func takeData(_ index: Int) -> [UInt8] {
        defer { columns[index].data = [] }
        return columns[index].data
    }
    private(set) var rows = 0
    /// The table's single-column text primary key, when it has one.
    private(set) var keys: [PackedKeyColumn] = []

    /// A row holds more TEXT and BLOB bytes than ``PackedLimits/rowBytes``: the bundle gets no packed form.
    struct RowTooLarge: Error {}

    init(bundle: Database, name: String, keys earlier: [PackedKeyColumn]) throws {
        let quoted = SQLName.quoted(name)
        let info = try bundle.rows("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", [.text(name)])
        let names = info.map { $0[0].string ?? "" }
        let primaryKey = info.filter { ($0[1].int ?? 0) > 0 }.sorted { ($0[1].int ?? 0) < ($1[1].int ?? 0) }.map { $0[0].string ?? "" }
        let hasRowid = (try? bundle.prepare("SELECT rowid FROM \(quoted) LIMIT 0")) != nil
        let selected = (hasRowid ? ["rowid"] : []) + names.map(SQLName.quoted)
        let order = hasRowid ? "rowid" : primaryKey.map(SQLName.quoted).joined(separator: ", ")
        let query = try bundle.prepare("SELECT \(selected.joined(separator: ", ")) FROM \(quoted) ORDER BY \(order)")
        let firstCid = hasRowid ? -1 : 0
        var encoders = selected.indices.map { i in
            PackedColumnEncoder(name: i + firstCid < 0 ? "rowid" : names[i + firstCid], keys: i + firstCid < 0 ? [] : earlier)
        }
        // A single-column text key: its values' row positions, gathered in the same pass, for
        // the `k` columns of later tables.
        let keyIndex = primaryKey.count == 1 ? names.firstIndex(of: primaryKey[0]).map { $0 - firstCid } : nil
        let positions = KeyPositions()
        var textKey = keyIndex != nil
        while try query.step() {
            rows += 1
            var bytes = 0
            for i in encoders.indices {
                let value = query.rawValue(at: i)
                encoders[i].survey(value)
                switch value {
                case .text(let raw), .blob(let raw): bytes += raw.count
                default: break
                }
            }
            guard bytes <= PackedLimits.rowBytes else { throw RowTooLarge() }
            if textKey, let keyIndex {
                if case .text(let text) = query.rawValue(at: keyIndex) { textKey = positions.append(text) } else { textKey = false }
            }
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
        if textKey, let keyIndex, positions.count == rows {
            keys = [PackedKeyColumn(table: name, cid: keyIndex + firstCid, name: primaryKey[0], positions: positions)]
        }
    }
}
