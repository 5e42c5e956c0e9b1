package org.feedc.client.live;

import com.google.transit.realtime.GtfsRealtime.FeedEntity;
import com.google.transit.realtime.GtfsRealtime.VehiclePosition;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/// Vehicles (docs/live.md, section 5): each VehiclePosition whose trip joins, placed on its
/// trip's line (its pattern's shape, else the line through its stops): snapped to the line when
/// it has a position (from the named call's segment on), else at the call the message names;
/// its next stop, and its share of the line.
final class LiveVehicles {
    private final LiveView view;
    private final Map<String, Placed> lines = new HashMap<>();

    /// A trip's line on the plane, and each call's segment and distance along it.
    private static final class Placed {
        final LinePlane plane;
        final int[] segment;
        final double[] distance;

        Placed(LinePlane plane, int[] segment, double[] distance) {
            this.plane = plane;
            this.segment = segment;
            this.distance = distance;
        }
    }

    LiveVehicles(LiveView view) {
        this.view = view;
    }

    /// The vehicles of `route` (null: all) and `direction` (null: both), in the states' order;
    /// the entities that do not join or cannot be placed counted in `tally`.
    List<Vehicle> find(String route, Long direction, LiveTally tally) throws SQLException {
        List<Vehicle> out = new ArrayList<>();
        for (LiveFeed state : view.states) {
            for (Vehicle vehicle : of(state, state.entries(), tally)) {
                if ((route == null || route.equals(vehicle.routeId)) && (direction == null || direction == vehicle.directionIndex)) {
                    out.add(vehicle);
                }
            }
        }
        return out;
    }

    /// The vehicles among `entries` of `state`.
    List<Vehicle> of(LiveFeed state, List<LiveFeed.Entry> entries, LiveTally tally) throws SQLException {
        TripJoin join = view.join(state.source);
        List<Vehicle> out = new ArrayList<>();
        for (LiveFeed.Entry entry : entries) {
            FeedEntity entity = entry.entity;
            if (!entity.hasVehicle()) {
                continue;
            }
            Vehicle vehicle = place(entity, entry, join, tally);
            tally.entity("vehicles", vehicle != null);
            if (vehicle != null) {
                out.add(vehicle);
            }
        }
        return out;
    }

    private Vehicle place(FeedEntity entity, LiveFeed.Entry entry, TripJoin join, LiveTally tally) throws SQLException {
        VehiclePosition v = entity.getVehicle();
        String id = entity.getId();
        if (!v.hasTrip()) {
            tally.count("unknown_trip", id);
            return null;
        }
        JoinedTrip trip = join.join(v.getTrip(), view.timestamp(v.hasTimestamp(), v.getTimestamp(), entry), null, id, tally);
        if (trip == null) {
            return null;
        }
        if (trip.line == null) {  // an added trip: no line of the bundle to place it on
            tally.count("unknown_trip", id);
            return null;
        }
        List<TripLine.Call> calls = trip.line.calls;
        int named = -1;
        String missing = null;
        if (v.hasCurrentStopSequence()) {
            long sequence = Integer.toUnsignedLong(v.getCurrentStopSequence());
            for (int i = 0; i < calls.size() && named < 0; i++) {
                if (calls.get(i).stopSequence == sequence) {
                    named = i;
                }
            }
            missing = named < 0 ? "unknown_stop_sequence" : null;
        } else if (v.hasStopId()) {
            String stop = join.prefix() + v.getStopId();
            for (int i = 0; i < calls.size() && named < 0; i++) {
                if (calls.get(i).stopId.equals(stop)) {
                    named = i;
                }
            }
            missing = named < 0 ? "unknown_stop" : null;
        }
        String status = null;
        if (v.getUnknownFields().hasField(VehiclePosition.CURRENT_STATUS_FIELD_NUMBER)) {
            tally.count("unknown_enum", id);
        } else if (v.hasCurrentStatus()) {
            status = v.getCurrentStatus().name();
        }
        Placed placed = placed(trip.line);
        Double lat;
        Double lon;
        Double along;
        String next = null;
        if (v.hasPosition()) {
            if (missing != null) {
                tally.count(missing, id);
            }
            lat = (double) v.getPosition().getLatitude();
            lon = (double) v.getPosition().getLongitude();
            along = null;
            if (placed != null) {
                along = placed.plane.snap(lat, lon, named < 0 ? 0 : placed.segment[named]).distance;
                for (int i = 0; i < calls.size() && next == null; i++) {
                    if (placed.distance[i] > along) {
                        next = calls.get(i).stopId;
                    }
                }
            }
        } else {
            if (named < 0) {
                tally.count(missing != null ? missing : "unknown_stop", id);
                return null;
            }
            lat = calls.get(named).lat;
            lon = calls.get(named).lon;
            along = placed == null ? null : Double.valueOf(placed.distance[named]);
            int nextIndex = v.hasCurrentStatus() && status != null && status.equals("STOPPED_AT") ? named + 1 : named;
            next = nextIndex < calls.size() ? calls.get(nextIndex).stopId : null;
        }
        Double share = null;
        if (placed != null && along != null && placed.plane.length() > 0) {
            share = along / placed.plane.length();
        }
        String vehicleId = v.hasVehicle() && !v.getVehicle().getId().isEmpty() ? v.getVehicle().getId()
                : v.hasVehicle() && !v.getVehicle().getLabel().isEmpty() ? v.getVehicle().getLabel() : id;
        Long timestamp = v.hasTimestamp() ? Long.valueOf(v.getTimestamp()) : entry.headerTimestamp;
        return new Vehicle(vehicleId, trip.tripId, trip.realtimeTripId, trip.routeId, trip.line.directionIndex,
                named < 0 ? null : calls.get(named).stopId, lat, lon, along, share, next, status, timestamp);
    }

    /// `line` on the plane with its calls placed, each projected onto the segments from the
    /// previous call's on; null when it has no point.
    private Placed placed(TripLine line) {
        if (lines.containsKey(line.tripId)) {
            return lines.get(line.tripId);
        }
        List<double[]> points = line.polyline == null ? List.of() : LinePlane.decode(line.polyline);
        if (points.size() < 2) {
            points = new ArrayList<>();
            for (TripLine.Call call : line.calls) {
                if (call.lat != null && call.lon != null) {
                    points.add(new double[] {call.lat, call.lon});
                }
            }
        }
        Placed placed = null;
        if (!points.isEmpty()) {
            LinePlane plane = new LinePlane(points);
            int[] segment = new int[line.calls.size()];
            double[] distance = new double[line.calls.size()];
            int from = 0;
            double last = 0;
            for (int i = 0; i < line.calls.size(); i++) {
                TripLine.Call call = line.calls.get(i);
                if (call.lat == null || call.lon == null) {
                    segment[i] = from;
                    distance[i] = last;
                    continue;
                }
                LinePlane.Snap snap = plane.snap(call.lat, call.lon, from);
                segment[i] = snap.segment;
                distance[i] = snap.distance;
                from = snap.segment;
                last = snap.distance;
            }
            placed = new Placed(plane, segment, distance);
        }
        lines.put(line.tripId, placed);
        return placed;
    }
}
