package org.feedc.client.live;

import com.google.transit.realtime.GtfsRealtime.FeedEntity;
import com.google.transit.realtime.GtfsRealtime.TripUpdate;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/// The live layer's answers (docs/live.md, section 5) over a bundle and a list of states, at one
/// moment: live departures at a stop (`LiveDepartures`) or a place (`PlaceDepartures`), one
/// trip's progress (`TripProgress`), vehicles (`LiveVehicles`), alerts
/// (`LiveAlerts`) and the join report (`LiveReport`). Every state must be of a source of the
/// bundle. `stale()` is true when any state is stale at the moment.
public final class LiveView {
    final LiveBundle bundle;
    final List<LiveFeed> states;
    /// The moment asked, epoch seconds.
    final long at;
    final long maxAge;
    private final Map<String, TripJoin> joins = new HashMap<>();
    private List<LiveRun> runs;

    public LiveView(LiveBundle bundle, List<LiveFeed> states, long at, long maxAge) {
        this.bundle = bundle;
        this.states = List.copyOf(states);
        this.at = at;
        this.maxAge = maxAge;
    }

    /// Whether any state is stale at the moment.
    public boolean stale() {
        for (LiveFeed state : states) {
            if (state.isStale(at, maxAge)) {
                return true;
            }
        }
        return false;
    }

    /// The join of source `source`'s ids; IllegalArgumentException when the bundle has no such source.
    TripJoin join(String source) throws SQLException {
        TripJoin join = joins.get(source);
        if (join == null) {
            String prefix = bundle.idPrefix(source);
            if (prefix == null) {
                throw new IllegalArgumentException("the bundle has no source " + source);
            }
            join = new TripJoin(bundle, source, prefix, bundle.zone(null), at);
            joins.put(source, join);
        }
        return join;
    }

    /// The time an entity is dated by: its own `timestamp` (`has`, `own`), else its message's;
    /// null when neither is given.
    static Long stamp(boolean has, long own, LiveFeed.Entry entry) {
        Long mine = has ? LiveFeed.posix(own) : null;
        return mine != null ? mine : entry.headerTimestamp;
    }

    /// Every TripUpdate of the states joined and predicted, in order (states, then entities);
    /// several may name one run (`LiveDepartures` takes the newest).
    public List<LiveRun> runs() throws SQLException {
        if (runs == null) {
            runs = new ArrayList<>();
            for (LiveFeed state : states) {
                runs.addAll(runs(state, state.entries(), new LiveTally()));
            }
        }
        return runs;
    }

    /// The TripUpdates among `entries` of `state` joined and predicted, what did not join
    /// counted in `tally`, and each counted as a trip update of the report (joined: a run of the
    /// bundle, or an added trip with at least one call).
    List<LiveRun> runs(LiveFeed state, List<LiveFeed.Entry> entries, LiveTally tally) throws SQLException {
        TripJoin join = join(state.source);
        List<LiveRun> out = new ArrayList<>();
        for (LiveFeed.Entry entry : entries) {
            FeedEntity entity = entry.entity;
            if (!entity.hasTripUpdate()) {
                continue;
            }
            TripUpdate update = entity.getTripUpdate();
            Long stamp = stamp(update.hasTimestamp(), update.getTimestamp(), entry);
            LiveRun run;
            if (TripJoin.isAdded(update.getTrip())) {
                run = join.added(update, stamp, entity.getId(), tally);
            } else {
                JoinedTrip trip = join.join(update.getTrip(), stamp,
                        update.hasTripProperties() ? update.getTripProperties() : null, entity.getId(), tally);
                run = trip == null ? null
                        : new LiveRun(trip, Prediction.calls(trip, update, join.prefix(), bundle, entity.getId(), tally), entity.getId());
            }
            tally.entity("trip_updates", run != null);
            if (run != null) {
                out.add(run);
            }
        }
        return out;
    }

    /// Live departures at `stopId` (the bundle's), the first `limit`, headsigns in `language`
    /// (null: the feed's own).
    public List<Departure> departures(String stopId, int limit, String language) throws SQLException {
        return new LiveDepartures(this).at(stopId, limit, language);
    }

    /// Live departures at the place of `stopId` (its station, the stations `same_places` links
    /// to, and their stops), each run once, the first `limit`.
    public List<Departure> placeDepartures(String stopId, int limit) throws SQLException {
        return new PlaceDepartures(this).at(stopId, limit);
    }

    /// The progress of trip `tripId` (the run of `serviceDate`, null: the run the states predict
    /// nearest the moment, else today's); null when the bundle has no such trip.
    public TripProgress tripProgress(String tripId, Integer serviceDate) throws SQLException {
        return TripProgress.of(this, tripId, serviceDate);
    }

    /// The vehicles whose trip joins, of `route` (null: every route) and `direction` (null: both).
    public List<Vehicle> vehicles(String route, Long direction) throws SQLException {
        return new LiveVehicles(this).find(route, direction, new LiveTally());
    }

    /// The alerts applying to `stop` or `route` (null: no selector), texts in `language`.
    public List<AlertView> alerts(String stop, String route, String language) throws SQLException {
        return new LiveAlerts(this).find(stop, route, language, new LiveTally());
    }
}
