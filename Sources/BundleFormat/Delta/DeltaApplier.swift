import FeedSQLite

/// Why a delta could not be applied. The database is left exactly as it was.
public enum DeltaError: Error, Sendable, CustomStringConvertible {
    case notADelta
    case sql(SQLiteError)
    case digestMismatch(expected: String, found: String)
    /// A statement is not of the shape the writer emits (``DeltaStatementCheck``); nothing ran.
    case refused(DeltaStatementCheck.Refusal)
    /// After applying, `meta.version` is not the version the manifest names; rolled back.
    case wrongVersion(expected: Int, found: String?)
    /// `beforeCommit` gave up (the caller's task was cancelled); rolled back.
    case cancelled
    /// The gzipped delta could not be unpacked within its limits, or what it unpacks to is no
    /// delta's text (``DeltaApplier/unpack(_:limit:exact:)``).
    case unpacking(String)
    /// The statements took more than their budget of SQLite instructions; rolled back.
    case overBudget(instructions: Int)

    /// The reason, in one line.
    public var description: String {
        switch self {
        case .notADelta: "not a feedc delta"
        case .sql(let error): "the delta did not apply: \(error)"
        case .digestMismatch(let expected, let found):
            "after applying, the content digest is \(found), not \(expected): the local database was not the delta's base"
        case .refused(let refusal): "refused before it ran: \(refusal)"
        case .wrongVersion(let expected, let found): "after applying, meta.version is \(found ?? "missing"), not \(expected): refused"
        case .cancelled: "cancelled before the commit; rolled back"
        case .unpacking(let reason): reason
        case .overBudget(let instructions): "the delta did not apply: it ran past its budget of \(instructions) SQLite instructions; rolled back"
        }
    }
}

/// Applies a delta with plain SQL, in one transaction: its statements, then the optional virtual
/// tables (R-tree, FTS5) brought up to date where the bundle has them, then the content digest
/// checked. A default bundle has none, so any SQLite applies its deltas. The delta's own
/// statements may only insert, update or delete rows of the database's content tables (those the
/// content digest reads, with the columns the file gives them: docs/update-protocol.md). Only a
/// database whose digest then equals `expectedDigest` is committed; anything else is rolled back.
public enum DeltaApplier {
    /// The first line of every delta.
    public static let headerLine = "-- feedc delta format 1\n"

    /// A delta's SQL from its gzipped bytes (docs/update-protocol.md, step 5): one gzip member
    /// inflated as a stream to at most `limit` bytes (exactly `exact` when the manifest gives
    /// it), refused as soon as its first bytes are not the header line or any byte is NUL, so a
    /// bomb of zeros stops at its first block; and UTF-8.
    public static func unpack(_ gzipped: [UInt8], limit: Int, exact: Int? = nil) throws(DeltaError) -> String {
        let header = Array(headerLine.utf8)
        var sql: [UInt8] = []
        sql.reserveCapacity(min(limit, exact ?? 1 << 20))
        var refusal: DeltaError?
        do throws(GzipError) {
            let inflater = try GzipInflater(limit: limit)
            try gzipped.withUnsafeBytes { bytes in
                Result { () throws(GzipError) in
                    try inflater.feed(bytes, last: true) { (piece) throws(GzipError) in
                        if piece.contains(0) {
                            refusal = .unpacking("the delta holds a NUL byte")
                        } else {
                            sql.append(contentsOf: piece)
                            if !header.starts(with: sql.prefix(header.count)) { refusal = .notADelta }
                        }
                        // Stops the inflation at once; `refusal` says why.
                        if refusal != nil { throw GzipError.corrupt("refused") }
                    }
                }
            }.get()
        } catch {
            throw refusal ?? .unpacking(error.description)
        }
        guard sql.count >= header.count else { throw .notADelta }
        if let exact, sql.count != exact { throw .unpacking("unpacks to \(sql.count) bytes, the manifest says \(exact)") }
        guard let text = String(validating: sql, as: UTF8.self) else { throw .unpacking("the delta is not UTF-8") }
        return text
    }

    /// `beforeCommit` runs last, with everything applied and checked but not committed: throwing
    /// from it rolls the transaction back (a client whose task was cancelled).
    /// `expectedVersion`: the version the manifest names; `meta.version` must hold it after the
    /// delta, or everything is rolled back (the digest leaves the version out, so a delta could
    /// otherwise set any version, and a client that holds version 999999 never updates again).
    /// `progress` hears the statements run of all the delta's, about a hundred times in all.
    public static func apply(
        _ sql: String, to database: Database, expectedDigest: String, expectedVersion: Int? = nil,
        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in },
        beforeCommit: () throws(DeltaError) -> Void = {}
    ) throws(DeltaError) {
        try inTransaction(sql, on: database, writing: nil, progress: progress) { () throws(DeltaError) in
            // The optional virtual tables (R-tree, FTS5), where the bundle has them, follow `stops`.
            do {
                for statement in try SQLiteModules.present(in: database).rebuild { try database.execute(statement) }
                let digest = try ContentDigest.compute(database)
                guard digest == expectedDigest else { throw DeltaError.digestMismatch(expected: expectedDigest, found: digest) }
                if let expectedVersion {
                    let found = try database.scalar("SELECT value FROM meta WHERE key = 'version'")?.string
                    guard found == String(expectedVersion) else { throw DeltaError.wrongVersion(expected: expectedVersion, found: found) }
                }
            } catch let error as SQLiteError {
                throw .sql(error)
            } catch let error as DeltaError {
                throw error
            } catch {
                throw .sql(SQLiteError(code: -1, message: "\(error)"))
            }
            try beforeCommit()
        }
    }

    /// The publisher's check of a delta it wrote, on a throwaway copy of the older version: the
    /// delta's statements run as in ``apply(_:to:expectedDigest:beforeCommit:)``, but may write
    /// only `tables` (those whose digests differ between the two versions), and only their
    /// digests are computed and compared with `expected`, the newer version's. The other tables
    /// were left as they were and already had the newer version's digests, so this passes exactly
    /// when the content digest would, reading only the tables that changed. The optional virtual
    /// tables are not rebuilt here (they are outside the digest; their fixed rebuild statements
    /// are the client's, tested on their own). Always rolled back.
    public static func check(
        _ sql: String, on database: Database, writing tables: Set<String>,
        expected: [String: String]
    ) throws(DeltaError) {
        try inTransaction(sql, on: database, writing: tables, commit: false) { () throws(DeltaError) in
            let found: [String: String]
            do throws(SQLiteError) {
                found = try ContentDigest.tableDigests(database, only: tables)
            } catch {
                throw .sql(error)
            }
            for table in tables.sorted() where found[table] != expected[table] {
                throw .digestMismatch(expected: "table \(table) \(expected[table] ?? "absent")", found: found[table] ?? "absent")
            }
        }
    }

    /// Runs `sql` in one transaction that may write only `tables` (nil: every content table of the
    /// database), then `verify`; commits when `verify` returns and `commit` is set, rolls back
    /// otherwise and whenever anything throws.
    private static func inTransaction(
        _ sql: String, on database: Database, writing only: Set<String>?, commit: Bool = true,
        progress: (Int, Int) -> Void = { _, _ in },
        verify: () throws(DeltaError) -> Void
    ) throws(DeltaError) {
        guard sql.hasPrefix(headerLine) else { throw .notADelta }
        let columns: [String: Set<String>]
        do {
            let content = try ContentDigest.contentTables(database).filter { only?.contains($0.name) ?? true }
            columns = Dictionary(content.map { ($0.name, Set($0.columns)) }) { first, _ in first }
        } catch {
            throw .sql(error)
        }
        let tables = Set(columns.keys)
        let total: Int
        do {
            total = try DeltaStatementCheck.check(sql, columns: columns)
        } catch {
            throw .refused(error)
        }
        do {
            try database.execute("BEGIN IMMEDIATE")
        } catch {
            throw .sql(error)
        }
        do {
            // The delta may only change rows of the bundle's own tables: a COMMIT, ATTACH or
            // PRAGMA in it is refused, so the transaction stays whole.
            try database.restrictingWrites(to: tables) {
                try database.limitingInstructions(to: instructionBudget(sql)) {
                    let every = max(1, total / 100)
                    progress(0, total)
                    try database.execute(sql) { done in
                        if done % every == 0 || done == total { progress(done, total) }
                    }
                }
            }
        } catch {
            try? database.execute("ROLLBACK")
            // SQLITE_INTERRUPT: the progress handler stopped it.
            if (error as? SQLiteError)?.resultCode == .interrupt { throw .overBudget(instructions: instructionBudget(sql)) }
            throw .sql(error as? SQLiteError ?? SQLiteError(code: -1, message: "\(error)"))
        }
        do {
            try verify()
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
        do {
            try database.execute(commit ? "COMMIT" : "ROLLBACK")
        } catch {
            try? database.execute("ROLLBACK")
            throw .sql(error)
        }
    }

    /// The virtual-machine instructions a delta's statements may take: 1,000 per byte of SQL, at
    /// least 10 million. A writer's delta needs a few per byte (measured: ~20 on a Wichita delta
    /// that rewrites every table); a statement of another shape that slipped past the check is
    /// stopped within seconds (docs/update-protocol.md).
    public static func instructionBudget(_ sql: String) -> Int {
        max(10_000_000, 1000 * sql.utf8.count)
    }
}
