package org.feedc.client.live;

import com.google.transit.realtime.GtfsRealtime.Alert;
import com.google.transit.realtime.GtfsRealtime.EntitySelector;
import com.google.transit.realtime.GtfsRealtime.FeedEntity;
import com.google.transit.realtime.GtfsRealtime.TimeRange;
import com.google.transit.realtime.GtfsRealtime.TranslatedString;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/// Alerts (docs/live.md, section 5): which alerts apply to a stop (an entity naming it or its
/// parent station, a route calling there, or only an agency or route type of such a route) or
/// to a route (an entity naming it, or only its agency or route type), either when both are
/// asked; whether each is active; its texts in the rider's language. An informed entity is
/// known when it names something the bundle has: an agency of `agencies`, a route of `routes`,
/// a stop of `stops`, a route type some route has, a trip that joins; one naming nothing known
/// is counted `unknown_informed_entity`, and so is an alert with no informed entity at all.
final class LiveAlerts {
    private final LiveView view;
    private final Map<String, Boolean> agencies = new HashMap<>();
    private final Map<Long, Boolean> types = new HashMap<>();

    LiveAlerts(LiveView view) {
        this.view = view;
    }

    /// The alerts applying to `stop` or to `route` (the bundle's ids; null: no selector; every
    /// alert when neither is given), texts in `language` (null: the untranslated), in the
    /// states' order.
    List<AlertView> find(String stop, String route, String language, LiveTally tally) throws SQLException {
        List<AlertView> out = new ArrayList<>();
        for (LiveFeed state : view.states) {
            out.addAll(of(state, state.entries(), stop, route, language, tally));
        }
        return out;
    }

    List<AlertView> of(LiveFeed state, List<LiveFeed.Entry> entries, String stop, String route, String language,
                       LiveTally tally) throws SQLException {
        TripJoin join = view.join(state.source);
        String prefix = join.prefix();
        List<AlertView> out = new ArrayList<>();
        for (LiveFeed.Entry entry : entries) {
            FeedEntity entity = entry.entity;
            if (!entity.hasAlert()) {
                continue;
            }
            Alert alert = entity.getAlert();
            TreeSet<String> stops = new TreeSet<>(LiveTally::compareCodePoints);
            TreeSet<String> routes = new TreeSet<>(LiveTally::compareCodePoints);
            boolean joined = false;
            if (alert.getInformedEntityCount() == 0) {
                tally.count("unknown_informed_entity", entity.getId());  // it names nothing at all
            }
            for (EntitySelector selector : alert.getInformedEntityList()) {
                boolean known = false;
                if (selector.hasStopId() && view.bundle.stop(prefix + selector.getStopId()) != null) {
                    stops.add(prefix + selector.getStopId());
                    known = true;
                }
                if (selector.hasRouteId() && view.bundle.route(prefix + selector.getRouteId()) != null) {
                    routes.add(prefix + selector.getRouteId());
                    known = true;
                }
                if (selector.hasAgencyId() && agency(prefix + selector.getAgencyId())) {
                    known = true;
                }
                if (selector.hasRouteType() && routeType(selector.getRouteType())) {
                    known = true;
                }
                if (selector.hasTrip() && join.join(selector.getTrip(), null, null, entity.getId(), new LiveTally()) != null) {
                    known = true;
                }
                if (!known) {
                    tally.count("unknown_informed_entity", entity.getId());
                }
                joined |= known;
            }
            tally.entity("alerts", joined);
            if ((stop != null || route != null) && !(stop != null && appliesToStop(alert, stop, prefix))
                    && !(route != null && appliesToRoute(alert, route, prefix))) {
                continue;
            }
            out.add(new AlertView(entity.getId(), text(alert.hasHeaderText() ? alert.getHeaderText() : null, language),
                    text(alert.hasDescriptionText() ? alert.getDescriptionText() : null, language),
                    text(alert.hasUrl() ? alert.getUrl() : null, language), alert.getCause().name(), alert.getEffect().name(),
                    active(alert, view.at), List.copyOf(stops), List.copyOf(routes)));
        }
        return out;
    }

    /// Whether `agencies` has `agencyId` (not a documented query: the table itself,
    /// docs/bundle-format.md "agencies").
    private boolean agency(String agencyId) throws SQLException {
        Boolean known = agencies.get(agencyId);
        if (known == null) {
            known = view.bundle.exists("SELECT 1 FROM agencies WHERE agency_id = ?", agencyId);
            agencies.put(agencyId, known);
        }
        return known;
    }

    /// Whether some route of the bundle has `routeType`.
    private boolean routeType(long routeType) throws SQLException {
        Boolean known = types.get(routeType);
        if (known == null) {
            known = view.bundle.exists("SELECT 1 FROM routes WHERE type = ? LIMIT 1", routeType);
            types.put(routeType, known);
        }
        return known;
    }

    /// A selector naming an agency or a route type and no route, stop or trip.
    private static boolean onlyAgencyOrType(EntitySelector selector) {
        return (selector.hasAgencyId() || selector.hasRouteType())
                && !selector.hasRouteId() && !selector.hasStopId() && !selector.hasTrip();
    }

    /// Whether `route` (route_id, agency_id, type) has the agency and the type `selector` names.
    private static boolean agencyAndType(EntitySelector selector, Object[] route, String prefix) {
        return (!selector.hasAgencyId() || (prefix + selector.getAgencyId()).equals(route[1]))
                && (!selector.hasRouteType() || Long.valueOf(selector.getRouteType()).equals(route[2]));
    }

    private boolean appliesToStop(Alert alert, String stop, String prefix) throws SQLException {
        Object[] row = view.bundle.stop(stop);
        String parent = row == null ? null : (String) row[6];
        for (EntitySelector selector : alert.getInformedEntityList()) {
            if (selector.hasStopId()) {
                String named = prefix + selector.getStopId();
                if (named.equals(stop) || named.equals(parent)) {
                    return true;
                }
            } else if (selector.hasRouteId()) {
                for (Object[] route : view.bundle.stopRoutes(stop)) {
                    if (route[0].equals(prefix + selector.getRouteId())) {
                        return true;
                    }
                }
            } else if (onlyAgencyOrType(selector)) {
                for (Object[] route : view.bundle.stopRoutes(stop)) {
                    if (agencyAndType(selector, route, prefix)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /// Whether the alert applies to `route`; never for a route the bundle does not have.
    private boolean appliesToRoute(Alert alert, String route, String prefix) throws SQLException {
        Object[] row = view.bundle.route(route);
        if (row == null) {
            return false;
        }
        for (EntitySelector selector : alert.getInformedEntityList()) {
            if (selector.hasRouteId() && (prefix + selector.getRouteId()).equals(route)) {
                return true;
            }
            if (onlyAgencyOrType(selector) && agencyAndType(selector, row, prefix)) {
                return true;
            }
        }
        return false;
    }

    /// No active period, or one with start ≤ `at` < end; a missing start or end is open, a 0 is
    /// taken as it is (start 0: always begun; end 0: over), and so is one past Int64 (as Swift
    /// and Python read a uint64: missing).
    static boolean active(Alert alert, long at) {
        if (alert.getActivePeriodCount() == 0) {
            return true;
        }
        for (TimeRange period : alert.getActivePeriodList()) {
            Long start = period.hasStart() ? LiveFeed.posix(period.getStart()) : null;
            Long end = period.hasEnd() ? LiveFeed.posix(period.getEnd()) : null;
            if ((start == null || start <= at) && (end == null || at < end)) {
                return true;
            }
        }
        return false;
    }

    /// The translation in `language`: the one whose language is it (any case), else whose base
    /// language is its base (`de` for `de-CH`), else the one without a language, else the first;
    /// null without a translation.
    static String text(TranslatedString texts, String language) {
        if (texts == null || texts.getTranslationCount() == 0) {
            return null;
        }
        List<TranslatedString.Translation> all = texts.getTranslationList();
        if (language != null && !language.isEmpty()) {
            for (TranslatedString.Translation t : all) {
                if (t.hasLanguage() && t.getLanguage().toLowerCase(Locale.ROOT).equals(language.toLowerCase(Locale.ROOT))) {
                    return t.getText();
                }
            }
            String base = base(language);
            for (TranslatedString.Translation t : all) {
                if (!t.getLanguage().isEmpty() && base(t.getLanguage()).equals(base)) {
                    return t.getText();
                }
            }
        }
        for (TranslatedString.Translation t : all) {
            if (t.getLanguage().isEmpty()) {
                return t.getText();
            }
        }
        return all.get(0).getText();
    }

    /// A language tag's first non-empty part before a `-`, lower case (the tag itself when it
    /// has none, as Swift's `split(separator: "-").first`).
    private static String base(String language) {
        for (String part : language.toLowerCase(Locale.ROOT).split("-")) {
            if (!part.isEmpty()) {
                return part;
            }
        }
        return language.toLowerCase(Locale.ROOT);
    }
}
