package org.feedc.client.live;

import java.sql.SQLException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/// A place's live departures (docs/live.md, section 5, `--place`): the departures of every stop
/// of the place (the stop, its station, the stations `same_places` links to either, and their
/// stops: `LiveBundle.placeStops`), from the documented `place_departures` query asked an hour
/// before the moment, each predicted from its run's TripUpdate, the duplicated runs' and added
/// trips' calls there added; kept from the moment on (by the predicted time, else the
/// scheduled), sorted by time, trip and service date, each run once (its earliest departure),
/// the first `limit`; the query's rows doubled (from `limit` + 100, at most 10,000) while too
/// few are kept. As the Python client's `place_departures`, step for step: a stop the bundle
/// does not have is a place with no departures.
final class PlaceDepartures {
    private static final long LOOK_BACK = 3600;
    private static final int EXTRA_ROWS = 100;
    private static final int MAX_ROWS = 10_000;

    private final LiveView view;

    PlaceDepartures(LiveView view) {
        this.view = view;
    }

    /// A departure with the run it belongs to (what `once` keeps apart).
    private static final class Found {
        final String run;
        final Departure departure;

        Found(String run, Departure departure) {
            this.run = run;
            this.departure = departure;
        }

        Long time() {
            return departure.predicted != null ? departure.predicted : departure.scheduled;
        }
    }

    List<Departure> at(String stopId, int limit) throws SQLException {
        LiveBundle bundle = view.bundle;
        ZoneId zone = bundle.zone(null);
        Set<String> stops = new HashSet<>(bundle.placeStops(stopId));
        RunIndex index = new RunIndex(view);
        List<Found> extra = extra(index, stops);
        long[] moment = ServiceDay.parameters(view.at - LOOK_BACK, zone);
        int n = limit + EXTRA_ROWS;
        while (true) {
            List<Object[]> rows = bundle.rows("place_departures", LiveBundle.values("stop_id", stopId, "date", moment[0],
                    "after", moment[1], "previous_after", moment[2], "limit", (long) n));
            List<Found> found = scheduled(rows, index, zone);
            found.addAll(extra);
            List<Departure> kept = kept(found, limit);
            if (kept.size() >= limit || rows.size() < n || n >= MAX_ROWS) {
                return kept;
            }
            n = Math.min(2 * n, MAX_ROWS);
        }
    }

    /// From the moment on, sorted, each run once, the first `limit`.
    private List<Departure> kept(List<Found> found, int limit) {
        List<Found> kept = new ArrayList<>();
        for (Found one : found) {
            Long time = one.time();
            if (time != null && time >= view.at) {
                kept.add(one);
            }
        }
        kept.sort(Comparator.comparing(Found::time).thenComparing(f -> f.departure.tripId, LiveTally::compareCodePoints)
                .thenComparingInt(f -> f.departure.serviceDate));
        Set<String> seen = new HashSet<>();
        List<Departure> out = new ArrayList<>();
        for (Found one : kept) {
            if (out.size() < limit && seen.add(one.run)) {
                out.add(one.departure);
            }
        }
        return out;
    }

    /// The rows of `place_departures`, each the call of its run at the row's stop whose
    /// scheduled departure is the row's (a row with no such call is left out).
    private List<Found> scheduled(List<Object[]> rows, RunIndex index, ZoneId zone) throws SQLException {
        List<Found> out = new ArrayList<>();
        for (Object[] row : rows) {
            if (!(row[0] instanceof String) || !(row[8] instanceof Long) || !(row[12] instanceof Long) || !(row[6] instanceof Long)) {
                continue;
            }
            String tripId = (String) row[0];
            String routeId = (String) row[1];
            String stop = (String) row[4];
            String headsign = (String) row[5];
            int serviceDate = ((Long) row[8]).intValue();
            long start = (Long) row[12];
            long scheduled = ServiceDay.start(serviceDate, zone) + (Long) row[6];
            String key = JoinedTrip.key(tripId, serviceDate, start);
            LiveRun run = index.run(tripId, serviceDate, start);
            if (run != null) {
                for (PredictedCall call : run.calls) {
                    if (call.stopId.equals(stop) && call.scheduledDeparture != null && call.scheduledDeparture == scheduled) {
                        out.add(new Found(key, departure(tripId, routeId, call, serviceDate, headsign, run.trip.kind.json())));
                        break;
                    }
                }
                continue;
            }
            TripLine line = view.bundle.line(tripId);
            for (int i = 0; line != null && i < line.calls.size(); i++) {
                TripLine.Call call = line.calls.get(i);
                if (call.stopId.equals(stop) && call.departureOffset != null && start + call.departureOffset == (Long) row[6]) {
                    out.add(new Found(key, new Departure(tripId, routeId, stop, call.stopSequence, serviceDate, headsign,
                            scheduled, null, null, "scheduled", "scheduled")));
                    break;
                }
            }
        }
        return out;
    }

    /// The duplicated runs' and added trips' calls at one of `stops` but a trip's last (where it
    /// ends); a duplicated run's only where it has a scheduled departure.
    private static List<Found> extra(RunIndex index, Set<String> stops) {
        List<Found> out = new ArrayList<>();
        for (LiveRun run : index.duplicated()) {
            JoinedTrip trip = run.trip;
            for (int i = 0; i < run.calls.size() - 1; i++) {
                PredictedCall call = run.calls.get(i);
                if (stops.contains(call.stopId) && call.scheduledDeparture != null) {
                    out.add(new Found(trip.key(), departure(trip.tripId, trip.line.routeId, call, trip.serviceDate,
                            trip.line.headsign, "duplicated")));
                }
            }
        }
        for (LiveRun run : RunIndex.ofKind(index.extra.values(), JoinedTrip.Kind.ADDED)) {
            JoinedTrip trip = run.trip;
            for (int i = 0; i < run.calls.size() - 1; i++) {
                PredictedCall call = run.calls.get(i);
                if (stops.contains(call.stopId)) {
                    out.add(new Found(trip.key(), departure(trip.tripId, trip.routeId, call, trip.serviceDate, null, "added")));
                }
            }
        }
        return out;
    }

    /// A departure at `call`: its scheduled and predicted departures, delay and status.
    private static Departure departure(String tripId, String routeId, PredictedCall call, int serviceDate, String headsign,
                                       String trip) {
        return new Departure(tripId, routeId, call.stopId, call.stopSequence, serviceDate, headsign, call.scheduledDeparture,
                call.predictedDeparture, call.delay(), call.status, trip);
    }
}
