package org.feedc.client.live;

import com.google.transit.realtime.GtfsRealtime.TripDescriptor;
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
/// null.
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

    /// The run `trip` names; `timestamp` is the entity's own (else its message's, else `at`),
    /// `properties` a TripUpdate's `trip_properties` (null for a vehicle). Null, counted in
    /// `tally` for entity `entityId`, when it does not join or is left out.
    JoinedTrip join(TripDescriptor trip, long timestamp, TripProperties properties, String entityId, LiveTally tally)
            throws SQLException {
        if (trip.getUnknownFields().hasField(TripDescriptor.SCHEDULE_RELATIONSHIP_FIELD_NUMBER)) {
            tally.count("unknown_enum", entityId);
            return null;
        }
        int relationship = trip.hasScheduleRelationship() ? trip.getScheduleRelationship().getNumber() : 0;
        switch (relationship) {
            case 2:
                tally.count("unscheduled", entityId);
                return null;
            case 5:
                tally.count("replacement", entityId);
                return null;
            case 1:  // ADDED (deprecated)
            case 8:  // NEW
                return added(trip, entityId);
            default:
                break;
        }
        JoinedTrip run = trip.hasTripId() && !trip.getTripId().isEmpty()
                ? byTripId(trip, timestamp, entityId, tally) : byStart(trip, entityId, tally);
        if (run == null) {
            return null;
        }
        if (relationship == 3 || relationship == 7) {  // CANCELED, DELETED
            return new JoinedTrip(JoinedTrip.Kind.CANCELED, run.tripId, run.realtimeTripId, run.serviceDate, run.start,
                    run.line, run.routeId, zone);
        }
        if (relationship == 6) {  // DUPLICATED: a copy of the run, at trip_properties' start
            long start = properties == null ? -1 : ServiceDay.parseTime(properties.getStartTime());
            if (start < 0) {
                tally.count("unknown_trip", entityId);
                return null;
            }
            int date = properties.hasStartDate() ? ServiceDay.parseDate(properties.getStartDate()) : run.serviceDate;
            if (date < 0) {
                tally.count("unknown_trip", entityId);
                return null;
            }
            String id = properties.hasTripId() && !properties.getTripId().isEmpty() ? properties.getTripId() : run.realtimeTripId;
            return new JoinedTrip(JoinedTrip.Kind.DUPLICATED, run.tripId, id, date, start, run.line, run.routeId, zone);
        }
        return run;
    }

    /// An `ADDED` or `NEW` trip: not the bundle's; its calls are its stop time updates.
    private JoinedTrip added(TripDescriptor trip, String entityId) throws SQLException {
        String id = trip.hasTripId() && !trip.getTripId().isEmpty() ? trip.getTripId() : entityId;
        String route = null;
        if (trip.hasRouteId() && bundle.route(prefix + trip.getRouteId()) != null) {
            route = prefix + trip.getRouteId();
        }
        int date = trip.hasStartDate() ? ServiceDay.parseDate(trip.getStartDate()) : -1;
        if (date < 0) {
            date = ServiceDay.date(at, zone);
        }
        return new JoinedTrip(JoinedTrip.Kind.ADDED, prefix + id, id, date, null, null, route, zone);
    }

    /// By `trip_id`: its start date's run (without one, `at`'s service date's, else the day
    /// before's), the running row whose start is nearest to `timestamp`.
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
        boolean frequencyWithoutStart = false;
        for (int date : dates) {
            JoinedTrip best = null;
            long bestDistance = Long.MAX_VALUE;
            List<Object[]> rows = bundle.rows("realtime_trip", LiveBundle.values("start_date", (long) date,
                    "trip_id", trip.getTripId(), "source_id", source));
            for (Object[] row : rows) {
                anyRow = true;
                if ((Long) row[2] == 0) {
                    continue;
                }
                TripLine line = bundle.line((String) row[0]);
                if (line == null) {
                    continue;
                }
                long start = (Long) row[4];
                if (line.frequencyBased) {
                    if (requested < 0) {
                        frequencyWithoutStart = true;
                        continue;
                    }
                    start = requested;
                }
                int serviceDate = ((Long) row[1]).intValue();
                long distance = Math.abs(ServiceDay.start(serviceDate, zone) + start - timestamp);
                if (distance < bestDistance) {
                    bestDistance = distance;
                    best = new JoinedTrip(JoinedTrip.Kind.SCHEDULED, line.tripId, trip.getTripId(), serviceDate, start,
                            line, line.routeId, zone);
                }
            }
            if (best != null) {
                return best;
            }
        }
        tally.count(frequencyWithoutStart ? "frequency_without_start_time" : anyRow ? "not_running" : "unknown_trip", entityId);
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
        return new JoinedTrip(JoinedTrip.Kind.SCHEDULED, line.tripId, null, date, start, line, line.routeId, zone);
    }
}
