package org.feedc.client.live;

import com.google.transit.realtime.GtfsRealtime.TripUpdate;
import com.google.transit.realtime.GtfsRealtime.TripUpdate.StopTimeEvent;
import com.google.transit.realtime.GtfsRealtime.TripUpdate.StopTimeUpdate;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/// The calls of a joined run predicted from its TripUpdate (docs/live.md, section 4): stop time
/// updates matched to calls by `stop_sequence`, else by `stop_id` after the previous match;
/// each call's status and times by the doc's table, a delay carried forward (from the
/// TripUpdate's own `delay` until the first update), never backward. An update `UNSCHEDULED`
/// is taken as `SCHEDULED` (its events are used), and so is a relationship the schema does not
/// know (protobuf-java reads it as the default). What cannot be used is counted in the tally
/// and left out.
final class Prediction {
    /// One day: an event further from its scheduled time is out of range.
    private static final long DAY = 86_400;

    private Prediction() {
    }

    /// The calls of `run`; `update` (null: none) is its TripUpdate, from entity `entityId`.
    static List<PredictedCall> calls(JoinedTrip run, TripUpdate update, String prefix, LiveBundle bundle,
                                     String entityId, LiveTally tally) throws SQLException {
        List<TripLine.Call> calls = run.line.calls;
        long base = run.base();
        List<PredictedCall> out = new ArrayList<>(calls.size());
        if (run.kind == JoinedTrip.Kind.CANCELED) {
            for (TripLine.Call call : calls) {
                out.add(new PredictedCall(call, call.stopId, call.stopSequence, "canceled", plus(base, call.arrivalOffset),
                        plus(base, call.departureOffset), null, null));
            }
            return out;
        }
        Map<Integer, StopTimeUpdate> matched = update == null ? Map.of() : match(calls, update, prefix, entityId, tally);
        Long carry = update != null && update.hasDelay() ? Long.valueOf(update.getDelay()) : null;
        Long lastDeparture = null;
        for (int i = 0; i < calls.size(); i++) {
            TripLine.Call call = calls.get(i);
            Long arrival = plus(base, call.arrivalOffset);
            Long departure = plus(base, call.departureOffset);
            StopTimeUpdate u = matched.get(i);
            String status;
            Long predictedArrival = null;
            Long predictedDeparture = null;
            if (u == null) {
                if (carry != null) {
                    status = "propagated";
                    predictedArrival = plus(arrival, carry);
                    predictedDeparture = plus(departure, carry);
                } else {
                    status = "scheduled";
                }
            } else if (u.getScheduleRelationship() == StopTimeUpdate.ScheduleRelationship.SKIPPED) {
                status = "skipped";
            } else if (u.getScheduleRelationship() == StopTimeUpdate.ScheduleRelationship.NO_DATA) {
                status = "scheduled";
                carry = null;
            } else {
                long[] a = u.hasArrival() ? event(u.getArrival(), arrival, entityId, tally) : null;
                long[] d = u.hasDeparture() ? event(u.getDeparture(), departure, entityId, tally) : null;
                if (a == null && d == null) {
                    status = "scheduled";
                } else {
                    status = "predicted";
                    Long arrivalDelay = a == null || arrival == null ? null : Long.valueOf(a[0] - arrival);
                    Long departureDelay = d == null || departure == null ? null : Long.valueOf(d[0] - departure);
                    predictedArrival = a != null ? Long.valueOf(a[0]) : plus(arrival, departureDelay);
                    if (d != null) {
                        predictedDeparture = d[0];
                    } else {
                        predictedDeparture = plus(departure, arrivalDelay);
                        if (predictedDeparture != null && predictedArrival != null && predictedDeparture < predictedArrival) {
                            predictedDeparture = predictedArrival;
                        }
                    }
                    carry = departureDelay != null ? departureDelay : arrivalDelay;  // none when neither has a schedule
                }
            }
            if (predictedDeparture != null) {
                if (lastDeparture != null && predictedDeparture < lastDeparture) {
                    tally.count("times_out_of_order", entityId);
                }
                lastDeparture = predictedDeparture;
            }
            out.add(new PredictedCall(call, call.stopId, call.stopSequence, status, arrival, departure, predictedArrival,
                    predictedDeparture));
        }
        return out;
    }

    /// Each usable stop time update by the index of the call it names.
    private static Map<Integer, StopTimeUpdate> match(List<TripLine.Call> calls, TripUpdate update, String prefix,
                                                      String entityId, LiveTally tally) {
        Map<Integer, StopTimeUpdate> matched = new HashMap<>();
        int previous = -1;
        for (StopTimeUpdate u : update.getStopTimeUpdateList()) {
            int index = -1;
            if (u.hasStopSequence()) {
                for (int i = 0; i < calls.size() && index < 0; i++) {
                    if (calls.get(i).stopSequence == Integer.toUnsignedLong(u.getStopSequence())) {
                        index = i;
                    }
                }
                if (index < 0) {
                    tally.count("unknown_stop_sequence", entityId);
                    continue;
                }
            } else {
                String stop = u.hasStopId() ? prefix + u.getStopId() : null;
                for (int i = previous + 1; stop != null && i < calls.size() && index < 0; i++) {
                    if (calls.get(i).stopId.equals(stop)) {
                        index = i;
                    }
                }
                if (index < 0) {
                    tally.count("unknown_stop", entityId);
                    continue;
                }
            }
            if (index <= previous) {
                tally.count("out_of_order", entityId);
                continue;
            }
            matched.put(index, u);
            previous = index;
        }
        return matched;
    }

    /// A stop time event's time (`time`, else the scheduled time + `delay`) as `{time}`; null
    /// when it gives none or one out of range (0 or negative, or over a day from the schedule).
    private static long[] event(StopTimeEvent event, Long scheduled, String entityId, LiveTally tally) {
        long time;
        if (event.hasTime()) {
            time = event.getTime();
        } else if (event.hasDelay() && scheduled != null) {
            time = scheduled + event.getDelay();
        } else {
            return null;
        }
        if (time <= 0 || (scheduled != null && Math.abs(time - scheduled) > DAY)) {
            tally.count("time_out_of_range", entityId);
            return null;
        }
        return new long[] {time};
    }

    /// The last instant every zone writes as a date: 9999-12-31T00:00:00Z.
    static final long MAX_INSTANT = 253_402_214_400L;

    /// An added trip's calls: each stop time update at a stop the bundle has (else counted
    /// `unknown_stop`), whatever its relationship, at its departure's `time`, else its
    /// arrival's (neither: `added_without_time`; a time 0 or less or past `MAX_INSTANT` is
    /// counted `time_out_of_range`, once for the update, and dropped).
    static List<PredictedCall> added(TripUpdate update, String prefix, LiveBundle bundle, String entityId,
                                     LiveTally tally) throws SQLException {
        List<PredictedCall> out = new ArrayList<>();
        for (StopTimeUpdate u : update.getStopTimeUpdateList()) {
            if (!u.hasStopId() || bundle.stop(prefix + u.getStopId()) == null) {
                tally.count("unknown_stop", entityId);
                continue;
            }
            Long arrival = u.hasArrival() && u.getArrival().hasTime() ? Long.valueOf(u.getArrival().getTime()) : null;
            Long departure = u.hasDeparture() && u.getDeparture().hasTime() ? Long.valueOf(u.getDeparture().getTime()) : null;
            if (arrival == null && departure == null) {
                tally.count("added_without_time", entityId);
                continue;
            }
            if (!inRange(arrival) || !inRange(departure)) {
                tally.count("time_out_of_range", entityId);
                arrival = inRange(arrival) ? arrival : null;
                departure = inRange(departure) ? departure : null;
                if (arrival == null && departure == null) {
                    continue;
                }
            }
            long time = departure != null ? departure : arrival;
            out.add(new PredictedCall(null, prefix + u.getStopId(),
                    u.hasStopSequence() ? Long.valueOf(Integer.toUnsignedLong(u.getStopSequence())) : null, "added", null, null,
                    arrival != null ? arrival : departure, time));
        }
        return out;
    }

    private static boolean inRange(Long time) {
        return time == null || (time > 0 && time <= MAX_INSTANT);
    }

    private static Long plus(Long time, Long seconds) {
        return time == null || seconds == null ? null : Long.valueOf(time + seconds);
    }

    private static Long plus(long time, Long seconds) {
        return seconds == null ? null : Long.valueOf(time + seconds);
    }
}
