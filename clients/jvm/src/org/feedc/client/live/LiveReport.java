package org.feedc.client.live;

import com.google.transit.realtime.GtfsRealtime.FeedHeader;
import com.google.transit.realtime.GtfsRealtime.FeedMessage;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/// The join report (docs/live.md, section 7): for each message applied, joined alone at the
/// moment, its entities, by kind how many and how many joined, and every reason an entity or a
/// part of it was left out, counted, with up to five examples; then the sums over the messages,
/// and whether any state is stale. Each message's trip updates are predicted (their calls'
/// reasons counted) and its vehicles placed.
public final class LiveReport {
    private LiveReport() {
    }

    /// The report's JSON object (section 7): `{"messages": [{"feed", "source", "timestamp",
    /// "incrementality", "entities", "trip_updates", "vehicles", "alerts", "reasons"}…],
    /// "entities", "trip_updates", "vehicles", "alerts", "reasons", "stale"}`. `files[i]`,
    /// `sources[i]` and `messages[i]` are the i-th message applied.
    public static Map<String, Object> json(LiveView view, List<String> files, List<String> sources,
                                           List<FeedMessage> messages) throws SQLException {
        List<Object> each = new ArrayList<>();
        LiveTally sums = new LiveTally();
        long entities = 0;
        for (int i = 0; i < messages.size(); i++) {
            FeedMessage message = messages.get(i);
            LiveFeed alone = new LiveFeed(sources.get(i));
            alone.apply(message);
            LiveTally tally = tally(view, alone);
            sums.add(tally);
            entities += message.getEntityCount();
            FeedHeader header = message.getHeader();
            Long stamp = header.hasTimestamp() ? LiveFeed.posix(header.getTimestamp()) : null;
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("feed", files.get(i));
            one.put("source", sources.get(i));
            one.put("timestamp", stamp == null ? null : ServiceDay.iso(stamp, view.bundle.zone(null)));
            one.put("incrementality", header.getIncrementality() == FeedHeader.Incrementality.DIFFERENTIAL
                    ? "DIFFERENTIAL" : "FULL_DATASET");
            one.put("entities", (long) message.getEntityCount());
            for (String kind : LiveTally.KINDS) {
                one.put(kind, tally.kind(kind));
            }
            one.put("reasons", tally.reasons());
            each.add(one);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("messages", each);
        out.put("entities", entities);
        for (String kind : LiveTally.KINDS) {
            out.put(kind, sums.kind(kind));
        }
        out.put("reasons", sums.reasons());
        out.put("stale", view.stale());
        return out;
    }

    /// The tally of joining every entity of `state`.
    static LiveTally tally(LiveView view, LiveFeed state) throws SQLException {
        LiveTally tally = new LiveTally();
        List<LiveFeed.Entry> entries = state.entries();
        view.runs(state, entries, tally);
        new LiveVehicles(view).of(state, entries, tally);
        new LiveAlerts(view).of(state, entries, null, null, null, tally);
        return tally;
    }
}
