package org.feedc.client.live;

import java.util.List;

/// A TripUpdate joined to its run, with the run's calls predicted (docs/live.md, sections 3–4).
public final class LiveRun {
    public final JoinedTrip trip;
    public final List<PredictedCall> calls;
    /// The entity it came in.
    public final String entityId;
    /// `trip_properties.trip_headsign` where the TripUpdate gives one (an added trip's headsign).
    public final String headsign;

    LiveRun(JoinedTrip trip, List<PredictedCall> calls, String entityId, String headsign) {
        this.trip = trip;
        this.calls = calls;
        this.entityId = entityId;
        this.headsign = headsign;
    }
}
