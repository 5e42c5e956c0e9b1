package org.feedc.client.live;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/// The live answers as lines for a terminal (`feedc-jvm live` without `--json`).
final class LiveText {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private LiveText() {
    }

    private static String clock(Long epoch, ZoneId zone) {
        return epoch == null ? "--:--:--" : CLOCK.format(Instant.ofEpochSecond(epoch).atZone(zone));
    }

    /// `00:31:48  (00:31:00)  V2  feed:32097060  to Somewhere  predicted +48 s`
    static String departure(Departure d, ZoneId zone) {
        String delay = d.delay == null ? "" : String.format(" %+d s", d.delay);
        return clock(d.time(), zone) + "  (" + clock(d.scheduled, zone) + ")  " + (d.routeId == null ? "-" : d.routeId) + "  " + d.tripId + "  "
                + (d.headsign == null ? "" : d.headsign) + "  " + d.status + delay
                + (d.trip.equals("scheduled") ? "" : " [" + d.trip + "]");
    }

    /// `trip T  route R  20240209 scheduled  last S  next S  +48 s`, then a line a call:
    /// `   3  STOP  23:47:48 (23:47:00)  predicted +48 s  <- next`
    static String trip(TripProgress p, ZoneId zone) {
        Long delay = p.delay();
        StringBuilder out = new StringBuilder("trip " + p.tripId + "  route " + p.routeId + "  " + p.serviceDate + " " + p.trip
                + "  last " + (p.last < 0 ? "-" : p.calls.get(p.last).stopId)
                + "  next " + (p.next < 0 ? "-" : p.calls.get(p.next).stopId)
                + (delay == null ? "" : String.format("  %+d s", delay)));
        for (int i = 0; i < p.calls.size(); i++) {
            PredictedCall c = p.calls.get(i);
            Long live = c.live();
            Long callDelay = c.delay();
            out.append('\n').append(String.format("%4s", c.stopSequence == null ? "-" : c.stopSequence.toString())).append("  ")
                    .append(c.stopId).append("  ").append(clock(live != null ? live : c.scheduled(), zone))
                    .append(" (").append(clock(c.scheduled(), zone)).append(")  ").append(c.status)
                    .append(callDelay == null ? "" : String.format(" %+d s", callDelay))
                    .append(i == p.last ? "  <- last" : i == p.next ? "  <- next" : "");
        }
        return out.toString();
    }

    /// `vehicle 3266  trip T  route R  at STOP  1234.5 m (25.0%)  next NEXT  STOPPED_AT`
    static String vehicle(Vehicle v) {
        String along = v.distanceAlong == null ? "" : String.format("  %.1f m", v.distanceAlong)
                + (v.share == null ? "" : String.format(" (%.1f%%)", v.share * 100));
        return "vehicle " + v.vehicleId + "  trip " + v.tripId + "  route " + v.routeId
                + (v.stopId == null ? "" : "  at " + v.stopId) + along
                + (v.nextStopId == null ? "" : "  next " + v.nextStopId) + (v.status == null ? "" : "  " + v.status);
    }

    /// `alert ID (active) EFFECT: header  [stops …] [routes …]`
    static String alert(AlertView a) {
        return "alert " + a.id + (a.active ? " (active) " : " (inactive) ") + a.effect + ": "
                + (a.header == null ? "" : a.header) + (a.stops.isEmpty() ? "" : "  stops " + String.join(" ", a.stops))
                + (a.routes.isEmpty() ? "" : "  routes " + String.join(" ", a.routes));
    }

    /// One line per message and one in all: entities, joined by kind, and the reasons counted.
    @SuppressWarnings("unchecked")
    static String report(Map<String, Object> report) {
        StringBuilder out = new StringBuilder();
        for (Object each : (List<Object>) report.get("messages")) {
            Map<String, Object> message = (Map<String, Object>) each;
            out.append(message.get("feed")).append(": ").append(counts(message)).append('\n');
        }
        out.append("in all: ").append(counts(report)).append(", ")
                .append(Boolean.TRUE.equals(report.get("stale")) ? "stale" : "not stale");
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    private static String counts(Map<String, Object> part) {
        StringBuilder out = new StringBuilder();
        out.append(part.get("entities")).append(" entities");
        for (String kind : LiveTally.KINDS) {
            Map<String, Object> counted = (Map<String, Object>) part.get(kind);
            out.append(", ").append(counted.get("joined")).append('/').append(counted.get("total")).append(' ')
                    .append(kind).append(" joined");
        }
        for (Map.Entry<String, Object> reason : ((Map<String, Object>) part.get("reasons")).entrySet()) {
            Map<String, Object> one = (Map<String, Object>) reason.getValue();
            out.append(", ").append(reason.getKey()).append(' ').append(one.get("count")).append(' ').append(one.get("examples"));
        }
        return out.toString();
    }
}
