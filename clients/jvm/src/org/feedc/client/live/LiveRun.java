package org.feedc.client.live;

import java.util.List;

/// A TripUpdate joined to its run, with the run's calls predicted (docs/live.md, sections 3–4);
/// an added trip's calls are its stop time updates.
public final class LiveRun {
    public final JoinedTrip trip;
    public final List<PredictedCall> calls;
    /// The entity it came in.
    public final String entityId;

    LiveRun(JoinedTrip trip, List<PredictedCall> calls, String entityId) {
        this.trip = trip;
        this.calls = calls;
        this.entityId = entityId;
    }
}
