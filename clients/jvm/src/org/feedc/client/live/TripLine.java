package org.feedc.client.live;

import java.util.List;

/// A trip of the bundle as the live layer reads it (docs/bundle-format.md, "Live: a trip's
/// calls and line"): the documented `trip_line` row and its calls in order, from `trip_calls`.
public final class TripLine {
    /// The bundle's ids.
    public final String tripId;
    public final String routeId;
    /// GTFS `direction_id`, null where the feed gives none.
    public final Long directionId;
    /// Departure from the first stop, seconds from the start of the service day (a
    /// frequency-based trip's template).
    public final long startTime;
    /// The user-facing direction of its pattern.
    public final long directionIndex;
    public final String headsign;
    /// Its pattern's shape as an encoded polyline, null when it has none.
    public final String polyline;
    public final boolean frequencyBased;
    public final List<Call> calls;

    TripLine(String tripId, String routeId, Long directionId, long startTime, long directionIndex, String headsign,
             String polyline, boolean frequencyBased, List<Call> calls) {
        this.tripId = tripId;
        this.routeId = routeId;
        this.directionId = directionId;
        this.startTime = startTime;
        this.directionIndex = directionIndex;
        this.headsign = headsign;
        this.polyline = polyline;
        this.frequencyBased = frequencyBased;
        this.calls = calls;
    }

    /// One call of the trip's pattern: its position, GTFS `stop_sequence`, stop, scheduled
    /// offsets from the run's start (null where the feed gives no time) and the stop's place.
    public static final class Call {
        public final int stopIndex;
        public final long stopSequence;
        public final String stopId;
        public final Long arrivalOffset;
        public final Long departureOffset;
        public final Double lat;
        public final Double lon;
        public final String parentStation;

        Call(int stopIndex, long stopSequence, String stopId, Long arrivalOffset, Long departureOffset,
             Double lat, Double lon, String parentStation) {
            this.stopIndex = stopIndex;
            this.stopSequence = stopSequence;
            this.stopId = stopId;
            this.arrivalOffset = arrivalOffset;
            this.departureOffset = departureOffset;
            this.lat = lat;
            this.lon = lon;
            this.parentStation = parentStation;
        }
    }
}
