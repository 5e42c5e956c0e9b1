package org.feedc.client.live;

import com.google.transit.realtime.GtfsRealtime.Alert;
import com.google.transit.realtime.GtfsRealtime.EntitySelector;
import com.google.transit.realtime.GtfsRealtime.FeedEntity;
import com.google.transit.realtime.GtfsRealtime.TimeRange;
import com.google.transit.realtime.GtfsRealtime.TranslatedString;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/// Alerts (docs/live.md, section 5): which alerts apply to a stop (an entity naming it or its
/// parent station, a route calling there, or only an agency or route type of such a route) and
/// to a route (an entity naming it, or only its agency or route type); whether each is active;
/// its texts in the rider's language.
final class LiveAlerts {
    private final LiveView view;

    LiveAlerts(LiveView view) {
        this.view = view;
    }

    /// The alerts applying to `stop` and to `route` (the bundle's ids; null: no selector), texts
    /// in `language` (null: the untranslated), in the states' order.
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
            TreeSet<String> stops = new TreeSet<>();
            TreeSet<String> routes = new TreeSet<>();
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
                if (selector.hasTrip() && join.join(selector.getTrip(), view.timestamp(false, 0, entry), null,
                        entity.getId(), new LiveTally()) != null) {
                    known = true;
                }
                if (onlyAgencyOrType(selector)) {
                    known = true;  // no documented query lists agencies or types on their own: taken as named
                }
                if (!known) {
                    tally.count("unknown_informed_entity", entity.getId());
                }
                joined |= known;
            }
            if (alert.getUnknownFields().hasField(Alert.CAUSE_FIELD_NUMBER)
                    || alert.getUnknownFields().hasField(Alert.EFFECT_FIELD_NUMBER)) {
                tally.count("unknown_enum", entity.getId());
            }
            tally.entity("alerts", joined);
            if (stop != null && !appliesToStop(alert, stop, prefix)) {
                continue;
            }
            if (route != null && !appliesToRoute(alert, route, prefix)) {
                continue;
            }
            out.add(new AlertView(entity.getId(), text(alert.hasHeaderText() ? alert.getHeaderText() : null, language),
                    text(alert.hasDescriptionText() ? alert.getDescriptionText() : null, language),
                    text(alert.hasUrl() ? alert.getUrl() : null, language), alert.getCause().name(), alert.getEffect().name(),
                    active(alert, view.at), List.copyOf(stops), List.copyOf(routes)));
        }
        return out;
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

    private boolean appliesToRoute(Alert alert, String route, String prefix) throws SQLException {
        Object[] row = view.bundle.route(route);
        for (EntitySelector selector : alert.getInformedEntityList()) {
            if (selector.hasRouteId() && (prefix + selector.getRouteId()).equals(route)) {
                return true;
            }
            if (row != null && onlyAgencyOrType(selector) && agencyAndType(selector, row, prefix)) {
                return true;
            }
        }
        return false;
    }

    /// No active period, or one with start ≤ `at` < end (a missing or 0 start or end is open).
    static boolean active(Alert alert, long at) {
        if (alert.getActivePeriodCount() == 0) {
            return true;
        }
        for (TimeRange period : alert.getActivePeriodList()) {
            boolean started = !period.hasStart() || period.getStart() == 0 || period.getStart() <= at;
            boolean ended = period.hasEnd() && period.getEnd() != 0 && at >= period.getEnd();
            if (started && !ended) {
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
        if (language != null) {
            for (TranslatedString.Translation t : all) {
                if (t.getLanguage().equalsIgnoreCase(language)) {
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

    private static String base(String language) {
        int dash = language.indexOf('-');
        return (dash < 0 ? language : language.substring(0, dash)).toLowerCase(Locale.ROOT);
    }
}
