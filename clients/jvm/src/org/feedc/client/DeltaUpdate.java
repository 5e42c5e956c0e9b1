package org.feedc.client;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/// A delta of the update protocol (docs/update-protocol.md, steps 5 and "Applying a delta"; the
/// Python client's feedc_delta.py and `apply_delta`): fetched within the size the manifest
/// lists, SHA-256 checked, unpacked within its limits (one gzip member, no NUL, the header
/// first), its statements checked, then applied one by one in one transaction within a budget
/// of work, committed only when the database is the manifest's version with its content digest.
public final class DeltaUpdate {
    /// The first line of every delta.
    public static final String HEADER = "-- feedc delta format 1\n";
    /// SQLite instructions a delta may run: at least this many, and this many per byte of SQL.
    public static final long BUDGET_MIN = 10_000_000L;
    public static final long BUDGET_PER_BYTE = 1_000L;
    /// The largest body held in memory (a Java array); a real delta is far smaller (its SQL is
    /// at most 128 MiB).
    private static final long MEMORY_MAX = Integer.MAX_VALUE - 64;
    private static final byte[] HEADER_BYTES = HEADER.getBytes(StandardCharsets.UTF_8);

    private DeltaUpdate() {
    }

    /// Brings `database` to the manifest's `latest` version of `bundle` with the manifest entry
    /// `delta`; an exception (UpdateException, SQLException, IOException) when it did not, the
    /// database then unchanged.
    public static void apply(Http http, String manifestUrl, String database, SqlDriver driver, ManifestEntry delta,
                             ManifestEntry latest, String bundle) throws UpdateException, SQLException, IOException {
        String url = Http.resolve(manifestUrl, delta.file);
        String tooLarge = delta.file + ": more than the " + delta.bytes + " bytes the manifest lists";
        if (delta.bytes > MEMORY_MAX) {
            throw new UpdateException(tooLarge.replace("more than", "not held in memory:"));
        }
        Http.Response response = http.get(url, null, delta.bytes, tooLarge, delta.bytes);
        if (response.status != 200) {
            throw Http.statusError(delta.file, response.status);
        }
        if (response.body.length != delta.bytes || !sha256(response.body).equals(delta.sha256)) {
            throw new UpdateException(delta.file + ": not the size and SHA-256 the manifest lists");
        }
        byte[] sql = unpack(response.body, delta);
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(sql)).toString();
        } catch (CharacterCodingException error) {
            throw new UpdateException("the delta is not UTF-8 (" + error + ")");
        }
        // Readers keep reading while the delta applies (WAL); a writer elsewhere is waited for.
        try (SqlDatabase db = driver.open(database, false)) {
            try (SqlCursor ignored = db.query("PRAGMA journal_mode = WAL")) {
                ignored.next();
            } catch (SQLException error) {
                // the mode stays as it was
            }
            applySQL(db, text, sql.length, latest.digest, latest.version, bundle);
        }
    }

    static String sha256(byte[] data) {
        try {
            StringBuilder hex = new StringBuilder();
            for (byte b : MessageDigest.getInstance("SHA-256").digest(data)) {
                hex.append(String.format("%02x", b & 0xff));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException error) {
            throw new IllegalStateException(error);
        }
    }

    /// The delta's SQL: `body` gunzipped within its limits, refused as soon as it does not begin
    /// with the header or holds a NUL byte (a bomb of zeros stops at its first bytes).
    static byte[] unpack(byte[] body, ManifestEntry delta) throws UpdateException {
        ByteArrayOutputStream sql = new ByteArrayOutputStream();
        Gunzip.Sink take = (bytes, offset, length) -> {
            for (int i = offset; i < offset + length; i++) {
                if (bytes[i] == 0) {
                    throw new Gunzip.GzipException("the delta holds a NUL byte");
                }
            }
            int before = sql.size();
            sql.write(bytes, offset, length);
            for (int i = before; i < HEADER_BYTES.length && i - before < length; i++) {
                if (bytes[offset + i - before] != HEADER_BYTES[i]) {
                    throw new Gunzip.GzipException("not a feedc delta");
                }
            }
        };
        try {
            Gunzip.inflate(new ByteArrayInputStream(body), take, Limits.unpackCap(delta, Limits.DELTA_UNPACKED_MAX),
                    delta.unpackedBytes);
        } catch (Gunzip.GzipException error) {
            throw new UpdateException(error.getMessage());
        } catch (IOException error) {
            throw new UpdateException(String.valueOf(error.getMessage()));  // not from memory
        }
        return sql.toByteArray();
    }

    /// Applies delta SQL in one transaction; commits only when the content digest is `digest`
    /// and the database is `version` of `bundle` (InstalledCheck). UpdateException otherwise
    /// (rolled back).
    public static void applySQL(SqlDatabase db, String sql, long utf8Length, String digest, long version, String bundle)
            throws UpdateException, SQLException {
        if (!sql.startsWith(HEADER)) {
            throw new UpdateException("not a feedc delta");
        }
        Map<String, Set<String>> tables = new HashMap<>();
        for (ContentDigest.Table table : ContentDigest.contentTables(db)) {
            tables.put(table.name, new HashSet<>(table.columns));
        }
        List<String> statements = DeltaStatementCheck.check(sql, tables);
        long budget = Math.max(BUDGET_MIN, BUDGET_PER_BYTE * utf8Length);
        db.begin();
        try {
            db.limitWork(budget);
            try {
                for (String statement : statements) {
                    db.execute(statement);
                }
            } catch (SQLException error) {
                boolean past = db.workLimitReached();
                db.limitWork(0);
                db.rollback();
                if (past) {
                    throw new UpdateException("the delta did not apply: it ran past its budget of " + budget + " SQLite instructions");
                }
                throw new UpdateException("the delta did not apply: " + error.getMessage());
            }
            db.limitWork(0);
            String found;
            try {
                rebuildModules(db);
                InstalledCheck.check(db, version, bundle);
                found = ContentDigest.compute(db);
            } catch (SQLException | UpdateException error) {
                db.rollback();
                throw new UpdateException("the delta did not apply: " + error.getMessage());
            }
            if (!found.equals(digest)) {
                db.rollback();
                throw new UpdateException("after applying, the content digest is " + found + ", not " + digest
                        + ": the local database was not the delta's base");
            }
            db.commit();
        } finally {
            db.rollback();  // nothing when committed or rolled back already
        }
    }

    /// The optional virtual tables (`sqlite_modules:`), rebuilt from `stops` when present.
    private static void rebuildModules(SqlDatabase db) throws SQLException {
        Set<String> present = new HashSet<>();
        try (SqlCursor rows = db.query("SELECT name FROM sqlite_master WHERE type = 'table' "
                + "AND name IN ('stop_rtree', 'stop_search')")) {
            while (rows.next()) {
                present.add(rows.getString(0));
            }
        }
        if (present.contains("stop_rtree")) {
            db.execute("DELETE FROM stop_rtree");
            db.execute("INSERT INTO stop_rtree SELECT rowid, lat, lat, lon, lon FROM stops "
                    + "WHERE lat IS NOT NULL AND lon IS NOT NULL");
        }
        if (present.contains("stop_search")) {
            db.execute("INSERT INTO stop_search(stop_search) VALUES ('rebuild')");
        }
    }
}
