package org.feedc.client.live;

import java.time.ZoneId;

/// One run of a trip on one service date that a real-time `TripDescriptor` names (docs/live.md,
/// section 3), or an added trip the bundle does not hold.
public final class JoinedTrip {
    /// The trip's relationship, as a departure's `trip` says it.
    public enum Kind {
        SCHEDULED, CANCELED, ADDED, DUPLICATED;

        /// `scheduled`, `canceled`, `added`, `duplicated`.
        public String json() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public final Kind kind;
    /// The bundle's trip id; an added trip's: the source's prefix + its real-time id.
    public final String tripId;
    /// The id the message gives (a duplicated run's: `trip_properties.trip_id`), null without one.
    public final String realtimeTripId;
    /// `YYYYMMDD`.
    public final int serviceDate;
    /// The run's departure from the trip's first stop, seconds from the start of its service
    /// day; null for an added trip (its calls carry their own times).
    public final Long start;
    /// The bundle's trip with its calls; null for an added trip.
    public final TripLine line;
    /// The bundle's route id; an added trip's when the bundle has its `route_id`, else null.
    public final String routeId;
    /// The zone service days are counted in.
    public final ZoneId zone;
    /// The TripUpdate's own timestamp, else its message's (null: neither): of several updates
    /// naming one run, the newest is used.
    public final Long stamp;

    JoinedTrip(Kind kind, String tripId, String realtimeTripId, int serviceDate, Long start, TripLine line,
               String routeId, ZoneId zone, Long stamp) {
        this.kind = kind;
        this.tripId = tripId;
        this.realtimeTripId = realtimeTripId;
        this.serviceDate = serviceDate;
        this.start = start;
        this.line = line;
        this.routeId = routeId;
        this.zone = zone;
        this.stamp = stamp;
    }

    /// Whether this is newer than `held` (null: nothing held): it has a stamp, and `held` has
    /// none or an older one (ties: the one held, the first in the states' order).
    boolean newerThan(JoinedTrip held) {
        return held == null || (stamp != null && (held.stamp == null || stamp > held.stamp));
    }

    /// The run's start as epoch seconds: the start of its service day + `start`.
    public long base() {
        return ServiceDay.start(serviceDate, zone) + (start == null ? 0 : start);
    }

    /// What names the run in the bundle's timetable: trip, service date and start (an added
    /// trip: its id and service date).
    public String key() {
        return start == null ? tripId + "\u0000" + serviceDate : key(tripId, serviceDate, start);
    }

    static String key(String tripId, long serviceDate, long start) {
        return tripId + "\u0000" + serviceDate + "\u0000" + start;
    }
}
