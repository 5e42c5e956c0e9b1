package org.feedc.client.live;

import com.google.transit.realtime.GtfsRealtime.FeedEntity;
import com.google.transit.realtime.GtfsRealtime.FeedHeader;
import com.google.transit.realtime.GtfsRealtime.FeedMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/// What the messages of one source (a `feeds.source_id` of the bundle) say now (docs/live.md,
/// section 2). `apply`: a `FULL_DATASET` message (the default, and what an incrementality the
/// schema does not know reads as) replaces everything the state held (its deleted entities say
/// nothing), a `DIFFERENTIAL` one merges (an entity replaces the one with the same id, an entity
/// with `is_deleted` removes it); the state's timestamp is the newest `header.timestamp` applied.
/// Entities keep the order their ids first came in; an id given twice is the later entity, in
/// the first one's place.
public final class LiveFeed {
    /// One entity of the state, with the header timestamp of the message it came in (null when
    /// that message had none): an entity without a timestamp of its own is dated by it.
    public static final class Entry {
        public final FeedEntity entity;
        public final Long headerTimestamp;

        Entry(FeedEntity entity, Long headerTimestamp) {
            this.entity = entity;
            this.headerTimestamp = headerTimestamp;
        }
    }

    /// The source's id in the bundle's `feeds`.
    public final String source;
    private final Map<String, Entry> entities = new LinkedHashMap<>();
    private Long timestamp;

    public LiveFeed(String source) {
        this.source = source;
    }

    /// Applies `message` to the state.
    public void apply(FeedMessage message) {
        FeedHeader header = message.getHeader();
        boolean differential = header.getIncrementality() == FeedHeader.Incrementality.DIFFERENTIAL;
        Long stamp = header.hasTimestamp() ? posix(header.getTimestamp()) : null;
        if (!differential) {
            entities.clear();
        }
        for (FeedEntity entity : message.getEntityList()) {
            if (entity.getIsDeleted()) {
                if (differential) {
                    entities.remove(entity.getId());
                }
            } else {
                entities.put(entity.getId(), new Entry(entity, stamp));
            }
        }
        if (stamp != null && (timestamp == null || stamp > timestamp)) {
            timestamp = stamp;
        }
    }

    /// A uint64 POSIX time as the schema sends it: null past Int64 (as Swift and Python read it).
    static Long posix(long value) {
        return value < 0 ? null : Long.valueOf(value);
    }

    /// The entities the state holds, in order.
    public List<Entry> entries() {
        return Collections.unmodifiableList(new ArrayList<>(entities.values()));
    }

    /// The newest `header.timestamp` applied (epoch seconds), null when none had one.
    public Long timestamp() {
        return timestamp;
    }

    /// Whether the state is stale at `at` (epoch seconds): no timestamp, or older than `maxAge`.
    public boolean isStale(long at, long maxAge) {
        return timestamp == null || at - timestamp > maxAge;
    }
}
