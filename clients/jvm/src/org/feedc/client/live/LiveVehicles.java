package org.feedc.client.live;

import com.google.transit.realtime.GtfsRealtime.FeedEntity;
import com.google.transit.realtime.GtfsRealtime.VehiclePosition;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/// Vehicles (docs/live.md, section 5): each VehiclePosition whose trip joins (a vehicle of an
/// added trip has no line of the bundle: left out, not counted), placed on its trip's line (its
/// pattern's shape, else the line through its stops). With a position it is snapped to the line,
/// the segments searched from the segment of the call before the one the message names (the
/// named call's own for the first call, every segment when none is named): its place, distance
/// and next stop are the snap's. Without one it is at the call the message names (its stop's
/// place; `STOPPED_AT` makes the call after it the next stop, `IN_TRANSIT_TO`, the default, and
/// `INCOMING_AT` the named one); when that call is not on the trip, or none is named, the vehicle
/// is listed with no place.
final class LiveVehicles {
    private final LiveView view;
    private final Map<String, Placed> lines = new HashMap<>();

    /// A trip's line on the plane, and each call's segment and distance along it (-1 and NaN for
    /// a call whose stop has no place).
    private static final class Placed {
        final LinePlane plane;
        final int[] segment;
        final double[] distance;

        Placed(LinePlane plane, int[] segment, double[] distance) {
            this.plane = plane;
            this.segment = segment;
            this.distance = distance;
        }

        Double distance(int call) {
            return Double.isNaN(distance[call]) ? null : Double.valueOf(distance[call]);
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

    /// The vehicles among `entries` of `state`, each counted as a vehicle of the report (joined:
    /// its trip joins).
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
        JoinedTrip trip = join.join(v.getTrip(), LiveView.stamp(v.hasTimestamp(), v.getTimestamp(), entry), null, id, tally);
        if (trip == null) {  // not joined (counted), or an added trip (not counted)
            return null;
        }
        List<TripLine.Call> calls = trip.line.calls;
        int named = -1;
        if (v.hasCurrentStopSequence()) {
            long sequence = Integer.toUnsignedLong(v.getCurrentStopSequence());
            for (int i = 0; i < calls.size() && named < 0; i++) {
                if (calls.get(i).stopSequence == sequence) {
                    named = i;
                }
            }
            if (named < 0) {
                tally.count("unknown_stop_sequence", id);
            }
        } else if (v.hasStopId()) {
            String stop = join.prefix() + v.getStopId();
            for (int i = 0; i < calls.size() && named < 0; i++) {
                if (calls.get(i).stopId.equals(stop)) {
                    named = i;
                }
            }
            if (named < 0) {
                tally.count("unknown_stop", id);
            }
        }
        String status = v.getCurrentStatus().name();  // IN_TRANSIT_TO when absent or not the schema's
        Placed placed = placed(trip.line);
        boolean position = v.hasPosition() && Float.isFinite(v.getPosition().getLatitude())
                && Float.isFinite(v.getPosition().getLongitude());
        Double lat = null;
        Double lon = null;
        Double along = null;
        String next = null;
        if (position && placed != null) {
            int before = named > 0 ? named - 1 : named;
            int from = before >= 0 && placed.segment[before] >= 0 ? placed.segment[before] : 0;
            LinePlane.Snap snap = placed.plane.snap(v.getPosition().getLatitude(), v.getPosition().getLongitude(), from);
            lat = snap.lat;
            lon = snap.lon;
            along = snap.distance;
            for (int i = 0; i < calls.size() && next == null; i++) {
                if (!Double.isNaN(placed.distance[i]) && placed.distance[i] > snap.distance) {
                    next = calls.get(i).stopId;
                }
            }
        } else if (named >= 0) {
            lat = calls.get(named).lat;
            lon = calls.get(named).lon;
            along = placed == null ? null : placed.distance(named);
            int nextIndex = status.equals("STOPPED_AT") ? named + 1 : named;
            next = nextIndex < calls.size() ? calls.get(nextIndex).stopId : null;
        }
        Double share = null;
        if (placed != null && along != null && placed.plane.length() > 0) {
            share = along / placed.plane.length();
        }
        String vehicleId = v.hasVehicle() && v.getVehicle().hasId() ? v.getVehicle().getId()
                : v.hasVehicle() && v.getVehicle().hasLabel() ? v.getVehicle().getLabel() : id;
        Long timestamp = v.hasTimestamp() ? LiveFeed.posix(v.getTimestamp()) : null;
        return new Vehicle(vehicleId, trip.tripId, v.getTrip().hasTripId() ? v.getTrip().getTripId() : null, trip.routeId,
                trip.line.directionIndex, named < 0 ? null : calls.get(named).stopId, lat, lon, along, share, next, status,
                timestamp);
    }

    /// `line` on the plane with its calls placed, each projected onto the segments from the
    /// previous placed call's on; null when it has no point.
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
            for (int i = 0; i < line.calls.size(); i++) {
                TripLine.Call call = line.calls.get(i);
                if (call.lat == null || call.lon == null) {
                    segment[i] = -1;
                    distance[i] = Double.NaN;
                    continue;
                }
                LinePlane.Snap snap = plane.snap(call.lat, call.lon, from);
                segment[i] = snap.segment;
                distance[i] = snap.distance;
                from = snap.segment;
            }
            placed = new Placed(plane, segment, distance);
        }
        lines.put(line.tripId, placed);
        return placed;
    }
}
