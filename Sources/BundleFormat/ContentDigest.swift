import Crypto
import FeedSQLite
import Foundation

/// The content digest: SHA-256 over a bundle's schema and canonical rows.
///
/// It names its tables from the file itself, so a client on any platform recomputes it without
/// a list of tables (docs/update-protocol.md): first every schema object (type, name, SQL) in
/// order of type and name; then every content table — a table that is neither virtual nor the
/// shadow table of a virtual one — in order of name, its columns in declaration order and its
/// rows in primary-key order, each value encoded with a type tag and a length. `meta.version` is
/// left out, so the digest names the content, not the copy. Two bundles with the same digest
/// hold the same content, whatever their bytes on disk; a client checks it after applying a delta.
public enum ContentDigest {
    /// `sha256:` and 64 hex digits.
    public static func compute(_ database: Database) throws(SQLiteError) -> String {
        try run(database, content: true, tables: nil).content
    }

    /// The content digest and, beside it, a digest of each content table
    /// (``tableDigests(_:only:)``), in one pass over the rows.
    public static func computeWithTables(_ database: Database) throws(SQLiteError) -> (content: String, tables: [String: String]) {
        let digests = try run(database, content: true, tables: .all)
        return (digests.content, digests.tables)
    }

    /// A digest of each content table (of those in `only`, when given): 32 hex digits, the first
    /// half of SHA-256 over the bytes the content digest hashes for that table, its name and its
    /// rows, except that `meta` counts every row (the version too).
    ///
    /// Not part of the update protocol: the publisher keeps them in each version's report, so that
    /// a delta from an older version reads only the tables whose digests differ, and is checked by
    /// comparing the digests of only those tables after it is applied. Two versions whose tables
    /// all have the same digests and whose schemas are the same have the same content digest.
    public static func tableDigests(_ database: Database, only: Set<String>? = nil) throws(SQLiteError) -> [String: String] {
        try run(database, content: false, tables: only.map { .only($0) } ?? .all).tables
    }

    private enum TableSelection {
        case all
        case only(Set<String>)

        func contains(_ name: String) -> Bool {
            switch self {
            case .all: true
            case .only(let names): names.contains(name)
            }
        }
    }

    /// Rows are encoded into one buffer and hashed 64 KiB at a time: the same bytes in the same
    /// order as hashing row by row, without a call into the hash per row.
    private static func run(_ database: Database, content: Bool, tables: TableSelection?) throws(SQLiteError) -> (content: String, tables: [String: String]) {
        var hasher = SHA256()
        var tableHasher: SHA256?
        var buffer: [UInt8] = []
        buffer.reserveCapacity(flushBytes + 4096)
        func flush(intoContent: Bool = content) {
            guard !buffer.isEmpty else { return }
            if intoContent { hasher.update(data: buffer) }
            tableHasher?.update(data: buffer)
            buffer.removeAll(keepingCapacity: true)
        }
        if content {
            // The schema the file holds (tables, indexes, views), so a change of schema is a
            // change of content even when the rows are the same.
            let schema = try database.rows("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type, name")
            for row in schema {
                buffer.append(0x53)
                for value in row { encode(value, to: &buffer) }
            }
        }
        var digests: [String: String] = [:]
        for table in try contentTables(database) {
            let wanted = tables?.contains(table.name) == true
            guard content || wanted else { continue }
            flush()
            tableHasher = wanted ? SHA256() : nil
            append(table.name, tag: 0x54, to: &buffer)
            let statement = try database.prepare(table.selectInKeyOrderSQL)
            try statement.bind([])
            let isMeta = table.name == BundleSchema.meta.name
            // Values are hashed where SQLite holds them, text as its stored bytes, uncopied.
            while try statement.step() {
                // Meta keys outside the content digest (the version) still count in meta's own.
                let outside = isMeta && isKeyOutsideDigest(statement)
                if outside {
                    guard tableHasher != nil else { continue }
                    flush()
                }
                buffer.append(0x52)
                for column in table.columns.indices { encode(statement.rawValue(at: column), to: &buffer) }
                if outside {
                    flush(intoContent: false)
                } else if buffer.count >= flushBytes {
                    flush()
                }
            }
            flush()
            if wanted, let finished = tableHasher?.finalize() {
                digests[table.name] = hexString(finished.prefix(16))
            }
            tableHasher = nil
        }
        flush()
        return (content ? "sha256:" + hexString(hasher.finalize()) : "", digests)
    }

    private static let flushBytes = 1 << 16

    /// Whether the current `meta` row is one of ``BundleSchema/metaKeysOutsideDigest``.
    private static func isKeyOutsideDigest(_ statement: Statement) -> Bool {
        guard case .text(let key) = statement.rawValue(at: 0) else { return false }
        return BundleSchema.metaKeysOutsideDigest.contains(String(decoding: key, as: UTF8.self))
    }

    /// A content table as the file declares it: columns in order, primary key in key order.
    struct FileTable {
        var name: String
        var columns: [String]
        var key: [String]

        var selectInKeyOrderSQL: String {
            let order = key.isEmpty ? "rowid" : key.map(SQLName.quoted).joined(separator: ", ")
            return "SELECT \(columns.map(SQLName.quoted).joined(separator: ", ")) FROM \(SQLName.quoted(name)) ORDER BY \(order)"
        }

    }

    /// The content tables of the file, in order of name: tables that are not virtual and not the
    /// shadow tables (`<virtual table>_…`) of one.
    static func contentTables(_ database: Database) throws(SQLiteError) -> [FileTable] {
        let tables = try database.rows("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        let virtual = tables.compactMap { row in
            row[1].string.map { $0.uppercased().hasPrefix("CREATE VIRTUAL TABLE") } == true ? row[0].string : nil
        }
        var out: [FileTable] = []
        for row in tables {
            guard let name = row[0].string, !virtual.contains(name),
                !virtual.contains(where: { name.hasPrefix($0 + "_") })
            else { continue }
            let info = try database.rows("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", [.text(name)])
            let columns = info.compactMap { $0[0].string }
            let key = info.filter { ($0[1].int ?? 0) > 0 }.sorted { ($0[1].int ?? 0) < ($1[1].int ?? 0) }.compactMap { $0[0].string }
            out.append(FileTable(name: name, columns: columns, key: key))
        }
        return out
    }

    private static func encode(_ value: SQLValue, to buffer: inout [UInt8]) {
        switch value {
        case .null: buffer.append(0)
        case .integer(let v):
            buffer.append(1)
            withUnsafeBytes(of: v.littleEndian) { buffer.append(contentsOf: $0) }
        case .real(let v):
            buffer.append(2)
            withUnsafeBytes(of: v.bitPattern.littleEndian) { buffer.append(contentsOf: $0) }
        case .text(let v): append(v, tag: 3, to: &buffer)
        case .blob(let v):
            buffer.append(4)
            withUnsafeBytes(of: UInt64(v.count).littleEndian) { buffer.append(contentsOf: $0) }
            buffer.append(contentsOf: v)
        }
    }

    /// As `encode(_: SQLValue, …)`, from the bytes SQLite holds.
    private static func encode(_ value: RawValue, to buffer: inout [UInt8]) {
        switch value {
        case .null: encode(SQLValue.null, to: &buffer)
        case .integer(let v): encode(SQLValue.integer(v), to: &buffer)
        case .real(let v): encode(SQLValue.real(v), to: &buffer)
        case .text(let bytes), .blob(let bytes):
            if case .text = value { buffer.append(3) } else { buffer.append(4) }
            withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { buffer.append(contentsOf: $0) }
            buffer.append(contentsOf: bytes)
        }
    }

    private static func append(_ text: String, tag: UInt8, to buffer: inout [UInt8]) {
        buffer.append(tag)
        withUnsafeBytes(of: UInt64(text.utf8.count).littleEndian) { buffer.append(contentsOf: $0) }
        buffer.append(contentsOf: text.utf8)
    }
}

/// SHA-256 of bytes, as 64 hex digits: what the manifest lists for each file.
public func sha256Hex(_ bytes: some DataProtocol) -> String {
    hexString(SHA256.hash(data: bytes))
}

/// SHA-256 of the file at `url`, read 1 MiB at a time (a bundle of any size in bounded memory).
public func sha256Hex(ofFile url: URL) throws -> String {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    var hasher = SHA256()
    while let piece = try handle.read(upToCount: 1 << 20), !piece.isEmpty { hasher.update(data: piece) }
    return hexString(hasher.finalize())
}
