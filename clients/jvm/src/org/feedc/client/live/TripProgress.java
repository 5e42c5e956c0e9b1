package org.feedc.client.live;

import java.sql.SQLException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/// One trip's progress (docs/live.md, section 5, `tripProgress`): its calls with their status
/// and times, the last call whose time (predicted departure, else predicted arrival, else
/// scheduled departure, else scheduled arrival) is before the moment, the next one (the call
/// after it; the first when none is), and its delay (the next call's). The run is the one the
/// states predict (of `serviceDate` when given; the nearest to the moment by its start when
/// several, ties: the first), else the trip as scheduled on `serviceDate` (default: the calendar
/// date of the moment in the agency's zone). As the Python client's `trip_progress`, key for key.
public final class TripProgress {
    public final String tripId;
    public final String routeId;
    /// `YYYYMMDD`.
    public final int serviceDate;
    /// `scheduled`, `canceled` or `duplicated`.
    public final String trip;
    public final List<PredictedCall> calls;
    /// The position in `calls` of the last call passed, -1 when none is.
    public final int last;
    /// The position of the next call, -1 when there is none (the trip has ended).
    public final int next;

    private TripProgress(String tripId, String routeId, int serviceDate, String trip, List<PredictedCall> calls, int last,
                         int next) {
        this.tripId = tripId;
        this.routeId = routeId;
        this.serviceDate = serviceDate;
        this.trip = trip;
        this.calls = calls;
        this.last = last;
        this.next = next;
    }

    /// The progress of `tripId` (the bundle's) at the view's moment; null when the bundle has no
    /// such trip.
    static TripProgress of(LiveView view, String tripId, Integer serviceDate) throws SQLException {
        TripLine line = view.bundle.line(tripId);
        if (line == null) {
            return null;
        }
        RunIndex index = new RunIndex(view);
        List<LiveRun> candidates = new ArrayList<>(index.runs.values());
        candidates.addAll(index.duplicated());
        LiveRun best = null;
        long distance = 0;
        for (LiveRun run : candidates) {
            if (!run.trip.tripId.equals(tripId) || (serviceDate != null && run.trip.serviceDate != serviceDate)) {
                continue;
            }
            long away = Math.abs(run.trip.base() - view.at);
            if (best == null || away < distance) {
                best = run;
                distance = away;
            }
        }
        List<PredictedCall> calls;
        int date;
        String kind;
        if (best != null) {
            calls = best.calls;
            date = best.trip.serviceDate;
            kind = best.trip.kind.json();
        } else {
            ZoneId zone = view.bundle.zone(null);
            date = serviceDate != null ? serviceDate : ServiceDay.date(view.at, zone);
            JoinedTrip plain = new JoinedTrip(JoinedTrip.Kind.SCHEDULED, tripId, null, date, line.startTime, line,
                    line.routeId, zone, null);
            calls = Prediction.calls(plain, null, "", view.bundle, "", new LiveTally());
            kind = "scheduled";
        }
        int last = -1;
        for (int i = 0; i < calls.size(); i++) {
            Long seen = seen(calls.get(i));
            if (seen != null && seen < view.at) {
                last = i;
            }
        }
        int following = last + 1;
        return new TripProgress(tripId, line.routeId, date, kind, calls, last, following < calls.size() ? following : -1);
    }

    /// The time a call is passed by: its predicted departure, else predicted arrival, else
    /// scheduled departure, else scheduled arrival.
    private static Long seen(PredictedCall call) {
        if (call.predictedDeparture != null) {
            return call.predictedDeparture;
        }
        if (call.predictedArrival != null) {
            return call.predictedArrival;
        }
        return call.scheduledDeparture != null ? call.scheduledDeparture : call.scheduledArrival;
    }

    /// The next call's delay, null when there is no next call or it has none.
    public Long delay() {
        return next < 0 ? null : calls.get(next).delay();
    }

    /// Its JSON object (the Python client's keys in its order), times with `zone`'s offset.
    public Map<String, Object> json(ZoneId zone) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("trip_id", tripId);
        out.put("route_id", routeId);
        out.put("service_date", (long) serviceDate);
        out.put("trip", trip);
        List<Object> shown = new ArrayList<>();
        for (PredictedCall call : calls) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("stop_sequence", call.stopSequence);
            one.put("stop_id", call.stopId);
            one.put("status", call.status);
            one.put("scheduled_arrival", iso(call.scheduledArrival, zone));
            one.put("scheduled_departure", iso(call.scheduledDeparture, zone));
            one.put("predicted_arrival", iso(call.predictedArrival, zone));
            one.put("predicted_departure", iso(call.predictedDeparture, zone));
            one.put("delay_s", call.delay());
            shown.add(one);
        }
        out.put("calls", shown);
        out.put("last_stop_id", last < 0 ? null : calls.get(last).stopId);
        out.put("next_stop_id", next < 0 ? null : calls.get(next).stopId);
        out.put("delay_s", delay());
        return out;
    }

    private static String iso(Long epoch, ZoneId zone) {
        return epoch == null ? null : ServiceDay.iso(epoch, zone);
    }
}
