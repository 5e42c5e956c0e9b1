"""Alerts (docs/live.md, section 5): which stops, routes and trips an alert's informed entities
name in the bundle, whether it applies to what is asked, whether it is active, and its texts in
the rider's language. Standard library only.

An informed entity is joined to the bundle by its ids, each behind its source's id prefix:
`agency_id` (agencies), `route_id` (live_route), `stop_id` (stop_by_id), `trip` (section 3's
join), `route_type` (a line of that type). One that names nothing the bundle knows is counted
`unknown_informed_entity`.
"""
from collections import namedtuple

from feedc_live_join import NoReasons
from feedc_live_screens import join_vehicle

# A Selector in the bundle's terms: each id None when absent or unknown to the bundle.
Named = namedtuple("Named", "agency_id route route_type trip_id stop stop_parent has_route has_stop has_trip known")


def _exists(reader, sql, value):
    return reader.kept("exists:" + sql, value, lambda: reader.db.execute(sql, (value,)).fetchone() is not None)


def name_selector(reader, source, selector, moment, header_timestamp, reasons, entity_id):
    """An EntitySelector in the bundle's ids (Named); counted unknown_informed_entity when it
    names nothing the bundle knows."""
    prefix = reader.prefixes.get(source, "")
    agency = prefix + selector.agency_id if selector.agency_id is not None else None
    agency_known = agency is not None and _exists(reader, "SELECT 1 FROM agencies WHERE agency_id = ?", agency)
    route = reader.route(prefix + selector.route_id) if selector.route_id is not None else None
    stop = reader.stop(prefix + selector.stop_id) if selector.stop_id is not None else None
    trip_id = None
    if selector.trip is not None:
        joined = join_vehicle(reader, source, entity_id, _AsVehicle(selector.trip), header_timestamp, moment, NoReasons())
        trip_id = joined[0] if joined else None
    route_type = selector.route_type
    type_known = route_type is not None and _exists(reader, "SELECT 1 FROM routes WHERE type = ? LIMIT 1", route_type)
    known = agency_known or route is not None or stop is not None or trip_id is not None or type_known
    if not known:
        reasons.add("unknown_informed_entity", entity_id)
    return Named(agency, route, route_type, trip_id, stop["stop_id"] if stop else None, stop["parent_station"] if stop else None,
                 selector.route_id is not None, selector.stop_id is not None, selector.trip is not None, known)


class _AsVehicle:
    """A TripDescriptor dressed as a VehiclePosition for join_vehicle (same rules, no timestamp)."""
    __slots__ = ("trip", "timestamp")

    def __init__(self, trip):
        self.trip, self.timestamp = trip, None


def _agency_or_type(named, agency_id, route_type):
    """An entity naming only an agency and/or a route type matches a line of that agency and type."""
    if named.has_route or named.has_stop or named.has_trip:
        return False
    if named.agency_id is None and named.route_type is None:
        return False
    return (named.agency_id is None or named.agency_id == agency_id) and (named.route_type is None or named.route_type == route_type)


def applies_to_stop(names, stop_id, parent_id, lines):
    """Whether an alert (its Named entities) applies to stop `stop_id` (whose station is
    `parent_id`, whose lines are `lines`: live_stop_routes rows)."""
    routes = {line[0] for line in lines}
    for named in names:
        if named.stop is not None and named.stop in (stop_id, parent_id):
            return True
        if named.route is not None and not named.has_stop and named.route[0] in routes:
            return True
        if any(_agency_or_type(named, line[1], line[2]) for line in lines):
            return True
    return False


def applies_to_route(names, route):
    """Whether an alert applies to route `route` (its live_route row)."""
    return any((named.route is not None and named.route[0] == route[0]) or _agency_or_type(named, route[1], route[2])
               for named in names)


def applies_to_trip(names, trip_id, route):
    """Whether an alert applies to bundle trip `trip_id` (of route `route`, a live_route row)."""
    return any(named.trip_id == trip_id for named in names) or (route is not None and applies_to_route(names, route))


def _base(language):
    return language.split("-")[0]


def pick_text(translations, language):
    """The text in the rider's language: the translation whose language is the one asked (any
    case), else one of the same base language (`de` for `de-CH`, `de-CH` for `de`), else the one
    without a language, else the first; None when there is none."""
    if not translations:
        return None
    if language:
        asked = language.lower()
        for t in translations:
            if t.language and t.language.lower() == asked:
                return t.text
        for t in translations:
            if t.language and _base(t.language.lower()) == _base(asked):
                return t.text
    for t in translations:
        if not t.language:
            return t.text
    return translations[0].text


def is_active(periods, moment):
    """No active period, or one with start ≤ moment < end (None: open)."""
    return not periods or any((start is None or start <= moment) and (end is None or moment < end) for start, end in periods)


def alerts(reader, feeds, moment, stop=None, route=None, trip=None, language=None):
    """The alerts of the states that apply to `stop`, `route` or `trip` (bundle ids; any of
    those given), every alert when none is; in the states' order."""
    stop_row = reader.stop(stop) if stop is not None else None
    lines = reader.query("live_stop_routes", {"stop_id": stop}) if stop is not None else []
    route_row = reader.route(route) if route is not None else None
    trip_line = reader.line(trip) if trip is not None else None
    trip_route = reader.route(trip_line["route_id"]) if trip_line else None
    found = []
    for feed in feeds:
        for entity in feed.entities.values():
            a = entity.alert
            if a is None:
                continue
            names = [name_selector(reader, feed.source, s, moment, feed.timestamp_of(entity), NoReasons(), entity.id)
                     for s in a.informed]
            if stop is not None or route is not None or trip is not None:
                applies = ((stop is not None and applies_to_stop(names, stop, stop_row["parent_station"] if stop_row else None, lines))
                           or (route_row is not None and applies_to_route(names, route_row))
                           or (trip is not None and applies_to_trip(names, trip, trip_route)))
                if not applies:
                    continue
            found.append({"id": entity.id, "header": pick_text(a.header, language),
                          "description": pick_text(a.description, language), "url": pick_text(a.url, language),
                          "cause": a.cause, "effect": a.effect, "active": is_active(a.active_periods, moment),
                          "stops": sorted({n.stop for n in names if n.stop is not None}),
                          "routes": sorted({n.route[0] for n in names if n.route is not None})})
    return found
