package org.feedc.client.live;

import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;

/// One vehicle whose trip joins (docs/live.md, section 5), placed on its trip's line.
public final class Vehicle {
    /// `vehicle.id`, else `vehicle.label`, else the entity's id.
    public final String vehicleId;
    /// The bundle's trip and route.
    public final String tripId;
    public final String realtimeTripId;
    public final String routeId;
    /// The user-facing direction of the trip's pattern.
    public final long directionIndex;
    /// The bundle's stop of the call the message names, null without one.
    public final String stopId;
    /// The reported position snapped to the line, or (without one) the named call's stop's;
    /// null when there is neither.
    public final Double lat;
    public final Double lon;
    /// Metres along the line, null when the line has no point.
    public final Double distanceAlong;
    /// Distance along ÷ the line's length, null when it has no length.
    public final Double share;
    public final String nextStopId;
    /// `current_status`'s name; `IN_TRANSIT_TO` (the schema's default) when the message gives none.
    public final String status;
    /// The vehicle's own `timestamp`, epoch seconds; null without one.
    public final Long timestamp;

    Vehicle(String vehicleId, String tripId, String realtimeTripId, String routeId, long directionIndex, String stopId,
            Double lat, Double lon, Double distanceAlong, Double share, String nextStopId, String status, Long timestamp) {
        this.vehicleId = vehicleId;
        this.tripId = tripId;
        this.realtimeTripId = realtimeTripId;
        this.routeId = routeId;
        this.directionIndex = directionIndex;
        this.stopId = stopId;
        this.lat = lat;
        this.lon = lon;
        this.distanceAlong = distanceAlong;
        this.share = share;
        this.nextStopId = nextStopId;
        this.status = status;
        this.timestamp = timestamp;
    }

    /// Its JSON object: the doc's keys in its order, `distance_along_m` rounded to 0.1 m,
    /// `share` to 0.0001, coordinates to 1e-6.
    public Map<String, Object> json(ZoneId zone) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("vehicle_id", vehicleId);
        out.put("trip_id", tripId);
        out.put("realtime_trip_id", realtimeTripId);
        out.put("route_id", routeId);
        out.put("stop_id", stopId);
        out.put("lat", round(lat, 1e6));
        out.put("lon", round(lon, 1e6));
        out.put("distance_along_m", round(distanceAlong, 10));
        out.put("share", round(share, 1e4));
        out.put("next_stop_id", nextStopId);
        out.put("status", status);
        out.put("timestamp", timestamp == null ? null : ServiceDay.iso(timestamp, zone));
        return out;
    }

    /// `value` rounded to 1 / `per` (half away from zero), as Swift's
    /// `(value * per).rounded() / per`.
    static Double round(Double value, double per) {
        if (value == null) {
            return null;
        }
        double scaled = Math.abs(value) * per;
        double whole = Math.floor(scaled);
        if (scaled - whole >= 0.5) {
            whole += 1;
        }
        return Math.copySign(whole, value) / per;
    }
}
