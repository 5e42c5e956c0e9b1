package org.feedc.client;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/// One column of a packed bundle (docs/packed-bundle.md, "A column's bytes"; the Python client's
/// `_Column` in feedc_packed.py, whose words it uses): its presence runs, read when it is made,
/// at most `rows` + 1 of them and none empty but the first, then its values row by row, read byte
/// by byte. `next()` gives the next row's value: null,
/// `Long`, `Double`, `String` or `byte[]` (a BLOB). Anything that does not decode exactly throws
/// `PackedInstall.PackedException`.
final class PackedColumn {
    private static final double[] SCALES = {1.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
    private static final long REAL_MAX = 1L << 53;
    private static final String VARINT = "a varint cut short or beyond 64 bits";

    final String name;
    private final byte[] data;               // the table's blob; this column's bytes are `start` … `end`
    private final int end;
    private final String encoding;
    private final List<Object> referenced;   // `k`: the referenced column's values
    private final String referencedName;
    private final long present;
    private int pos;
    private int runPos;                      // the next presence run, read again row by row (never kept)
    private long run = -1;                   // the run being read (present when even), what is left of it
    private long left;
    private long decoded;                    // values decoded so far
    private long previous;                   // `i`, `r`, `k`: the previous value
    private boolean started;

    PackedColumn(String name, long rows, String encoding, byte[] data, int start, int end, String referencedName,
            List<Object> referenced) throws PackedInstall.PackedException {
        this.name = name;
        this.data = data;
        this.end = end;
        this.pos = start;
        this.encoding = encoding;
        this.referencedName = referencedName;
        this.referenced = referenced;
        long count = varint();
        if (Long.compareUnsigned(count, rows + 1) > 0) {
            throw error(Long.toUnsignedString(count) + " presence runs for " + rows + " rows");
        }
        runPos = pos;
        long total = 0;  // with its carries in `high`, the runs' exact sum (unsigned; past 2^64 it is only shown)
        long high = 0;
        long sum = 0;
        for (long k = 0; k < count; k++) {
            long length = varint();
            if (length == 0 && k > 0) {
                throw error("an empty presence run after the first");
            }
            long added = total + length;
            high += Long.compareUnsigned(added, total) < 0 ? 1 : 0;
            total = added;
            sum += k % 2 == 0 ? length : 0;
        }
        if (high != 0 || total != rows) {
            throw error("its presence runs add up to " + unsigned128(high, total) + " rows, not " + rows);
        }
        present = sum;  // at most `rows`, as every run
    }

    private static String unsigned128(long high, long low) {
        return new java.math.BigInteger(Long.toUnsignedString(high)).shiftLeft(64)
                .add(new java.math.BigInteger(Long.toUnsignedString(low))).toString();
    }

    private PackedInstall.PackedException error(String message) {
        return new PackedInstall.PackedException("column " + name + ": " + message);
    }

    /// The next row's value (null for NULL).
    Object next() throws PackedInstall.PackedException {
        while (left == 0) {  // the runs add up to the rows: never past the last while rows remain
            int at = pos;
            pos = runPos;
            left = varint();
            runPos = pos;
            pos = at;
            run++;
        }
        left--;
        return run % 2 == 1 ? null : value();
    }

    /// After the last row: every byte used, no value left over.
    void finish() throws PackedInstall.PackedException {
        start();
        if (pos < end) {
            value();
            throw error("more values than present rows");
        }
    }

    /// The checks the Python client makes before its first value: the size of `f` values, the
    /// closing 0x00 byte of `t` values.
    private void start() throws PackedInstall.PackedException {
        if (started) {
            return;
        }
        started = true;
        if (encoding.equals("f") && end - pos != 8 * present) {
            throw error((end - pos) + " bytes for " + present + " REAL values");
        }
        if (encoding.equals("t") && pos < end && data[end - 1] != 0) {
            throw error("a text without its closing 0x00 byte");
        }
    }

    private Object value() throws PackedInstall.PackedException {
        start();
        if (pos >= end) {
            throw error(decoded + " values for " + present + " present rows");
        }
        decoded++;
        switch (encoding) {
            case "i":
                return previous += zigzag(varint());
            case "f":
                return readDouble();
            case "t":
                return text();
            case "k":
                return reference();
            case "v":
                return tagged();
            default:  // r0 … r9
                long n = previous += zigzag(varint());
                if (n > REAL_MAX || n < -REAL_MAX) {
                    throw error("an `" + encoding + "` value beyond 2^53 / 10^k");
                }
                return (double) n / SCALES[encoding.charAt(1) - '0'];  // one IEEE 754 division of exact doubles
        }
    }

    private static long zigzag(long u) {
        return (u >>> 1) ^ -(u & 1);
    }

    /// An unsigned LEB128 varint below 2^64, at most 10 bytes.
    private long varint() throws PackedInstall.PackedException {
        long value = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (pos >= end) {
                break;
            }
            int b = data[pos++] & 0xff;
            if (shift == 63 && b > 1) {
                break;
            }
            value |= (long) (b & 0x7f) << shift;
            if (b < 0x80) {
                return value;
            }
        }
        throw error(VARINT);
    }

    private double readDouble() {
        double value = ByteBuffer.wrap(data, pos, 8).order(ByteOrder.LITTLE_ENDIAN).getDouble();
        pos += 8;
        return value;
    }

    private String text() throws PackedInstall.PackedException {
        int end = pos;
        while (data[end] != 0) {  // the last byte is 0x00 (`start`)
            end++;
        }
        if (end - pos > PackedInstall.ROW_BYTES) {
            throw error("a value longer than a row may hold (" + PackedInstall.ROW_BYTES + " bytes)");
        }
        String value = utf8(pos, end - pos);
        pos = end + 1;
        return value;
    }

    private String utf8(int offset, int length) throws PackedInstall.PackedException {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(data, offset, length)).toString();
        } catch (CharacterCodingException error) {
            throw error("a text that is not UTF-8");
        }
    }

    private Object reference() throws PackedInstall.PackedException {
        long position = previous += zigzag(varint());
        if (position < 0 || position >= referenced.size()) {
            throw error("position " + position + " of " + referencedName + ", which has " + referenced.size() + " rows");
        }
        return referenced.get((int) position);
    }

    /// `v`: a tag byte, then the value (1 INTEGER, 2 REAL, 3 TEXT, 4 BLOB).
    private Object tagged() throws PackedInstall.PackedException {
        int tag = data[pos++] & 0xff;
        switch (tag) {
            case 1:
                return zigzag(varint());
            case 2:
                if (end - pos < 8) {
                    throw error("a REAL cut short");
                }
                return readDouble();
            case 3:
            case 4:
                long size = varint();
                if (Long.compareUnsigned(size, PackedInstall.ROW_BYTES) > 0) {
                    throw error("a value longer than a row may hold (" + PackedInstall.ROW_BYTES + " bytes)");
                }
                if (Long.compareUnsigned(size, end - pos) > 0) {
                    throw error("a " + (tag == 3 ? "TEXT" : "BLOB") + " cut short");
                }
                int at = pos;
                pos += (int) size;
                return tag == 3 ? utf8(at, (int) size) : Arrays.copyOfRange(data, at, at + (int) size);
            default:
                throw error("a value tagged " + tag);
        }
    }
}
