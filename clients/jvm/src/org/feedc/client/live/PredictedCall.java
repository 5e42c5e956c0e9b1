package org.feedc.client.live;

/// One call of a joined run with its status and times (docs/live.md, section 4). Times are epoch
/// seconds, null where there is none.
public final class PredictedCall {
    /// The call of the bundle's trip; null for an added trip's call.
    public final TripLine.Call call;
    /// The bundle's stop id.
    public final String stopId;
    /// GTFS `stop_sequence` (an added trip's: its update's), null without one.
    public final Long stopSequence;
    /// `scheduled`, `predicted`, `propagated`, `skipped`, `canceled` or `added`.
    public final String status;
    public final Long scheduledArrival;
    public final Long scheduledDeparture;
    public final Long predictedArrival;
    public final Long predictedDeparture;

    PredictedCall(TripLine.Call call, String stopId, Long stopSequence, String status, Long scheduledArrival,
                  Long scheduledDeparture, Long predictedArrival, Long predictedDeparture) {
        this.call = call;
        this.stopId = stopId;
        this.stopSequence = stopSequence;
        this.status = status;
        this.scheduledArrival = scheduledArrival;
        this.scheduledDeparture = scheduledDeparture;
        this.predictedArrival = predictedArrival;
        this.predictedDeparture = predictedDeparture;
    }

    /// The call's delay (`delay_s`): predicted departure − scheduled departure, else predicted
    /// arrival − scheduled arrival; null where neither pair is whole.
    public Long delay() {
        if (predictedDeparture != null && scheduledDeparture != null) {
            return predictedDeparture - scheduledDeparture;
        }
        if (predictedArrival != null && scheduledArrival != null) {
            return predictedArrival - scheduledArrival;
        }
        return null;
    }

    /// The scheduled time a departure shows: the scheduled departure, else the scheduled arrival.
    public Long scheduled() {
        return scheduledDeparture != null ? scheduledDeparture : scheduledArrival;
    }

    /// The predicted time a departure shows: the predicted departure, else the predicted arrival.
    public Long live() {
        return predictedDeparture != null ? predictedDeparture : predictedArrival;
    }

    /// The departure a rider sees: predicted where there is one, else scheduled.
    public Long departure() {
        return predictedDeparture != null ? predictedDeparture : scheduledDeparture;
    }
}
