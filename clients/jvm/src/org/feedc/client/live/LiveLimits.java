package org.feedc.client.live;

/// The bounds of reading one GTFS-Realtime message (docs/live.md, "Reading a message"), each a
/// `LiveException` when passed: the message's size, checked before decoding, its nesting, its
/// entities and its stop time updates in all, checked while it is scanned, before protobuf
/// builds anything.
public final class LiveLimits {
    /// 16 MiB (WMATA's messages are 0.2 MB).
    public static final long DEFAULT_MAX_BYTES = 16L << 20;
    public static final int DEFAULT_MAX_ENTITIES = 100_000;
    public static final int DEFAULT_MAX_STOP_TIME_UPDATES = 1_000_000;
    /// The most levels of messages and groups, the FeedMessage itself level 1 (the schema's
    /// deepest path is 7); 33 is `too_deep`.
    public static final int MAX_DEPTH = 32;
    /// A state is stale when its timestamp is more than this many seconds before the moment asked.
    public static final long DEFAULT_MAX_AGE = 90;

    public final long maxBytes;
    public final int maxEntities;
    public final int maxStopTimeUpdates;

    public LiveLimits(long maxBytes, int maxEntities, int maxStopTimeUpdates) {
        this.maxBytes = maxBytes;
        this.maxEntities = maxEntities;
        this.maxStopTimeUpdates = maxStopTimeUpdates;
    }

    /// The defaults above.
    public static final LiveLimits DEFAULT = new LiveLimits(DEFAULT_MAX_BYTES, DEFAULT_MAX_ENTITIES, DEFAULT_MAX_STOP_TIME_UPDATES);
}
