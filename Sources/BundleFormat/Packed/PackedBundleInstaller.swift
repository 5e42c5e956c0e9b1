import FeedSQLite
import Foundation

/// Installs a packed bundle (docs/packed-bundle.md, "Installing"): from the packed file, a new
/// database with the bundle's schema, rows and rowids, its indexes and view. Nothing in the
/// packed file runs but `CREATE TABLE`, `CREATE [UNIQUE] INDEX` and `CREATE VIEW` statements,
/// and the caller then checks the result as a downloaded bundle (``InstalledBundleCheck``, the
/// content digest).
package enum PackedBundleInstaller {
    /// Installs the packed file at `packed` into a new database at `destination` (a file that
    /// must not exist yet), at most `maxBytes` large when given; `unpackedBytes` (the manifest's
    /// size of the plain bundle) bounds the work with the rows the file declares.
    package static func install(
        packedAt packed: String, to destination: String, maxBytes: Int? = nil, unpackedBytes: Int? = nil
    ) throws(PackedBundleError) {
        try checkJournalMode(packed)
        let source: Database
        let schema: [[SQLValue]]
        let entries: [TableEntry]
        let userVersion: Int
        do {
            source = try Database(path: packed)
            // The file's own schema first: a `packed_meta` that is a view over an endless query
            // must never be read.
            let own = try source.rows("SELECT type, name, sql FROM sqlite_master ORDER BY name")
            guard own == PackedBundleWriter.tables.map({ [.text("table"), .text($0.name), .text($0.sql)] }) else {
                throw PackedBundleError.corrupt("the packed file's own schema is not the packed format's")
            }
            // By key, values of at most 64 bytes: a junk row of another key is never loaded, and a
            // huge value is refused rather than read.
            func value(_ key: String) throws(PackedBundleError) -> String {
                let rows: [[SQLValue]]
                do {
                    rows = try source.limitingLength(to: 64) { try source.rows("SELECT value FROM packed_meta WHERE key = ?", [.text(key)]) }
                } catch let error as SQLiteError where error.resultCode == .tooBig {
                    throw .corrupt("packed_meta.\(key): a key or value longer than 64 bytes")
                } catch {
                    throw .corrupt("\(error)")
                }
                guard rows.count == 1, let text = rows[0][0].string else { throw .corrupt("packed_meta.\(key) is \(rows.count) rows") }
                return text
            }
            let format = try value("format")
            guard format == PackedBundleWriter.format else {
                throw PackedBundleError.corrupt("packed format \(format), this client reads \(PackedBundleWriter.format)")
            }
            let version = try value("user_version")
            guard (1...9).contains(version.utf8.count), version.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(version) else {
                throw PackedBundleError.corrupt("packed_meta.user_version is not a number")
            }
            userVersion = number
            // The schema and the tables' words with values of at most 1 MiB, refused rather than
            // loaded: 10 M words of `encodings` once took minutes and hundreds of MB to refuse.
            func limited(_ table: String, _ sql: String) throws(PackedBundleError) -> [[SQLValue]] {
                do {
                    return try source.limitingLength(to: Int32(PackedLimits.metadataBytes)) { try source.rows(sql) }
                } catch let error as SQLiteError where error.resultCode == .tooBig {
                    throw .corrupt("\(table): a value longer than \(PackedLimits.metadataBytes) bytes")
                } catch {
                    throw .corrupt("\(error)")
                }
            }
            schema = try limited("packed_schema", "SELECT type, name, sql FROM packed_schema ORDER BY seq")
            // `data` is left out: its length is asked for alone, without the limit (which it would pass).
            entries = try limited("packed_tables", "SELECT rowid, name, rows, encodings FROM packed_tables ORDER BY rowid").map { row in
                TableEntry(row, length: try source.scalar("SELECT length(data) FROM packed_tables WHERE rowid = ?", [row[0]])?.int ?? 0)
            }
        } catch let error as PackedBundleError {
            throw error
        } catch {
            throw .corrupt("\(error)")
        }
        for row in schema { try checkStatement(type: row[0].string, sql: row[2].string) }
        let tables = schema.filter { $0[0].string == "table" }.map { $0[1].string ?? "" }
        guard entries.map(\.name) == tables else {
            throw .corrupt("packed_tables holds \(entries.map(\.name).joined(separator: ", ")); packed_schema creates \(tables.joined(separator: ", "))")
        }
        // No table's data may be larger than the installed file may grow: checked before it is read.
        if let maxBytes, let large = entries.first(where: { $0.length > maxBytes }) {
            throw .corrupt("table \(large.name): \(large.length) bytes of data, more than the installed bundle's cap of \(maxBytes)")
        }

        let target: Database
        do {
            target = try Database(path: destination, mode: .create)
            try target.execute("PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA user_version = \(userVersion)")
            if let maxBytes { try target.execute("PRAGMA max_page_count = \(max(1, maxBytes / 4096))") }
        } catch {
            throw .local(path: destination, reason: "\(error)")
        }
        // A bound on the work SQL from the file may cause (a `CREATE TABLE … AS SELECT` over a
        // cross join, an expression index), from what the file declares and the manifest's size,
        // never from the file's own size (padding buys nothing): real bundles take about 6
        // instructions a value and 0.6 a plain byte.
        let budget = Self.budget(entries, unpackedBytes: unpackedBytes)
        do {
            try target.limitingInstructions(to: budget) {
                // No function runs while tables fill and indexes build (a CHECK or an indexed
                // expression calling one would run on every row); the view is only stored.
                try target.denyingFunctions { try fill(target) }
                try run(schema.filter { $0[0].string == "view" }, on: target, capped: maxBytes)
            }
        } catch let error as PackedBundleError {
            throw error
        } catch {
            throw .corrupt("\(error)")
        }

        func fill(_ target: Database) throws {
            try run(schema.filter { $0[0].string == "table" }, on: target, capped: maxBytes)
            try sqlite(target, capped: maxBytes) { () throws(SQLiteError) in try target.execute("BEGIN") }
            var needed = Set<ColumnKey>()
            for entry in entries { needed.formUnion(try entry.columns().compactMap(\.reference)) }
            var references = ReferencedColumns(needed: needed)
            for entry in entries {
                try PackedTableInstall(entry: entry, source: source, target: target, maxBytes: maxBytes).run(references: &references)
            }
            try sqlite(target, capped: maxBytes) { () throws(SQLiteError) in try target.execute("COMMIT") }
            try run(schema.filter { $0[0].string == "index" }, on: target, capped: maxBytes)
        }
    }

    /// max(10,000,000, min(100 × the values the tables declare, 10 × the plain bundle's bytes)).
    static func budget(_ entries: [TableEntry], unpackedBytes: Int?) -> Int {
        let declared = entries.reduce(0) { sum, entry in
            let columns = entry.encodings.split(separator: " ", omittingEmptySubsequences: false).count
            return min(sum + min(max(entry.rows, 0), 1 << 32) * columns, 1 << 40)
        }
        return max(10_000_000, min(100 * declared, unpackedBytes.map { 10 * min(max($0, 0), 1 << 40) } ?? Int.max))
    }

    /// Refuses a file whose SQLite header is not in rollback-journal mode (bytes 18–19 are 1, 1):
    /// in WAL mode (2, 2) even a read-only connection makes `-wal` and `-shm` files beside it.
    private static func checkJournalMode(_ path: String) throws(PackedBundleError) {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .corrupt("the packed file cannot be read") }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 20)) ?? Data())
        guard header.count == 20, header.starts(with: Array("SQLite format 3\0".utf8)) else { throw .corrupt("the packed file is not a SQLite file") }
        guard header[18] == 1, header[19] == 1 else {
            throw .corrupt("the packed file is not in rollback-journal mode (header bytes 18-19 are \(header[18]), \(header[19]), not 1, 1)")
        }
    }

    /// One row of `packed_tables`, its blob left in the file.
    struct TableEntry {
        var rowid: Int64
        var name: String
        var rows: Int
        var encodings: String
        var length: Int

        /// `row`: rowid, name, rows, encodings; `length`: the length of its `data`.
        init(_ row: [SQLValue], length: Int) {
            rowid = Int64(row[0].int ?? 0)
            name = row[1].string ?? ""
            rows = row[2].int ?? -1
            encodings = row[3].string ?? ""
            self.length = length
        }

        /// Each column's encoding and, for `k`, the column it refers to.
        func columns() throws(PackedBundleError) -> [(encoding: PackedEncoding, reference: ColumnKey?)] {
            try encodings.split(separator: " ", omittingEmptySubsequences: false).map { word throws(PackedBundleError) in
                // `k=<table>.<cid>`: a name without a dot or space, then -1, 0 or a number without a sign or a leading 0.
                if let match = word.wholeMatch(of: /k=([^ .]+)\.(-1|0|[1-9][0-9]{0,8})/), let cid = Int(match.2) {
                    return (.reference, ColumnKey(table: String(match.1), cid: cid))
                }
                guard let encoding = PackedEncoding(name: String(word)), encoding != .reference else {
                    throw .corrupt("table `\(name)`: unknown encoding `\(word.prefix(40))`")
                }
                return (encoding, nil)
            }
        }
    }

    /// A column of a table (cid −1: the rowid).
    struct ColumnKey: Hashable {
        var table: String
        var cid: Int
    }

    private static let allowed = ["table": ["CREATE TABLE "], "index": ["CREATE INDEX ", "CREATE UNIQUE INDEX "], "view": ["CREATE VIEW "]]

    /// Refuses anything but tables, indexes and views, whatever the row's type says.
    private static func checkStatement(type: String?, sql: String?) throws(PackedBundleError) {
        guard let type, let sql, let prefixes = allowed[type] else {
            throw .corrupt("packed_schema holds a `\(type ?? "NULL")`: only tables, indexes and views are installed")
        }
        guard prefixes.contains(where: { sql.hasPrefix($0) }) else {
            throw .corrupt("packed_schema: a \(type) whose SQL is not `\(prefixes[0])…`: \(sql.prefix(60))")
        }
    }

    /// Runs each statement alone (a statement's text after its first `;` is never run). A full
    /// disk is the device's failure; any other the file's.
    private static func run(_ rows: [[SQLValue]], on target: Database, capped maxBytes: Int?) throws(PackedBundleError) {
        for row in rows {
            do throws(PackedBundleError) {
                try sqlite(target, capped: maxBytes) { () throws(SQLiteError) in
                    let statement = try target.prepare(row[2].string ?? "")
                    while try statement.step() {}
                }
                // Exactly the statement given, nothing after it, made what its row says.
                // (No `count(*)`: functions are refused while the tables are made.)
                let made = try? target.rows("SELECT 1 FROM sqlite_master WHERE type = ? AND name = ? AND sql = ?", [row[0], row[1], row[2]])
                guard made?.count == 1 else { throw .corrupt("not exactly one statement creating it") }
            } catch .corrupt(let reason) {
                throw .corrupt("packed_schema: `\(row[1].string ?? "")`: \(reason)")
            }
        }
    }

    /// Runs `body`, mapping SQLite's failures: the size cap reached is the download's fault, a
    /// full disk or an I/O error the device's.
    static func sqlite(_ target: Database, capped maxBytes: Int?, _ body: () throws(SQLiteError) -> Void) throws(PackedBundleError) {
        do {
            try body()
        } catch {
            // SQLITE_FULL rolls the transaction back, so the pages it had are not there to count:
            // with room left on the disk, the cap is what was reached.
            if error.resultCode == .full, let maxBytes, freeSpace(beside: target.path) > Int64(maxBytes) {
                throw .corrupt("the installed database would be larger than \(maxBytes) bytes")
            }
            if error.isStorageFailure { throw .local(path: target.path, reason: error.message) }
            if error.resultCode == .interrupt {
                throw .corrupt("the install needs more SQLite instructions than its budget (docs/packed-bundle.md, Installing)")
            }
            throw .corrupt(error.message)
        }
    }

    private static func freeSpace(beside path: String) -> Int64 {
        let folder = (path as NSString).deletingLastPathComponent
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: folder.isEmpty ? "." : folder)
        return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value ?? 0
    }
}
