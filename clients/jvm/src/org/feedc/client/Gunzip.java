package org.feedc.client;

import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/// Unpacks exactly one gzip member (RFC 1952) within a cap, as the Python client's
/// `feedc_limits.inflate` does: output a piece of at most 64 KiB at a time (memory stays bounded
/// whatever the data), refused when the data is not gzip, is corrupt or truncated, has any byte
/// after the member's end (`java.util.zip.GZIPInputStream` would read a second member, or skip
/// trailing garbage, without a word), unpacks to more than the cap, or to another size than the
/// exact one given.
public final class Gunzip {
    /// Where the unpacked bytes go, a piece at a time.
    @FunctionalInterface
    public interface Sink {
        void write(byte[] bytes, int offset, int length) throws IOException, GzipException;
    }

    /// Why the data was refused ("not gzip data", "bytes after the end of the gzip data", …).
    public static final class GzipException extends Exception {
        private static final long serialVersionUID = 1L;

        public GzipException(String message) {
            super(message);
        }
    }

    private static final int FHCRC = 2;
    private static final int FEXTRA = 4;
    private static final int FNAME = 8;
    private static final int FCOMMENT = 16;

    private final InputStream source;
    private final byte[] input = new byte[Limits.CHUNK];
    private int position;
    private int limit;

    private Gunzip(InputStream source) {
        this.source = source;
    }

    /// Unpacks the gzip member read from `source` into `sink`; returns its size. `exact`, when
    /// not null, is the size it must have (then also its cap). IOException from `source` or
    /// `sink` passes through.
    public static long inflate(InputStream source, Sink sink, long cap, Long exact) throws IOException, GzipException {
        return new Gunzip(source).run(sink, cap, exact);
    }

    private boolean fill() throws IOException {
        int n = source.read(input, 0, input.length);
        position = 0;
        limit = Math.max(n, 0);
        return n > 0;
    }

    private int next(CRC32 header) throws IOException, GzipException {
        if (position == limit && !fill()) {
            throw new GzipException("corrupt gzip data (truncated)");
        }
        int b = input[position++] & 0xff;
        header.update(b);
        return b;
    }

    private long run(Sink sink, long cap, Long exact) throws IOException, GzipException {
        fill();
        if (limit < 2 || (input[0] & 0xff) != 0x1f || (input[1] & 0xff) != 0x8b) {
            throw new GzipException("not gzip data");
        }
        CRC32 header = new CRC32();
        next(header);
        next(header);
        if (next(header) != 8) {
            throw new GzipException("corrupt gzip data (unknown compression method)");
        }
        int flags = next(header);
        if ((flags & 0xe0) != 0) {
            throw new GzipException("corrupt gzip data (unknown header flags set)");
        }
        for (int i = 0; i < 6; i++) {
            next(header);  // MTIME, XFL, OS
        }
        if ((flags & FEXTRA) != 0) {
            int length = next(header) | next(header) << 8;
            for (int i = 0; i < length; i++) {
                next(header);
            }
        }
        for (int field : new int[] {FNAME, FCOMMENT}) {
            if ((flags & field) != 0) {
                while (next(header) != 0) {
                    // a zero-terminated name or comment
                }
            }
        }
        if ((flags & FHCRC) != 0) {
            int expected = (int) (header.getValue() & 0xffff);
            int found = next(header) | next(header) << 8;
            if (found != expected) {
                throw new GzipException("corrupt gzip data (header crc mismatch)");
            }
        }
        Inflater inflater = new Inflater(true);
        try {
            return body(inflater, sink, cap, exact);
        } finally {
            inflater.end();
        }
    }

    private long body(Inflater inflater, Sink sink, long cap, Long exact) throws IOException, GzipException {
        CRC32 crc = new CRC32();
        byte[] output = new byte[Limits.CHUNK];
        long total = 0;
        inflater.setInput(input, position, limit - position);
        while (!inflater.finished()) {
            if (inflater.needsInput()) {
                if (!fill()) {
                    throw new GzipException("corrupt gzip data (truncated)");
                }
                inflater.setInput(input, 0, limit);
            }
            int produced;
            try {
                produced = inflater.inflate(output);
            } catch (DataFormatException error) {
                throw new GzipException("corrupt gzip data (" + error.getMessage() + ")");
            }
            if (produced == 0 && inflater.needsDictionary()) {
                throw new GzipException("corrupt gzip data (a preset dictionary is needed)");
            }
            total += produced;
            if (total > cap) {
                throw new GzipException("unpacks to more than " + cap + " bytes");
            }
            if (produced > 0) {
                crc.update(output, 0, produced);
                sink.write(output, 0, produced);
            }
        }
        position = limit - inflater.getRemaining();
        long storedCrc = 0;
        long storedSize = 0;
        CRC32 ignored = new CRC32();
        for (int i = 0; i < 4; i++) {
            storedCrc |= (long) next(ignored) << (8 * i);
        }
        for (int i = 0; i < 4; i++) {
            storedSize |= (long) next(ignored) << (8 * i);
        }
        if (storedCrc != crc.getValue()) {
            throw new GzipException("corrupt gzip data (incorrect data check)");
        }
        if (storedSize != (total & 0xffffffffL)) {
            throw new GzipException("corrupt gzip data (incorrect length check)");
        }
        if (position < limit || fill()) {
            throw new GzipException("bytes after the end of the gzip data");
        }
        if (exact != null && total != exact) {
            throw new GzipException("unpacks to " + total + " bytes, the manifest says " + exact);
        }
        return total;
    }
}
