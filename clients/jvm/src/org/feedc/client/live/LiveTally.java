package org.feedc.client.live;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/// What a join left out and why (docs/live.md, section 7): each reason counted, with up to five
/// examples, the ids of the entities it was found in, smallest first; and the entities of each
/// kind and how many of them joined.
public final class LiveTally {
    /// Every reason, in the doc's order.
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
            examples.put(reason, new TreeSet<>());
        }
        for (String kind : KINDS) {
            entities.put(kind, new long[1]);
            joined.put(kind, new long[1]);
        }
    }

    /// One occurrence of `reason` in entity `entityId`.
    public void count(String reason, String entityId) {
        long[] count = counts.get(reason);
        if (count == null) {
            throw new IllegalArgumentException("no reason " + reason);
        }
        count[0]++;
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

    /// `{"trip_updates": n, …}`, `{"trip_updates": joined, …}` and each reason's
    /// `{"count": n, "examples": [ids]}`, in the doc's order.
    Map<String, Object> json() {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> kinds = new LinkedHashMap<>();
        Map<String, Object> joins = new LinkedHashMap<>();
        for (String kind : KINDS) {
            kinds.put(kind, entities.get(kind)[0]);
            joins.put(kind, joined.get(kind)[0]);
        }
        out.put("entities", kinds);
        out.put("joined", joins);
        Map<String, Object> reasons = new LinkedHashMap<>();
        for (String reason : REASONS) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("count", counts.get(reason)[0]);
            one.put("examples", new ArrayList<>(examples.get(reason)));
            reasons.put(reason, one);
        }
        out.put("left_out", reasons);
        return out;
    }
}
