import FeedSQLite

/// Why a delta could not be applied. The database is left exactly as it was.
public enum DeltaError: Error, Sendable, CustomStringConvertible {
    case notADelta
    case sql(SQLiteError)
    case digestMismatch(expected: String, found: String)
    /// `beforeCommit` gave up (the caller's task was cancelled); rolled back.
    case cancelled

    public var description: String {
        switch self {
        case .notADelta: "not a feedc delta"
        case .sql(let error): "the delta did not apply: \(error)"
        case .digestMismatch(let expected, let found): "after applying, the content digest is \(found), not \(expected): the local database was not the delta's base"
        case .cancelled: "cancelled before the commit; rolled back"
        }
    }
}

/// Applies a delta with plain SQL, in one transaction: its statements, then the optional virtual
/// tables (R-tree, FTS5) brought up to date where the bundle has them, then the content digest
/// checked. A default bundle has none, so any SQLite applies its deltas. The delta's own
/// statements may only insert, update or delete rows of the bundle's tables. Only a database whose
/// digest then equals `expectedDigest` is committed; anything else is rolled back.
public enum DeltaApplier {
    /// `beforeCommit` runs last, with everything applied and checked but not committed: throwing
    /// from it rolls the transaction back (a client whose task was cancelled).
    public static func apply(_ sql: String, to database: Database, expectedDigest: String,
                             beforeCommit: () throws(DeltaError) -> Void = {}) throws(DeltaError) {
        guard sql.hasPrefix("-- feedc delta format 1\n") else { throw .notADelta }
        do {
            try database.execute("BEGIN IMMEDIATE")
        } catch {
            throw .sql(error)
        }
        do {
            // The delta may only change rows of the bundle's own tables: a COMMIT, ATTACH or
            // PRAGMA in it is refused, so the transaction stays whole.
            try database.restrictingWrites(to: Set(BundleSchema.tables.map(\.name))) { try database.execute(sql) }
            // The optional virtual tables (R-tree, FTS5), where the bundle has them, follow `stops`.
            for statement in try SQLiteModules.present(in: database).rebuild { try database.execute(statement) }
            let digest = try ContentDigest.compute(database)
            guard digest == expectedDigest else {
                try? database.execute("ROLLBACK")
                throw DeltaError.digestMismatch(expected: expectedDigest, found: digest)
            }
            do {
                try beforeCommit()
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
            try database.execute("COMMIT")
        } catch let error as DeltaError {
            throw error
        } catch let error as SQLiteError {
            try? database.execute("ROLLBACK")
            throw .sql(error)
        } catch {
            try? database.execute("ROLLBACK")
            throw .sql(SQLiteError(code: -1, message: "\(error)"))
        }
    }
}
