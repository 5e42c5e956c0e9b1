package org.feedc.client.live;

import java.sql.SQLException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/// Live departures at a stop (docs/live.md, section 5): the scheduled departures of the
/// documented `next_departures` query asked an hour before the moment (a trip up to an hour
/// late is still shown), each predicted from its run's TripUpdate, added trips' and duplicated
/// runs' calls at the stop added; kept from the moment on (skipped and canceled ones by their
/// scheduled time), sorted by time, trip and service date, the first `limit`, the query's rows
/// doubled (from `limit` + 100, at most 10,000) while too few are kept.
final class LiveDepartures {
    /// A trip up to this late is still shown.
    private static final long LOOK_BACK = 3600;
    private static final int EXTRA_ROWS = 100;
    private static final int MAX_ROWS = 10_000;

    private final LiveView view;

    LiveDepartures(LiveView view) {
        this.view = view;
    }

    List<Departure> at(String stopId, int limit, String language) throws SQLException {
        LiveBundle bundle = view.bundle;
        ZoneId zone = bundle.zone(stopId);
        Map<String, LiveRun> byRun = new HashMap<>();
        List<LiveRun> extra = new ArrayList<>();
        for (LiveRun run : view.runs()) {
            if (run.trip.kind == JoinedTrip.Kind.ADDED || run.trip.kind == JoinedTrip.Kind.DUPLICATED) {
                extra.add(run);
            } else {
                byRun.put(run.trip.key(), run);  // two updates of one run: the later
            }
        }
        long[] moment = ServiceDay.parameters(view.at - LOOK_BACK, zone);
        int n = limit + EXTRA_ROWS;
        while (true) {
            List<Object[]> rows = bundle.rows("next_departures", LiveBundle.values("date", moment[0], "after", moment[1],
                    "previous_after", moment[2], "stop_id", stopId, "limit", (long) n, "lang", language));
            List<Departure> all = new ArrayList<>();
            for (Object[] row : rows) {
                all.add(scheduled(row, stopId, zone, byRun));
            }
            for (LiveRun run : extra) {
                added(run, stopId, all);
            }
            List<Departure> kept = new ArrayList<>();
            for (Departure departure : all) {
                Long time = departure.time();
                if (time != null && time >= view.at) {
                    kept.add(departure);
                }
            }
            kept.sort(Comparator.comparing(Departure::time).thenComparing(d -> d.tripId).thenComparingInt(d -> d.serviceDate));
            if (kept.size() >= limit || rows.size() < n || n >= MAX_ROWS) {
                return kept.subList(0, Math.min(limit, kept.size()));
            }
            n = Math.min(2 * n, MAX_ROWS);
        }
    }

    /// A row of `next_departures`, predicted from its run's TripUpdate where there is one.
    private Departure scheduled(Object[] row, String stopId, ZoneId zone, Map<String, LiveRun> byRun) throws SQLException {
        String tripId = (String) row[0];
        String routeId = (String) row[1];
        String headsign = (String) row[2];
        long departure = (Long) row[3];
        int serviceDate = ((Long) row[5]).intValue();
        long start = (Long) row[9];
        long scheduled = ServiceDay.start(serviceDate, zone) + departure;
        TripLine line = view.bundle.line(tripId);
        int index = -1;
        for (int i = 0; line != null && i < line.calls.size() && index < 0; i++) {
            TripLine.Call call = line.calls.get(i);
            if (call.stopId.equals(stopId) && call.departureOffset != null && start + call.departureOffset == departure) {
                index = i;
            }
        }
        Long sequence = index < 0 ? null : Long.valueOf(line.calls.get(index).stopSequence);
        LiveRun run = byRun.get(JoinedTrip.key(tripId, serviceDate, start));
        if (run == null || index < 0) {
            return new Departure(tripId, routeId, stopId, sequence, serviceDate, headsign, scheduled, null, null,
                    "scheduled", "scheduled");
        }
        PredictedCall call = run.calls.get(index);
        return new Departure(tripId, routeId, stopId, sequence, serviceDate, headsign, scheduled, call.predictedDeparture,
                call.delay(), call.status, run.trip.kind.json());
    }

    /// An added trip's or a duplicated run's calls at `stopId`.
    private static void added(LiveRun run, String stopId, List<Departure> out) {
        JoinedTrip trip = run.trip;
        for (PredictedCall call : run.calls) {
            if (!call.stopId.equals(stopId)) {
                continue;
            }
            if (trip.kind == JoinedTrip.Kind.ADDED) {
                out.add(new Departure(trip.tripId, trip.routeId, stopId, call.stopSequence, trip.serviceDate, run.headsign,
                        null, call.predictedDeparture, null, "added", "added"));
            } else if (call.call.stopIndex < trip.line.calls.size() - 1 && call.scheduledDeparture != null) {
                String headsign = run.headsign != null ? run.headsign : trip.line.headsign;
                out.add(new Departure(trip.tripId, trip.routeId, stopId, call.stopSequence, trip.serviceDate, headsign,
                        call.scheduledDeparture, call.predictedDeparture, call.delay(), call.status, "duplicated"));
            }
        }
    }
}
