package org.feedc.client;

import java.sql.SQLException;

/// Opens SQLite databases for the update: `JdbcSqlDatabase.DRIVER` on a JVM, an adapter of
/// `SQLiteDatabase.openDatabase` on Android (clients/jvm/README.md).
@FunctionalInterface
public interface SqlDriver {
    /// Opens the database file at `path`: read-only (never created), or read-write (created
    /// when missing), with a busy timeout of 5 seconds.
    SqlDatabase open(String path, boolean readOnly) throws SQLException;

    /// Whether the databases it opens limit their work (`SqlDatabase.limitWork` returns true):
    /// only then is a version's packed encoding taken (docs/packed-bundle.md), whose install runs
    /// the file's SQL under that limit; else the plain bundle is downloaded. False unless the
    /// driver says so: `JdbcSqlDatabase.DRIVER` does; Android's `SQLiteDatabase` cannot.
    default boolean supportsWorkLimit() {
        return false;
    }

    /// Whether the databases it opens refuse SQL functions on request (`SqlDatabase.denyFunctions`
    /// returns true): the packed install needs it as it needs the work limit. False unless the
    /// driver says so: `JdbcSqlDatabase.DRIVER` does; Android's `SQLiteDatabase` cannot.
    default boolean supportsFunctionDenial() {
        return false;
    }
}
