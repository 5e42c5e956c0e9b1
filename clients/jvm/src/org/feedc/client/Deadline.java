package org.feedc.client;

/// The time limits of one request: `idle` seconds without a byte end it, and so does the overall
/// deadline of `idle` + one second per 64 KiB of `declared` bytes.
public final class Deadline {
    final double idle;
    final double seconds;
    private final long end;

    public Deadline(double idle, long declared) {
        this.idle = idle;
        this.seconds = idle + declared / Limits.BYTES_PER_SECOND;
        this.end = System.nanoTime() + (long) (seconds * 1e9);
    }

    /// Seconds before the deadline (negative once past it).
    public double left() {
        return (end - System.nanoTime()) / 1e9;
    }

    public boolean expired() {
        return left() <= 0;
    }

    /// How long the next read may wait, in milliseconds (at least 1: 0 would mean forever): the
    /// idle timeout, or less when the deadline is near.
    public int socketTimeoutMillis() {
        double wait = Math.max(Math.min(idle, left()), 0.001);
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.ceil(wait * 1000)));
    }
}
