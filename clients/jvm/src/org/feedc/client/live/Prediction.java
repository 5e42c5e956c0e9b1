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
/// TripUpdate's own `delay` until the first update), never backward. What cannot be used is
/// counted in the tally and left out.
final class Prediction {
    /// One day: an event further from its scheduled time is out of range.
    private static final long DAY = 86_400;

    private Prediction() {
    }

    /// The calls of `run`; `update` (null: none) is its TripUpdate, from entity `entityId`.
    static List<PredictedCall> calls(JoinedTrip run, TripUpdate update, String prefix, LiveBundle bundle,
                                     String entityId, LiveTally tally) throws SQLException {
        if (run.kind == JoinedTrip.Kind.ADDED) {
            return added(update, prefix, bundle, entityId, tally);
        }
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
                    if (departureDelay != null) {
                        carry = departureDelay;
                    } else if (arrivalDelay != null) {
                        carry = arrivalDelay;
                    }
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
            if (u.getUnknownFields().hasField(StopTimeUpdate.SCHEDULE_RELATIONSHIP_FIELD_NUMBER)) {
                tally.count("unknown_enum", entityId);
                continue;
            }
            if (u.getScheduleRelationship() == StopTimeUpdate.ScheduleRelationship.UNSCHEDULED) {
                tally.count("unscheduled", entityId);
                continue;
            }
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

    /// An added trip's calls: each update's stop (the bundle's), its own departure time, else
    /// arrival time.
    private static List<PredictedCall> added(TripUpdate update, String prefix, LiveBundle bundle, String entityId,
                                             LiveTally tally) throws SQLException {
        List<PredictedCall> out = new ArrayList<>();
        if (update == null) {
            return out;
        }
        for (StopTimeUpdate u : update.getStopTimeUpdateList()) {
            if (!u.hasStopId() || bundle.stop(prefix + u.getStopId()) == null) {
                tally.count("unknown_stop", entityId);
                continue;
            }
            if (u.getUnknownFields().hasField(StopTimeUpdate.SCHEDULE_RELATIONSHIP_FIELD_NUMBER)) {
                tally.count("unknown_enum", entityId);
                continue;
            }
            if (u.getScheduleRelationship() != StopTimeUpdate.ScheduleRelationship.SCHEDULED) {
                continue;  // skipped or without data: an added trip has no schedule to show instead
            }
            long[] time = null;
            if (u.hasDeparture() && u.getDeparture().hasTime()) {
                time = event(u.getDeparture(), null, entityId, tally);
            } else if (u.hasArrival() && u.getArrival().hasTime()) {
                time = event(u.getArrival(), null, entityId, tally);
            } else {
                tally.count("added_without_time", entityId);
                continue;
            }
            if (time == null) {
                continue;
            }
            out.add(new PredictedCall(null, prefix + u.getStopId(), u.hasStopSequence() ? Long.valueOf(Integer.toUnsignedLong(u.getStopSequence())) : null,
                    "added", null, null, time[0], time[0]));
        }
        return out;
    }

    private static Long plus(Long time, Long seconds) {
        return time == null || seconds == null ? null : Long.valueOf(time + seconds);
    }

    private static Long plus(long time, Long seconds) {
        return seconds == null ? null : Long.valueOf(time + seconds);
    }
}
