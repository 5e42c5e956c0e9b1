package org.feedc.client.live;

import com.google.transit.realtime.GtfsRealtime.TripDescriptor;
import com.google.transit.realtime.GtfsRealtime.TripUpdate;
import com.google.transit.realtime.GtfsRealtime.TripUpdate.TripProperties;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/// Joins a real-time `TripDescriptor` of one source to one run of a bundle trip on one service
/// date (docs/live.md, section 3), with the documented `realtime_trip`, `realtime_trip_by_start`
/// and `trip_line` queries; what does not join is counted in the tally with its reason and gives
/// null. An `ADDED` or `NEW` trip is not the bundle's: `join` gives null for it without counting
/// (a vehicle of one is left out), and a TripUpdate of one is `added`, its calls its stop time
/// updates.
final class TripJoin {
    private final LiveBundle bundle;
    private final String source;
    private final String prefix;
    private final ZoneId zone;
    private final long at;

    /// Joins for source `source` (whose ids are `prefix` + the feed's), service days in `zone`,
    /// at the moment `at` (epoch seconds).
    TripJoin(LiveBundle bundle, String source, String prefix, ZoneId zone, long at) {
        this.bundle = bundle;
        this.source = source;
        this.prefix = prefix;
        this.zone = zone;
        this.at = at;
    }

    ZoneId zone() {
        return zone;
    }

    String prefix() {
        return prefix;
    }

    /// Whether `trip` is `ADDED` or `NEW` (an enum value the schema does not know reads as
    /// `SCHEDULED`: protobuf-java keeps it as an unknown field).
    static boolean isAdded(TripDescriptor trip) {
        int relationship = trip.getScheduleRelationship().getNumber();
        return relationship == 1 || relationship == 8;  // ADDED (deprecated), NEW
    }

    /// The run `trip` names; `stamp` is the entity's own timestamp, else its message's (null:
    /// none; the moment is used), `properties` a TripUpdate's `trip_properties` (null for a
    /// vehicle or an alert). Null, counted in `tally` for entity `entityId`, when it does not
    /// join or is left out; null, not counted, for an added trip.
    JoinedTrip join(TripDescriptor trip, Long stamp, TripProperties properties, String entityId, LiveTally tally)
            throws SQLException {
        switch (trip.getScheduleRelationship().getNumber()) {
            case 2:  // UNSCHEDULED
                tally.count("unscheduled", entityId);
                return null;
            case 5:  // REPLACEMENT
                tally.count("replacement", entityId);
                return null;
            case 1:  // ADDED (deprecated)
            case 8:  // NEW
                return null;
            default:
                break;
        }
        JoinedTrip run = trip.hasTripId() ? byTripId(trip, stamp == null ? at : stamp, entityId, tally)
                : byStart(trip, entityId, tally);
        if (run == null) {
            return null;
        }
        switch (trip.getScheduleRelationship().getNumber()) {
            case 3:  // CANCELED
            case 7:  // DELETED
                return new JoinedTrip(JoinedTrip.Kind.CANCELED, run.tripId, run.realtimeTripId, run.serviceDate, run.start,
                        run.line, run.routeId, zone, stamp);
            case 6: {  // DUPLICATED: a copy of the run, at trip_properties' start (and date, where it gives one)
                long start = properties == null || !properties.hasStartTime() ? -1 : ServiceDay.parseTime(properties.getStartTime());
                if (start < 0) {
                    tally.count("unknown_trip", entityId);
                    return null;
                }
                int date = properties.hasStartDate() ? ServiceDay.parseDate(properties.getStartDate()) : -1;
                String id = properties.hasTripId() ? properties.getTripId() : null;
                return new JoinedTrip(JoinedTrip.Kind.DUPLICATED, run.tripId, id, date < 0 ? run.serviceDate : date, start,
                        run.line, run.routeId, zone, stamp);
            }
            default:
                return new JoinedTrip(JoinedTrip.Kind.SCHEDULED, run.tripId, run.realtimeTripId, run.serviceDate, run.start,
                        run.line, run.routeId, zone, stamp);
        }
    }

    /// An `ADDED` or `NEW` trip's run: its calls (`Prediction.added`: the stop time updates at
    /// stops the bundle has, each at its own time) and, where at least one is left, the trip:
    /// `trip_id` the source's prefix + its real-time id (else the entity's id), service date its
    /// `start_date`, else the agency's calendar date at its first call, route the bundle's where
    /// it has the `route_id`. Null when no call is left (not a trip).
    LiveRun added(TripUpdate update, Long stamp, String entityId, LiveTally tally) throws SQLException {
        List<PredictedCall> calls = Prediction.added(update, prefix, bundle, entityId, tally);
        if (calls.isEmpty()) {
            return null;
        }
        TripDescriptor trip = update.getTrip();
        String id = trip.hasTripId() ? trip.getTripId() : entityId;
        String route = null;
        if (trip.hasRouteId() && bundle.route(prefix + trip.getRouteId()) != null) {
            route = prefix + trip.getRouteId();
        }
        int date = trip.hasStartDate() ? ServiceDay.parseDate(trip.getStartDate()) : -1;
        if (date < 0) {
            date = ServiceDay.date(calls.get(0).predictedDeparture, zone);
        }
        JoinedTrip joined = new JoinedTrip(JoinedTrip.Kind.ADDED, prefix + id, trip.hasTripId() ? id : null, date, null, null,
                route, zone, stamp);
        return new LiveRun(joined, calls, entityId);
    }

    /// By `trip_id`: its start date's run (without one, `at`'s service date's, else the day
    /// before's), the running row whose start is nearest to `timestamp` (ties: the first).
    private JoinedTrip byTripId(TripDescriptor trip, long timestamp, String entityId, LiveTally tally) throws SQLException {
        List<Integer> dates = new ArrayList<>();
        if (trip.hasStartDate()) {
            int date = ServiceDay.parseDate(trip.getStartDate());
            if (date < 0) {
                tally.count("unknown_trip", entityId);
                return null;
            }
            dates.add(date);
        } else {
            int today = ServiceDay.date(at, zone);
            dates.add(today);
            dates.add(ServiceDay.previous(today));
        }
        long requested = trip.hasStartTime() ? ServiceDay.parseTime(trip.getStartTime()) : -1;
        boolean anyRow = false;
        for (int date : dates) {
            JoinedTrip best = null;
            long bestDistance = Long.MAX_VALUE;
            List<Object[]> rows = bundle.rows("realtime_trip", LiveBundle.values("start_date", (long) date,
                    "trip_id", trip.getTripId(), "source_id", source));
            for (Object[] row : rows) {
                anyRow = true;
                if ((Long) row[2] != 1) {
                    continue;
                }
                TripLine line = bundle.line((String) row[0]);
                if (line == null) {
                    continue;
                }
                long start = (Long) row[4];
                if (line.frequencyBased) {  // the run is named by its start_time
                    if (requested < 0) {
                        tally.count("frequency_without_start_time", entityId);
                        return null;
                    }
                    start = requested;
                }
                int serviceDate = ((Long) row[1]).intValue();
                long distance = Math.abs(ServiceDay.start(serviceDate, zone) + start - timestamp);
                if (distance < bestDistance) {
                    bestDistance = distance;
                    best = new JoinedTrip(JoinedTrip.Kind.SCHEDULED, line.tripId, trip.getTripId(), serviceDate, start,
                            line, line.routeId, zone, null);
                }
            }
            if (best != null) {
                return best;
            }
        }
        tally.count(anyRow ? "not_running" : "unknown_trip", entityId);
        return null;
    }

    /// Without `trip_id`: the one trip of `route_id` whose `direction_id` and first departure are
    /// the message's and that runs on `start_date`.
    private JoinedTrip byStart(TripDescriptor trip, String entityId, LiveTally tally) throws SQLException {
        long start = trip.hasStartTime() ? ServiceDay.parseTime(trip.getStartTime()) : -1;
        int date = trip.hasStartDate() ? ServiceDay.parseDate(trip.getStartDate()) : -1;
        if (!trip.hasRouteId() || !trip.hasDirectionId() || start < 0 || date < 0) {
            tally.count("unknown_trip", entityId);
            return null;
        }
        Set<String> running = new LinkedHashSet<>();
        for (Object[] row : bundle.rows("realtime_trip_by_start", LiveBundle.values("route_id", trip.getRouteId(),
                "source_id", source, "direction_id", Integer.toUnsignedLong(trip.getDirectionId()), "start_time", start))) {
            for (Object[] candidate : bundle.rows("realtime_trip", LiveBundle.values("start_date", (long) date,
                    "trip_id", row[0], "source_id", source))) {
                if ((Long) candidate[2] == 1 && (Long) candidate[1] == date) {
                    running.add((String) candidate[0]);
                }
            }
        }
        if (running.size() != 1) {
            tally.count(running.isEmpty() ? "unknown_trip" : "ambiguous_trip", entityId);
            return null;
        }
        TripLine line = bundle.line(running.iterator().next());
        if (line == null) {
            tally.count("unknown_trip", entityId);
            return null;
        }
        return new JoinedTrip(JoinedTrip.Kind.SCHEDULED, line.tripId, null, date, start, line, line.routeId, zone, null);
    }
}
