package org.feedc.client;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/// The `packed_columns` rows of one table of a packed bundle, checked as the Python client's
/// `_Install._insert` checks them (docs/packed-bundle.md, "Installing" 4): each a count of rows,
/// a BLOB of data, a known encoding, a reference only for `k` and then to a column of an earlier
/// table; one row count for all, at most the bytes of their data.
final class PackedTable {
    private static final Pattern ENCODINGS = Pattern.compile("i|r[0-9]|f|t|k|v");

    /// The packed columns' cids (`Long`, or the Python `repr` of a value of another type).
    final List<Object> cids = new ArrayList<>();
    final List<String> names = new ArrayList<>();      // "table.column", set by `check`
    final List<String> encodings = new ArrayList<>();
    final List<byte[]> data = new ArrayList<>();
    final List<String> refs = new ArrayList<>();       // `k`: the key of the column referenced
    long rows;

    private final String table;
    private final List<Object[]> columns;
    private final Set<String> earlier;
    private final List<String[]> shown = new ArrayList<>();   // Python reprs: rows, encoding, ref_table, ref_cid
    private final List<Long> counts = new ArrayList<>();      // null: not a count

    private PackedTable(String table, List<Object[]> columns, Set<String> earlier) {
        this.table = table;
        this.columns = columns;
        this.earlier = earlier;
    }

    /// The packed columns of `table`, in cid order; `columns` are the table's (cid, name) as
    /// created, `earlier` the keys (`repr(table) \0 cid`) of the columns a `k` column may read.
    static PackedTable read(SqlDatabase source, String table, List<Object[]> columns, Set<String> earlier) throws SQLException {
        PackedTable packed = new PackedTable(table, columns, earlier);
        try (SqlCursor rows = source.query("SELECT cid, rows, encoding, ref_table, ref_cid, data FROM packed_columns "
                + "WHERE table_name = ? ORDER BY cid", table)) {
            while (rows.next()) {
                packed.cids.add(rows.type(0) == SqlCursor.INTEGER ? (Object) rows.getLong(0) : InstalledCheck.repr(rows, 0));
                packed.counts.add(rows.type(1) == SqlCursor.INTEGER && rows.getLong(1) >= 0 ? rows.getLong(1) : null);
                packed.encodings.add(rows.type(2) == SqlCursor.TEXT ? rows.getString(2) : null);
                packed.data.add(rows.type(5) == SqlCursor.BLOB ? rows.getBytes(5) : null);
                packed.shown.add(new String[] {InstalledCheck.repr(rows, 1), InstalledCheck.repr(rows, 2),
                        InstalledCheck.repr(rows, 3), InstalledCheck.repr(rows, 4)});
            }
        }
        return packed;
    }

    private static PackedInstall.PackedException error(String message) {
        return new PackedInstall.PackedException(message);
    }

    /// The checks, in the Python client's order; sets `names`, `refs` and `rows`.
    void check() throws PackedInstall.PackedException {
        long bytes = 0;
        for (int c = 0; c < cids.size(); c++) {
            String where = table + "." + columns.get(c)[1];
            String[] text = shown.get(c);
            names.add(where);
            if (counts.get(c) == null) {
                throw error("column " + where + ": rows is " + text[0] + ", not a count");
            }
            if (data.get(c) == null) {
                throw error("column " + where + ": its data is not a BLOB");
            }
            String encoding = encodings.get(c);
            if (encoding == null || !ENCODINGS.matcher(encoding).matches()) {
                throw error("column " + where + ": unknown encoding " + text[1]);
            }
            String ref = null;
            if (encoding.equals("k")) {
                ref = text[2] + "\0" + text[3];
                if (!earlier.contains(ref)) {
                    throw error("column " + where + ": it refers to " + text[2] + " cid " + text[3]
                            + ", not a column of an earlier table");
                }
            } else if (!text[2].equals("None") || !text[3].equals("None")) {
                throw error("column " + where + ": a reference on a `" + encoding + "` column");
            }
            refs.add(ref);
            bytes += data.get(c).length;
        }
        TreeSet<Long> distinct = new TreeSet<>(counts);
        if (distinct.size() > 1) {
            List<String> words = new ArrayList<>();
            for (Long count : distinct) {
                words.add(count.toString());
            }
            throw error("table " + table + ": its columns hold " + String.join(" or ", words) + " rows");
        }
        rows = distinct.isEmpty() ? 0 : distinct.first();
        if (rows > bytes) {
            throw error("table " + table + ": " + rows + " rows in " + bytes + " bytes of data");
        }
    }
}
