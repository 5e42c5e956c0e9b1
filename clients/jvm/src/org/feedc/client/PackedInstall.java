package org.feedc.client;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/// Installs a packed bundle (encoding `packed-gzip`, docs/packed-bundle.md, "Installing"; the
/// Python client's feedc_packed.py, whose words it uses): the bundle's tables created from the
/// packed file's `packed_schema`, their rows decoded column by column (`PackedColumn`) and
/// inserted with their rowids, then the indexes and the view. The result is then checked as a
/// downloaded plain bundle is (`FullBundle`). A file in WAL mode is refused before it is opened
/// (SQLite would make `-wal` and `-shm` files beside it), `packed_meta` is read by key with its
/// values capped at META_MAX bytes, and the tables, rows and indexes are made with every SQL
/// function refused (`SqlDatabase.denyFunctions`).
public final class PackedInstall {
    public static final String ENCODING = "packed-gzip";
    public static final String FORMAT = "1";
    public static final int PAGE_SIZE = 4096;
    /// The SQLite instructions an install may run: BUDGET_PER_VALUE a value the packed tables
    /// declare (rows × columns), at most BUDGET_PER_BYTE a byte of the plain bundle, at least
    /// BUDGET_MIN; never counted from the packed file's size, which padding would buy (a `CREATE
    /// TABLE … AS SELECT` that would run for hours is refused).
    public static final long BUDGET_MIN = 10_000_000L;
    public static final long BUDGET_PER_VALUE = 100L;
    public static final long BUDGET_PER_BYTE = 10L;
    /// Bytes of a `packed_meta` key or value.
    public static final int META_MAX = 64;
    /// The format's limits (docs/packed-bundle.md, "Limits"): a row's TEXT and BLOB bytes in all;
    /// the rows and the bytes (in `data`) of the columns `k` columns refer to, in all.
    static final int ROW_BYTES = 1 << 20;
    static final long REFERENCED_ROWS = 1 << 19;
    static final long REFERENCED_BYTES = 1 << 24;
    /// The longest value of `packed_schema` and of `packed_tables` but `data` (a longer one is refused unread).
    static final int METADATA_MAX = 1 << 20;
    private static final byte[] HEADER = "SQLite format 3\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final Pattern USER_VERSION = Pattern.compile("[0-9]{1,9}");
    /// The packed file's own schema, exactly as the writer stores it in its `sqlite_master` (type,
    /// name, tbl_name, sql): anything else (a view or an index of its own, a trigger) is refused
    /// before any query on the file.
    static final Set<List<String>> OWN_SCHEMA = Set.of(
            own("packed_meta", "key TEXT NOT NULL, value TEXT NOT NULL"),
            own("packed_schema", "seq INTEGER PRIMARY KEY, type TEXT NOT NULL, name TEXT NOT NULL, sql TEXT NOT NULL"),
            own("packed_tables", "name TEXT NOT NULL, rows INTEGER NOT NULL, encodings TEXT NOT NULL, data BLOB NOT NULL"));
    private static final Map<String, String[]> PREFIXES = Map.of(
            "table", new String[] {"CREATE TABLE "},
            "index", new String[] {"CREATE INDEX ", "CREATE UNIQUE INDEX "},
            "view", new String[] {"CREATE VIEW "});

    /// The packed file does not decode or install: a corrupt download.
    public static final class PackedException extends Exception {
        private static final long serialVersionUID = 1L;

        public PackedException(String message) {
            super(message);
        }
    }

    private final SqlDatabase source;
    private final SqlDatabase target;
    private final Set<String> wanted = new HashSet<>();                 // "table\0cid" a later `k` column reads
    private final Map<String, List<Object>> kept = new HashMap<>();     // their values
    private final Map<String, String> keptNames = new HashMap<>();
    private long referencedRows;   // of the kept columns, against the limits
    private long referencedBytes;

    private final Long unpackedBytes;
    private long budget = BUDGET_MIN;  // until the tables' declared values are read
    private Long maxBytes;             // the installed file's cap, when given: no table's data may be larger

    private PackedInstall(SqlDatabase source, SqlDatabase target, Long unpackedBytes) {
        this.source = source;
        this.target = target;
        this.unpackedBytes = unpackedBytes;
    }

    /// Installs the packed file `packed` into the new file `created`, capped at `maxPages` pages
    /// when not null, its work at `budget(values, unpackedBytes)` (`unpackedBytes`: the plain
    /// bundle's size, or null); PackedException when the packed file is corrupt or does not
    /// install (the caller deletes the new file).
    public static void install(SqlDriver driver, String packed, String created, Long maxPages, Long unpackedBytes)
            throws PackedException {
        checkHeader(packed);
        SqlDatabase target = null;
        PackedInstall install = null;
        try (SqlDatabase source = driver.open(packed, true)) {
            target = driver.open(created, false);
            try {
                install = new PackedInstall(source, target, unpackedBytes);
                install.run(maxPages);
            } finally {
                target.close();
            }
        } catch (SQLException error) {
            if (target != null && target.workLimitReached()) {
                throw new PackedException("the install needs more than " + install.budget + " SQLite instructions");
            }
            if (target != null && target.functionDenied()) {
                throw new PackedException("the packed schema calls a function");
            }
            throw new PackedException(error.getMessage() != null ? error.getMessage() : error.getClass().getSimpleName());
        }
    }

    /// The SQLite instructions an install of `values` declared values (rows × columns, summed over
    /// the tables) may run: BUDGET_PER_VALUE each, at most BUDGET_PER_BYTE a byte of the plain
    /// bundle (`unpackedBytes`, when not null), at least BUDGET_MIN.
    static long budget(long values, Long unpackedBytes) {
        long declared = values > Long.MAX_VALUE / BUDGET_PER_VALUE ? Long.MAX_VALUE : BUDGET_PER_VALUE * values;
        if (unpackedBytes != null) {
            declared = Math.min(declared, BUDGET_PER_BYTE * unpackedBytes);  // unpacked_bytes < 2^53
        }
        return Math.max(BUDGET_MIN, declared);
    }

    /// Refuses a SQLite file not in rollback-journal mode (header bytes 18–19 are 2 in WAL mode)
    /// before SQLite opens it: even read-only, SQLite would make `-wal` and `-shm` files beside
    /// it. Anything else is left to SQLite (not a database, …).
    private static void checkHeader(String packed) throws PackedException {
        byte[] header;
        try (InputStream in = Files.newInputStream(Paths.get(packed))) {
            header = in.readNBytes(20);
        } catch (IOException error) {
            throw new PackedException("cannot read the packed file: " + error.getMessage());
        }
        if (header.length == 20 && Arrays.equals(Arrays.copyOf(header, 16), HEADER) && (header[18] != 1 || header[19] != 1)) {
            throw new PackedException("the packed file is not in rollback-journal mode (header bytes 18-19 are "
                    + (header[18] & 0xff) + ", " + (header[19] & 0xff) + ", not 1, 1)");
        }
    }

    private static List<String> own(String name, String columns) {
        return List.of("table", name, name, "CREATE TABLE " + name + " (" + columns + ")");
    }

    /// The packed file's `sqlite_master` must be exactly `OWN_SCHEMA`: nothing of the file's own
    /// (a view named `packed_meta` over an endless query) runs in the unbounded queries on it.
    private void checkOwnSchema() throws SQLException, PackedException {
        Set<List<String>> found = new HashSet<>();
        int count = 0;
        try (SqlCursor rows = source.query("SELECT type, name, tbl_name, sql FROM sqlite_master")) {
            while (rows.next()) {
                count++;
                List<String> row = new ArrayList<>();
                for (int c = 0; c < 4; c++) {
                    row.add(rows.type(c) == SqlCursor.TEXT ? rows.getString(c) : null);
                }
                found.add(row);
            }
        }
        if (count != OWN_SCHEMA.size() || !found.equals(OWN_SCHEMA)) {
            throw new PackedException("the packed file's own schema is not the packed format's");
        }
    }

    /// The one `packed_meta` value of `key`, read by key, no key or value longer than META_MAX
    /// bytes read (a 200 MB junk row is refused, not loaded), checked.
    private String metaValue(String key, boolean format) throws SQLException, PackedException {
        int count = 0;
        String text = null;
        String shown = null;
        int previous = source.limitLength(META_MAX);
        try (SqlCursor rows = source.query("SELECT value FROM packed_meta WHERE key = ?", key)) {
            while (rows.next()) {
                count++;
                text = rows.type(0) == SqlCursor.TEXT ? rows.getString(0) : null;
                shown = InstalledCheck.repr(rows, 0);
            }
        } catch (SQLException error) {
            if (error.getErrorCode() == 18 || String.valueOf(error.getMessage()).contains("too big")) {  // SQLITE_TOOBIG
                throw new PackedException("packed_meta." + key + ": a key or value longer than " + META_MAX + " bytes");
            }
            throw error;
        } finally {
            if (previous >= 0) {
                source.limitLength(previous);
            }
        }
        if (count != 1) {
            throw new PackedException("packed_meta." + key + " is " + count + " rows");
        }
        if (format && !FORMAT.equals(text)) {
            throw new PackedException("packed_meta.format is " + shown + ", this client reads " + PyText.repr(FORMAT));
        }
        if (!format && (text == null || !USER_VERSION.matcher(text).matches())) {
            throw new PackedException("packed_meta.user_version is " + shown + ", not a number");
        }
        return text;
    }

    private void run(Long maxPages) throws SQLException, PackedException {
        maxBytes = maxPages != null ? maxPages * PAGE_SIZE : null;
        checkOwnSchema();
        metaValue("format", true);
        String userVersion = metaValue("user_version", false);
        // The schema and the tables' words with values of at most METADATA_MAX bytes, refused
        // rather than loaded (10 M words of `encodings` once ran the JVM out of memory).
        List<String[]> schema = new ArrayList<>();  // seq, type, name, sql
        List<PackedTable> entries = new ArrayList<>();
        long values = 0;
        String reading = "packed_schema";
        int previous = source.limitLength(METADATA_MAX);
        try {
            try (SqlCursor rows = source.query("SELECT seq, type, name, sql FROM packed_schema ORDER BY seq")) {
                while (rows.next()) {
                    String seq = InstalledCheck.repr(rows, 0);
                    for (int c = 1; c < 4; c++) {
                        if (rows.type(c) != SqlCursor.TEXT) {
                            throw new PackedException("packed_schema row " + seq + ": its type, name or sql is not text");
                        }
                    }
                    schema.add(new String[] {seq, rows.getString(1), rows.getString(2), rows.getString(3)});
                }
            }
            for (String[] row : schema) {
                if (row[3].indexOf('\0') >= 0) {
                    throw new PackedException("packed_schema row " + row[0] + ": the sql of `" + row[2] + "` holds a 0x00 byte");
                }
                String[] prefixes = PREFIXES.get(row[1]);
                if (prefixes == null) {
                    throw new PackedException("packed_schema row " + row[0] + ": `" + row[2] + "` is a " + row[1]
                            + ", not a table, index or view");
                }
                boolean made = false;
                for (String prefix : prefixes) {
                    made |= row[3].startsWith(prefix);
                }
                if (!made) {
                    List<String> words = new ArrayList<>();
                    for (String prefix : prefixes) {
                        words.add(prefix.strip());
                    }
                    throw new PackedException("packed_schema row " + row[0] + ": the " + row[1] + " `" + row[2]
                            + "` is not made by `" + String.join("` or `", words) + "`");
                }
            }
            reading = "packed_tables";
            List<String> names = new ArrayList<>();
            List<String> tables = new ArrayList<>();
            try (SqlCursor rows = source.query("SELECT rowid, name, rows, encodings FROM packed_tables ORDER BY rowid")) {
                while (rows.next()) {
                    names.add(rows.type(1) == SqlCursor.TEXT ? rows.getString(1) : InstalledCheck.repr(rows, 1));
                }
            }
            for (String[] row : schema) {
                if (row[1].equals("table")) {
                    tables.add(row[2]);
                }
            }
            if (!names.equals(tables)) {
                throw new PackedException("packed_tables holds " + String.join(", ", names) + "; packed_schema creates "
                        + String.join(", ", tables));
            }
            try (SqlCursor rows = source.query("SELECT rowid, name, rows, encodings FROM packed_tables ORDER BY rowid")) {
                while (rows.next()) {
                    PackedTable entry = new PackedTable(rows);
                    entries.add(entry);
                    values = saturated(values, entry.rows, entry.encodings.size());
                    for (String ref : entry.refs) {
                        if (ref != null) {
                            wanted.add(ref);
                        }
                    }
                }
            }
        } catch (SQLException error) {
            if (error.getErrorCode() == 18 || String.valueOf(error.getMessage()).contains("too big")) {  // SQLITE_TOOBIG
                throw new PackedException(reading + ": a value longer than " + METADATA_MAX + " bytes");
            }
            throw error;
        } finally {
            if (previous >= 0) {
                source.limitLength(previous);
            }
        }
        for (String pragma : new String[] {"page_size = " + PAGE_SIZE, "journal_mode = OFF", "synchronous = OFF",
                "user_version = " + userVersion, maxPages != null ? "max_page_count = " + maxPages : null}) {
            if (pragma == null) {
                continue;
            }
            if (pragma.startsWith("journal_mode") || pragma.startsWith("max_page_count")) {  // these answer a row
                try (SqlCursor answer = target.query("PRAGMA " + pragma)) {
                    answer.next();
                }
            } else {
                target.execute("PRAGMA " + pragma);
            }
        }
        budget = budget(values, unpackedBytes);
        if (!target.limitWork(budget)) {  // FullBundle takes a packed file only where it can be limited
            throw new PackedException("this platform cannot limit SQLite's work, which the packed install needs");
        }
        if (!target.denyFunctions()) {  // nor where functions cannot be refused
            throw new PackedException("this platform cannot refuse SQL functions, which the packed install needs");
        }
        for (String[] row : schema) {
            if (row[1].equals("table")) {
                create(row);
            }
        }
        target.begin();
        for (PackedTable entry : entries) {
            insert(entry);
        }
        target.commit();
        for (String kind : new String[] {"index", "view"}) {
            for (String[] row : schema) {
                if (row[1].equals(kind)) {
                    create(row);
                }
            }
        }
        try (SqlCursor rows = target.query("SELECT type, name FROM sqlite_master WHERE type NOT IN ('table', 'index', 'view')")) {
            if (rows.next()) {
                throw new PackedException("the installed bundle has a " + rows.getString(0) + " `" + rows.getString(1) + "`");
            }
        }
    }

    /// Runs one `packed_schema` row as one prepared statement (a JDBC `Statement` would run a
    /// second one after it); SQLite must store exactly its `sql` under its name.
    private void create(String[] row) throws SQLException, PackedException {
        boolean view = row[1].equals("view");
        if (!view) {
            refuseFunctions("EXPLAIN " + row[3]);  // `CREATE TABLE … AS SELECT f(…)`, an index on f(…)
        }
        try (SqlStatement statement = target.prepare(row[3])) {
            statement.execute();
        }
        int count = 0;
        boolean same = false;
        try (SqlCursor rows = target.query("SELECT sql FROM sqlite_master WHERE type = ? AND name = ?", row[1], row[2])) {
            while (rows.next()) {
                count++;
                same = rows.type(0) == SqlCursor.TEXT && row[3].equals(rows.getString(0));
            }
        }
        if (count != 1 || !same) {
            throw new PackedException("packed_schema row " + row[0] + ": the " + row[1] + " `" + row[2]
                    + "` is not exactly one statement creating it");
        }
        if (row[1].equals("table")) {
            refuseFunctions("EXPLAIN INSERT INTO " + quoted(row[2]) + " DEFAULT VALUES");  // its CHECKs, defaults, generated columns
        }
    }

    /// Refuses what the program of an `EXPLAIN`ed statement calls functions in (xerial has no
    /// authorizer, which would refuse them when the statement is compiled, as Python's does; the
    /// functions `denyFunctions` made fail are only refused when called, never on an empty table).
    /// Nothing runs: the program is only listed.
    private void refuseFunctions(String explained) throws SQLException, PackedException {
        try (SqlCursor program = target.query(explained)) {
            while (program.next()) {
                String opcode = program.getString(1);
                if (opcode.startsWith("Function") || opcode.startsWith("PureFunc") || opcode.startsWith("Agg")) {
                    throw new PackedException("the packed schema calls a function");
                }
            }
        }
    }

    /// `values` + `rows` × `columns`, at most Long.MAX_VALUE.
    private static long saturated(long values, long rows, long columns) {
        try {
            return Math.addExact(values, Math.multiplyExact(rows, columns));
        } catch (ArithmeticException error) {
            return Long.MAX_VALUE;
        }
    }

    private static String quoted(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /// The table's (cid, name) as created, with (-1, "rowid") first unless it is WITHOUT ROWID.
    private List<Object[]> columns(String table) throws SQLException {
        List<Object[]> columns = new ArrayList<>();
        try {
            target.query("SELECT rowid FROM " + quoted(table) + " LIMIT 0").close();
            columns.add(new Object[] {-1L, "rowid"});
        } catch (SQLException error) {
            // no such column: rowid
        }
        try (SqlCursor rows = target.query("SELECT cid, name FROM pragma_table_info(?) ORDER BY cid", table)) {
            while (rows.next()) {
                columns.add(new Object[] {rows.getLong(0), rows.getString(1)});
            }
        }
        return columns;
    }

    private void insert(PackedTable entry) throws SQLException, PackedException {
        String table = entry.name;
        List<Object[]> columns = columns(table);
        if (entry.encodings.size() != columns.size()) {
            throw new PackedException("table " + table + ": " + entry.encodings.size() + " packed columns, the table has "
                    + columns.size());
        }
        List<String> where = new ArrayList<>();
        for (Object[] column : columns) {
            where.add(table + "." + column[1]);
        }
        PackedTable.Split split = entry.split(source, where, maxBytes);
        List<int[]> parts = split.ranges();
        for (int c = 0; c < columns.size(); c++) {  // checked before any is decoded
            if (wanted.contains(PackedTable.key(table, (Long) columns.get(c)[0]))) {
                referencedRows += entry.rows;
                referencedBytes += parts.get(c)[1] - parts.get(c)[0];
                if (referencedRows > REFERENCED_ROWS || referencedBytes > REFERENCED_BYTES) {
                    throw new PackedException("column " + where.get(c) + ": the columns `k` columns refer to hold more than "
                            + REFERENCED_ROWS + " rows or " + REFERENCED_BYTES + " bytes in all");
                }
            }
        }
        PackedColumn[] decoders = new PackedColumn[columns.size()];
        List<List<Object>> keptHere = new ArrayList<>();
        Map<String, List<Object>> keptNow = new HashMap<>();  // kept only after the loop: a `k` column never refers to its own table
        for (int c = 0; c < decoders.length; c++) {
            String ref = entry.refs.get(c);
            if (ref != null && !kept.containsKey(ref)) {
                throw new PackedException("column " + where.get(c) + ": it refers to " + entry.shownRefs.get(c)
                        + ", not a column of an earlier table");
            }
            decoders[c] = new PackedColumn(where.get(c), entry.rows, entry.encodings.get(c), split.data(), parts.get(c)[0], parts.get(c)[1],
                    ref == null ? null : keptNames.get(ref), ref == null ? null : kept.get(ref));
            String key = PackedTable.key(table, (Long) columns.get(c)[0]);
            List<Object> values = null;
            if (wanted.contains(key)) {
                values = new ArrayList<>();
                for (long r = 0; r < entry.rows; r++) {
                    values.add(decoders[c].next());
                }
                decoders[c].finish();
                keptNow.put(key, values);
                keptNames.put(key, decoders[c].name);
            }
            keptHere.add(values);
        }
        kept.putAll(keptNow);
        StringBuilder names = new StringBuilder();
        StringBuilder marks = new StringBuilder();
        for (Object[] column : columns) {
            names.append(names.length() > 0 ? ", " : "").append((Long) column[0] < 0 ? "rowid" : quoted((String) column[1]));
            marks.append(marks.length() > 0 ? ", ?" : "?");
        }
        try (SqlStatement statement = target.prepare("INSERT INTO " + quoted(table) + " (" + names + ") VALUES (" + marks + ")")) {
            for (long r = 0; r < entry.rows; r++) {
                long bytes = 0;
                for (int c = 0; c < decoders.length; c++) {
                    Object value = keptHere.get(c) != null ? keptHere.get(c).get((int) r) : decoders[c].next();
                    if (value instanceof String) {
                        bytes += utf8Length((String) value);
                    } else if (value instanceof byte[]) {
                        bytes += ((byte[]) value).length;
                    }
                    if (bytes > ROW_BYTES) {
                        throw new PackedException("table " + table + ": a row of more than " + ROW_BYTES
                                + " bytes of TEXT and BLOB values");
                    }
                    bind(statement, c + 1, value);
                }
                statement.execute();
            }
        }
        for (int c = 0; c < decoders.length; c++) {
            if (keptHere.get(c) == null) {
                decoders[c].finish();
            }
        }
    }

    /// The bytes of `text` in UTF-8 (the decoded texts hold no unpaired surrogate).
    private static long utf8Length(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;  // a pair: 2 + 2
        }
        return bytes;
    }

    private static void bind(SqlStatement statement, int index, Object value) throws SQLException {
        if (value == null) {
            statement.bindNull(index);
        } else if (value instanceof Long) {
            statement.bindLong(index, (Long) value);
        } else if (value instanceof Double) {
            statement.bindDouble(index, (Double) value);
        } else if (value instanceof String) {
            statement.bindText(index, (String) value);
        } else {
            statement.bindBlob(index, (byte[]) value);
        }
    }
}
