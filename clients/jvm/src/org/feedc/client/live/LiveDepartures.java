package org.feedc.client.live;

import java.sql.SQLException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

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
        ZoneId zone = bundle.zone(null);  // service days are the first agency's (docs/live.md, section 3)
        RunIndex index = new RunIndex(view);  // the newest update of each run
        List<Departure> added = new ArrayList<>();
        for (LiveRun run : index.extra.values()) {
            added(run, stopId, added);
        }
        long[] moment = ServiceDay.parameters(view.at - LOOK_BACK, zone);
        int n = limit + EXTRA_ROWS;
        while (true) {
            List<Object[]> rows = bundle.rows("next_departures", LiveBundle.values("date", moment[0], "after", moment[1],
                    "previous_after", moment[2], "stop_id", stopId, "limit", (long) n, "lang", language));
            List<Departure> all = new ArrayList<>(added);
            for (Object[] row : rows) {
                all.add(scheduled(row, stopId, zone, index));
            }
            List<Departure> kept = new ArrayList<>();
            for (Departure departure : all) {
                Long time = departure.time();
                if (time != null && time >= view.at) {
                    kept.add(departure);
                }
            }
            kept.sort(Comparator.comparing(Departure::time).thenComparing(d -> d.tripId, LiveTally::compareCodePoints)
                    .thenComparingInt(d -> d.serviceDate));
            if (kept.size() >= limit || rows.size() < n || n >= MAX_ROWS) {
                return kept.subList(0, Math.min(limit, kept.size()));
            }
            n = Math.min(2 * n, MAX_ROWS);
        }
    }

    /// A row of `next_departures`, predicted from its run's TripUpdate where there is one: the
    /// call of its run at this stop whose scheduled departure is the row's.
    private Departure scheduled(Object[] row, String stopId, ZoneId zone, RunIndex runs) throws SQLException {
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
        LiveRun run = runs.run(tripId, serviceDate, start);
        if (run == null || index < 0) {
            return new Departure(tripId, routeId, stopId, sequence, serviceDate, headsign, scheduled, null, null,
                    "scheduled", "scheduled");
        }
        PredictedCall call = run.calls.get(index);
        return new Departure(tripId, routeId, stopId, sequence, serviceDate, headsign, call.scheduled(), call.live(),
                call.delay(), call.status, run.trip.kind.json());
    }

    /// An added trip's or a duplicated run's calls at `stopId`, but its last (where it ends).
    static void added(LiveRun run, String stopId, List<Departure> out) {
        JoinedTrip trip = run.trip;
        for (int i = 0; i < run.calls.size() - 1; i++) {
            PredictedCall call = run.calls.get(i);
            if (!call.stopId.equals(stopId)) {
                continue;
            }
            if (trip.kind == JoinedTrip.Kind.ADDED) {
                out.add(new Departure(trip.tripId, trip.routeId, stopId, call.stopSequence, trip.serviceDate, null,
                        null, call.predictedDeparture, null, "added", "added"));
            } else {
                out.add(new Departure(trip.tripId, trip.routeId, stopId, call.stopSequence, trip.serviceDate, trip.line.headsign,
                        call.scheduled(), call.live(), call.delay(), call.status, "duplicated"));
            }
        }
    }
}
