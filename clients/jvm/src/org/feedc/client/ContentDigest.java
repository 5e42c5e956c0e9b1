package org.feedc.client;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/// The content digest of a bundle (docs/update-protocol.md, "Content digest"; the Python
/// client's `content_digest`): `sha256:` and 64 hex digits over the schema and the rows of the
/// content tables, each value encoded by the type SQLite reports for it, everything read from
/// the file itself. `meta.version` is left out.
public final class ContentDigest {
    /// A content table: its name, columns in declaration order, key columns in key order.
    public static final class Table {
        public final String name;
        public final List<String> columns;
        public final List<String> key;

        Table(String name, List<String> columns, List<String> key) {
            this.name = name;
            this.columns = columns;
            this.key = key;
        }
    }

    private static final byte[] VERSION = "version".getBytes(StandardCharsets.UTF_8);

    private ContentDigest() {
    }

    /// The content tables by name: neither virtual nor the shadow table of a virtual one.
    public static List<Table> contentTables(SqlDatabase db) throws SQLException {
        List<String> names = new ArrayList<>();
        List<String> virtual = new ArrayList<>();
        try (SqlCursor rows = db.query("SELECT name, sql FROM sqlite_master WHERE type = 'table' "
                + "AND name NOT LIKE 'sqlite_%' ORDER BY name")) {
            while (rows.next()) {
                String name = rows.getString(0);
                String sql = rows.getString(1);
                names.add(name);
                if (sql != null && sql.toUpperCase(Locale.ROOT).startsWith("CREATE VIRTUAL TABLE")) {
                    virtual.add(name);
                }
            }
        }
        List<Table> tables = new ArrayList<>();
        for (String name : names) {
            if (virtual.contains(name) || virtual.stream().anyMatch(v -> name.startsWith(v + "_"))) {
                continue;
            }
            List<String> columns = new ArrayList<>();
            List<long[]> keyed = new ArrayList<>();  // (pk, index in columns)
            try (SqlCursor rows = db.query("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", name)) {
                while (rows.next()) {
                    long pk = rows.getLong(1);
                    if (pk > 0) {
                        keyed.add(new long[] {pk, columns.size()});
                    }
                    columns.add(rows.getString(0));
                }
            }
            keyed.sort((a, b) -> Long.compare(a[0], b[0]));
            List<String> key = new ArrayList<>();
            for (long[] k : keyed) {
                key.add(columns.get((int) k[1]));
            }
            tables.add(new Table(name, columns, key));
        }
        return tables;
    }

    static String quoted(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /// The content digest of `db`.
    public static String compute(SqlDatabase db) throws SQLException {
        Stream sha = new Stream();
        try (SqlCursor rows = db.query("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL "
                + "AND name NOT LIKE 'sqlite_%' ORDER BY type, name")) {
            while (rows.next()) {
                sha.put(0x53);
                for (int i = 0; i < 3; i++) {
                    encode(sha, rows, i);
                }
            }
        }
        for (Table table : contentTables(db)) {
            byte[] name = table.name.getBytes(StandardCharsets.UTF_8);
            sha.put(0x54);
            sha.putLong(name.length);
            sha.put(name);
            List<String> columns = new ArrayList<>();
            table.columns.forEach(c -> columns.add(quoted(c)));
            List<String> key = new ArrayList<>();
            table.key.forEach(c -> key.add(quoted(c)));
            String sql = "SELECT " + String.join(", ", columns) + " FROM " + quoted(table.name)
                    + " ORDER BY " + (key.isEmpty() ? "rowid" : String.join(", ", key));
            boolean meta = table.name.equals("meta");
            try (SqlCursor rows = db.query(sql)) {
                int count = rows.columnCount();
                while (rows.next()) {
                    if (meta && count > 0 && rows.type(0) == SqlCursor.TEXT && Arrays.equals(rows.getBytes(0), VERSION)) {
                        continue;
                    }
                    sha.put(0x52);
                    for (int i = 0; i < count; i++) {
                        encode(sha, rows, i);
                    }
                }
            }
        }
        StringBuilder hex = new StringBuilder("sha256:");
        for (byte b : sha.digest()) {
            hex.append(String.format("%02x", b & 0xff));
        }
        return hex.toString();
    }

    private static void encode(Stream sha, SqlCursor rows, int column) throws SQLException {
        int type = rows.type(column);
        switch (type) {
            case SqlCursor.NULL:
                sha.put(0);
                break;
            case SqlCursor.INTEGER:
                sha.put(1);
                sha.putLong(rows.getLong(column));
                break;
            case SqlCursor.REAL:
                sha.put(2);
                sha.putLong(Double.doubleToRawLongBits(rows.getDouble(column)));
                break;
            default:
                byte[] bytes = rows.getBytes(column);
                sha.put(type == SqlCursor.TEXT ? 3 : 4);
                sha.putLong(bytes.length);
                sha.put(bytes);
        }
    }

    /// The hashed byte stream, gathered 64 KiB at a time (one call of the digest per block).
    private static final class Stream {
        private final MessageDigest sha;
        private final byte[] block = new byte[Limits.CHUNK];
        private int used;

        Stream() {
            try {
                sha = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException error) {
                throw new IllegalStateException(error);
            }
        }

        void put(int b) {
            if (used == block.length) {
                flush();
            }
            block[used++] = (byte) b;
        }

        /// A 64-bit value, little-endian.
        void putLong(long value) {
            if (used + 8 > block.length) {
                flush();
            }
            for (int i = 0; i < 8; i++) {
                block[used++] = (byte) (value >>> (8 * i));
            }
        }

        void put(byte[] bytes) {
            if (bytes.length > block.length - used) {
                flush();
                sha.update(bytes);
                return;
            }
            System.arraycopy(bytes, 0, block, used, bytes.length);
            used += bytes.length;
        }

        private void flush() {
            sha.update(block, 0, used);
            used = 0;
        }

        byte[] digest() {
            flush();
            return sha.digest();
        }
    }
}
