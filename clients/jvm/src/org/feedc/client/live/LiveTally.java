package org.feedc.client.live;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/// What a join left out and why (docs/live.md, section 7): each reason counted, with up to five
/// examples, the distinct ids of the entities it was found in, smallest first (by code point);
/// and the entities of each kind and how many of them joined.
public final class LiveTally {
    /// Every reason, in the doc's order (`unknown_enum` is kept for a runtime that would hand an
    /// unknown enum value over; protobuf-java reads it as the field's default, so it is never
    /// counted).
    public static final List<String> REASONS = List.of("unknown_trip", "not_running", "ambiguous_trip",
            "frequency_without_start_time", "unknown_stop", "unknown_stop_sequence", "out_of_order", "time_out_of_range",
            "times_out_of_order", "added_without_time", "unscheduled", "replacement", "unknown_enum",
            "unknown_informed_entity");
    /// The kinds of entity.
    public static final List<String> KINDS = List.of("trip_updates", "vehicles", "alerts");
    private static final int EXAMPLES = 5;

    private final Map<String, long[]> counts = new LinkedHashMap<>();
    private final Map<String, TreeSet<String>> examples = new LinkedHashMap<>();
    private final Map<String, long[]> entities = new LinkedHashMap<>();
    private final Map<String, long[]> joined = new LinkedHashMap<>();

    public LiveTally() {
        for (String reason : REASONS) {
            counts.put(reason, new long[1]);
            examples.put(reason, new TreeSet<>(LiveTally::compareCodePoints));
        }
        for (String kind : KINDS) {
            entities.put(kind, new long[1]);
            joined.put(kind, new long[1]);
        }
    }

    /// `a` and `b` compared by Unicode code point (String.compareTo compares UTF-16 units, which
    /// orders the characters past U+FFFF before U+E000–U+FFFF).
    public static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int x = a.codePointAt(i);
            int y = b.codePointAt(j);
            if (x != y) {
                return Integer.compare(x, y);
            }
            i += Character.charCount(x);
            j += Character.charCount(y);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /// One occurrence of `reason` in entity `entityId`.
    public void count(String reason, String entityId) {
        long[] count = counts.get(reason);
        if (count == null) {
            throw new IllegalArgumentException("no reason " + reason);
        }
        count[0]++;
        example(reason, entityId);
    }

    private void example(String reason, String entityId) {
        TreeSet<String> ids = examples.get(reason);
        ids.add(entityId);
        if (ids.size() > EXAMPLES) {
            ids.pollLast();
        }
    }

    /// An entity of `kind` seen, and whether it joined.
    public void entity(String kind, boolean didJoin) {
        entities.get(kind)[0]++;
        if (didJoin) {
            joined.get(kind)[0]++;
        }
    }

    public long count(String reason) {
        return counts.get(reason)[0];
    }

    /// Adds `other`'s counts to this one's: the sums, examples the first five of both.
    public void add(LiveTally other) {
        for (String reason : REASONS) {
            counts.get(reason)[0] += other.counts.get(reason)[0];
            for (String id : other.examples.get(reason)) {
                example(reason, id);
            }
        }
        for (String kind : KINDS) {
            entities.get(kind)[0] += other.entities.get(kind)[0];
            joined.get(kind)[0] += other.joined.get(kind)[0];
        }
    }

    /// `{"total": n, "joined": n}` of `kind`.
    Map<String, Object> kind(String kind) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("total", entities.get(kind)[0]);
        out.put("joined", joined.get(kind)[0]);
        return out;
    }

    /// Each reason that occurred, in the doc's order: `{"count": n, "examples": [ids]}`.
    Map<String, Object> reasons() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String reason : REASONS) {
            if (counts.get(reason)[0] > 0) {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("count", counts.get(reason)[0]);
                one.put("examples", new ArrayList<>(examples.get(reason)));
                out.put(reason, one);
            }
        }
        return out;
    }
}
