package org.feedc.client.live;

import com.google.transit.realtime.GtfsRealtime.FeedHeader;
import com.google.transit.realtime.GtfsRealtime.FeedMessage;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/// The join report (docs/live.md, section 7): for each message applied, and in all (the states
/// as they are after the last one), the entities by kind, how many joined, and every reason an
/// entity or a part of it was left out, counted, with up to five examples; and whether it is
/// stale. A message's counts are those of its own entities joined on their own.
public final class LiveReport {
    private LiveReport() {
    }

    /// The report's JSON object: `{"messages": [{"file", "source", "timestamp", "incrementality",
    /// "stale", "entities", "joined", "left_out"}…], "all": {"stale", "entities", "joined",
    /// "left_out"}}`. `files[i]`, `sources[i]` and `messages[i]` are the i-th message applied.
    public static Map<String, Object> json(LiveView view, List<String> files, List<String> sources,
                                           List<FeedMessage> messages) throws SQLException {
        List<Object> each = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            FeedMessage message = messages.get(i);
            LiveFeed alone = new LiveFeed(sources.get(i));
            alone.apply(message);
            LiveTally tally = tally(view, List.of(alone));
            FeedHeader header = message.getHeader();
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("file", files.get(i));
            one.put("source", sources.get(i));
            one.put("timestamp", header.hasTimestamp() ? ServiceDay.iso(header.getTimestamp(), view.bundle.zone(null)) : null);
            one.put("incrementality", header.getIncrementality().name());
            one.put("stale", alone.isStale(view.at, view.maxAge));
            one.putAll(tally.json());
            each.add(one);
        }
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("stale", view.stale());
        all.putAll(tally(view, view.states).json());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("messages", each);
        out.put("all", all);
        return out;
    }

    /// The tally of joining every entity of `states`.
    static LiveTally tally(LiveView view, List<LiveFeed> states) throws SQLException {
        LiveTally tally = new LiveTally();
        for (LiveFeed state : states) {
            for (int i = 0; i < state.unknownIncrementality(); i++) {
                tally.count("unknown_enum", "header");
            }
            List<LiveFeed.Entry> entries = state.entries();
            view.runs(state, entries, tally);
            new LiveVehicles(view).of(state, entries, tally);
            new LiveAlerts(view).of(state, entries, null, null, null, tally);
        }
        return tally;
    }
}
