package org.feedc.client.live;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/// The states' TripUpdates joined once (docs/live.md, section 5): of several updates naming one
/// run (or one added trip and date), the newest (the TripUpdate's timestamp, else its
/// message's; ties: the first in the states' order). Scheduled and canceled runs by (trip,
/// service date, start); added trips and duplicated runs apart (no scheduled row has them). Each
/// map keeps the order in which its runs first appear (as the Python client's `LiveIndex`).
final class RunIndex {
    /// Scheduled and canceled runs by `JoinedTrip.key()`.
    final Map<String, LiveRun> runs = new LinkedHashMap<>();
    /// Added trips and duplicated runs, by kind and key.
    final Map<String, LiveRun> extra = new LinkedHashMap<>();

    RunIndex(LiveView view) throws SQLException {
        for (LiveRun run : view.runs()) {
            boolean scheduled = run.trip.kind == JoinedTrip.Kind.SCHEDULED || run.trip.kind == JoinedTrip.Kind.CANCELED;
            Map<String, LiveRun> held = scheduled ? runs : extra;
            String key = scheduled ? run.trip.key() : run.trip.kind.name() + "\u0000" + run.trip.key();
            LiveRun before = held.get(key);
            if (run.trip.newerThan(before == null ? null : before.trip)) {
                held.put(key, run);  // a key seen before keeps its place
            }
        }
    }

    /// The run of `tripId` on `serviceDate` starting `start` seconds into it that the states
    /// predict; null when none does.
    LiveRun run(String tripId, long serviceDate, long start) {
        return runs.get(JoinedTrip.key(tripId, serviceDate, start));
    }

    /// The duplicated runs, in order.
    List<LiveRun> duplicated() {
        return ofKind(extra.values(), JoinedTrip.Kind.DUPLICATED);
    }

    static List<LiveRun> ofKind(Collection<LiveRun> all, JoinedTrip.Kind kind) {
        List<LiveRun> out = new ArrayList<>();
        for (LiveRun run : all) {
            if (run.trip.kind == kind) {
                out.add(run);
            }
        }
        return out;
    }
}
