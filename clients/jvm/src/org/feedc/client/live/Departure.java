package org.feedc.client.live;

import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;

/// One live departure at a stop (docs/live.md, section 5). Times are epoch seconds.
public final class Departure {
    /// The bundle's trip id; an added trip's: the source's prefix + its real-time id.
    public final String tripId;
    public final String routeId;
    public final String stopId;
    public final Long stopSequence;
    /// `YYYYMMDD`.
    public final int serviceDate;
    public final String headsign;
    /// Null for an added trip.
    public final Long scheduled;
    /// Null when not predicted.
    public final Long predicted;
    public final Long delay;
    /// `scheduled`, `predicted`, `propagated`, `skipped`, `canceled` or `added`.
    public final String status;
    /// `scheduled`, `canceled`, `added` or `duplicated`.
    public final String trip;

    Departure(String tripId, String routeId, String stopId, Long stopSequence, int serviceDate, String headsign,
              Long scheduled, Long predicted, Long delay, String status, String trip) {
        this.tripId = tripId;
        this.routeId = routeId;
        this.stopId = stopId;
        this.stopSequence = stopSequence;
        this.serviceDate = serviceDate;
        this.headsign = headsign;
        this.scheduled = scheduled;
        this.predicted = predicted;
        this.delay = delay;
        this.status = status;
        this.trip = trip;
    }

    /// The time it is sorted and kept by: a skipped or canceled call's scheduled time, else the
    /// predicted time, else the scheduled.
    public Long time() {
        if (status.equals("skipped") || status.equals("canceled")) {
            return scheduled;
        }
        return predicted != null ? predicted : scheduled;
    }

    /// Its JSON object, the doc's keys in the doc's order, times with `zone`'s offset.
    public Map<String, Object> json(ZoneId zone) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("trip_id", tripId);
        out.put("route_id", routeId);
        out.put("stop_id", stopId);
        out.put("stop_sequence", stopSequence);
        out.put("service_date", (long) serviceDate);
        out.put("headsign", headsign);
        out.put("scheduled", scheduled == null ? null : ServiceDay.iso(scheduled, zone));
        out.put("predicted", predicted == null ? null : ServiceDay.iso(predicted, zone));
        out.put("delay_s", delay);
        out.put("status", status);
        out.put("trip", trip);
        return out;
    }
}
