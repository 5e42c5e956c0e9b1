package org.feedc.client;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/// One `packed_tables` row of a packed bundle, its blob left in the file (docs/packed-bundle.md,
/// "The file"; the Python client's `_Table` and `_Install._split`, whose words it uses): a count of
/// rows and one encoding a column (`i`, `r0`…`r9`, `f`, `t`, `v`, `k=<table>.<cid>`), then, once the
/// table is created, the blob cut into its columns' bytes.
final class PackedTable {
    private static final Pattern ENCODING = Pattern.compile("i|r[0-9]|f|t|v");
    private static final Pattern REFERENCE = Pattern.compile("k=([^ .]+)\\.(-1|0|[1-9][0-9]{0,8})");

    final long rowid;
    final String name;
    final long rows;
    final List<String> encodings = new ArrayList<>();
    final List<String> refs = new ArrayList<>();   // `k`: the key (`table \0 cid`) of the column referenced
    final List<String> shownRefs = new ArrayList<>();  // `k`: "table.cid"

    /// One row of `SELECT rowid, name, rows, encodings FROM packed_tables`, its words checked.
    PackedTable(SqlCursor row) throws SQLException, PackedInstall.PackedException {
        rowid = row.getLong(0);
        name = row.getString(1);
        if (row.type(2) != SqlCursor.INTEGER || row.getLong(2) < 0) {
            throw error("table " + name + ": rows is " + InstalledCheck.repr(row, 2) + ", not a count");
        }
        rows = row.getLong(2);
        if (row.type(3) != SqlCursor.TEXT) {
            throw error("table " + name + ": its encodings are not text");
        }
        for (String word : row.getString(3).split(" ", -1)) {
            Matcher reference = REFERENCE.matcher(word);
            if (reference.matches()) {
                encodings.add("k");
                refs.add(key(reference.group(1), Long.parseLong(reference.group(2))));
                shownRefs.add(reference.group(1) + "." + reference.group(2));
            } else if (ENCODING.matcher(word).matches()) {
                encodings.add(word);
                refs.add(null);
                shownRefs.add(null);
            } else {
                throw error("table " + name + ": unknown encoding " + PyText.repr(word));
            }
        }
    }

    /// The key of a column in the install's kept columns.
    static String key(String table, long cid) {
        return table + "\0" + cid;
    }

    private static PackedInstall.PackedException error(String message) {
        return new PackedInstall.PackedException(message);
    }

    /// The table's blob (`data`, which must be a BLOB of at least `rows` bytes, and of at most
    /// `maxBytes` when not null: else it is never read) and where in it are the bytes of the columns named
    /// `names` ("table.column"): each a varint length, then the bytes; every byte in a column.
    Split split(SqlDatabase source, List<String> names, Long maxBytes) throws SQLException, PackedInstall.PackedException {
        try (SqlCursor row = source.query("SELECT length(data) FROM packed_tables WHERE rowid = ?", Long.toString(rowid))) {
            if (maxBytes != null && row.next() && row.type(0) == SqlCursor.INTEGER && row.getLong(0) > maxBytes) {
                throw error("table " + name + ": " + row.getLong(0) + " bytes of data, more than the installed bundle's cap of "
                        + maxBytes);
            }
        }
        byte[] data = null;
        try (SqlCursor row = source.query("SELECT CASE WHEN typeof(data) = 'blob' THEN data END FROM packed_tables WHERE rowid = ?",
                Long.toString(rowid))) {
            if (row.next() && row.type(0) == SqlCursor.BLOB) {
                data = row.getBytes(0);
            }
        }
        if (data == null) {
            throw error("table " + name + ": its data is not a BLOB");
        }
        if (rows > data.length) {
            throw error("table " + name + ": " + rows + " rows in " + data.length + " bytes of data");
        }
        List<int[]> parts = new ArrayList<>();
        int pos = 0;
        for (String where : names) {
            long size = 0;
            int start = pos;
            while (true) {
                if (pos >= data.length || pos - start == 10) {
                    throw error("column " + where + ": a varint cut short or beyond 64 bits");
                }
                int b = data[pos++] & 0xff;
                int shift = 7 * (pos - 1 - start);
                if (shift == 63 && b > 1) {
                    throw error("column " + where + ": a varint cut short or beyond 64 bits");
                }
                size |= (long) (b & 0x7f) << shift;
                if (b < 0x80) {
                    break;
                }
            }
            if (Long.compareUnsigned(size, data.length - pos) > 0) {
                throw error("column " + where + ": " + Long.toUnsignedString(size) + " bytes, past the end of the table's data");
            }
            parts.add(new int[] {pos, pos + (int) size});
            pos += (int) size;
        }
        if (pos != data.length) {
            throw error("table " + name + ": " + (data.length - pos) + " bytes after its columns");
        }
        return new Split(data, parts);
    }

    /// The table's blob and each column's range in it (start, end): the columns are read where
    /// they are, never copied.
    record Split(byte[] data, List<int[]> ranges) {}
}
