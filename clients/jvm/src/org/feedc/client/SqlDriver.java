package org.feedc.client;

import java.sql.SQLException;

/// Opens SQLite databases for the update: `JdbcSqlDatabase::open` on a JVM, an adapter of
/// `SQLiteDatabase.openDatabase` on Android (clients/jvm/README.md).
@FunctionalInterface
public interface SqlDriver {
    /// Opens the database file at `path`: read-only (never created), or read-write (created
    /// when missing), with a busy timeout of 5 seconds.
    SqlDatabase open(String path, boolean readOnly) throws SQLException;
}
