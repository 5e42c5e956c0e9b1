"""The Python client's live layer: GTFS-Realtime messages read and joined to a feedc bundle,
on the device, exactly as docs/live.md describes it (the Swift `FeedClient` and the JVM client
follow the same description and give the same answers). Reading needs Google's
`gtfs-realtime-bindings` (`pip install 'feedc-client[live]'`); the rest of the client does not.

    feed = LiveFeed("wmata")                          # one state per source (and per kind of message)
    feed.apply(read_file("tripupdates.pb"))           # FULL_DATASET replaces, DIFFERENTIAL merges
    live = LiveBundle("bundle.sqlite")
    live.live_departures([feed], moment, "28115", limit=10)    # {"departures": [...], "stale": False}
    live.render(answer)                               # instants as ISO 8601 with the agency's offset

    python3 feedc_live.py BUNDLE --feed FILE --source ID [--at YYYY-MM-DDTHH:MM:SS] (--stop ID | --place ID
                          | --vehicles | --alerts | --report) [--json]

Modules: feedc_live_read (section 1: bounded reading), feedc_live_join (sections 3 and 4: the
join, the predictions), feedc_live_screens and feedc_live_alerts (section 5); here the state
(section 2), the command line (section 6) and the join report (section 7).
"""
import argparse
import datetime
import json
import os
import re
import sqlite3
import sys
import time

try:
    from feedc_live_read import Limits, LiveError, LiveMessage, read_file, read_message  # noqa: F401 (Limits: the API)
    from feedc_live_join import BundleReader, Reasons, Run, iso, join_update
    from feedc_live_alerts import alerts, name_selector
    from feedc_live_screens import (join_vehicle, live_departures, live_runs, place_departures, place_vehicle, trip_progress,
                                    vehicles)
    MISSING = None
except ImportError as error:  # no gtfs-realtime-bindings: the command says so; the library raises it when used
    if "gtfs-realtime-bindings" not in str(error):
        raise
    MISSING = str(error)

    class LiveError(Exception):
        pass

    class LiveMessage:
        pass

    def read_message(*_, **__):
        raise ImportError(MISSING)
    read_file = read_message

MAX_AGE = 90                       # seconds after its newest header.timestamp a state is stale
HISTORY = 8                        # messages a state keeps for the join report
AT = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})")
INSTANTS = {"scheduled", "predicted", "timestamp", "scheduled_arrival", "scheduled_departure", "predicted_arrival",
            "predicted_departure"}
KINDS = ("trip_updates", "vehicles", "alerts")


class LiveFeed:
    """What the messages of one source (a `feeds.source_id` of the bundle) say now (section 2).
    `apply(message)`: a FULL_DATASET message replaces everything held, a DIFFERENTIAL one
    merges (an entity replaces the one with its id, `is_deleted` removes it); the timestamp is
    the newest header.timestamp applied. Stale at `at` when `at − timestamp > max_age` or
    there is no timestamp."""

    def __init__(self, source, max_age=MAX_AGE, history=HISTORY):
        if MISSING:
            raise ImportError(MISSING)
        self.source, self.max_age, self.history = source, max_age, history
        self.entities, self.stamps, self.timestamp, self.messages = {}, {}, None, []

    def apply(self, message, name=None):
        """Applies a LiveMessage (or a message's bytes, read with read_message: LiveError when
        they cannot be read); `name` labels it in the report (e.g. its file)."""
        if not isinstance(message, LiveMessage):
            message = read_message(message)
        if not message.differential:
            self.entities, self.stamps = {}, {}
        for entity in message.entities:
            if entity.is_deleted:
                if message.differential:
                    self.entities.pop(entity.id, None)
                    self.stamps.pop(entity.id, None)
                continue  # a FULL_DATASET's deleted entity says nothing
            self.entities[entity.id], self.stamps[entity.id] = entity, message.timestamp
        if message.timestamp is not None and (self.timestamp is None or message.timestamp > self.timestamp):
            self.timestamp = message.timestamp
        self.messages = (self.messages + [(name if name is not None else str(len(self.messages)), message)])[-self.history:]
        return message

    def timestamp_of(self, entity):
        """The header.timestamp of the message `entity` came from."""
        return self.stamps.get(entity.id)

    def is_stale(self, at):
        return self.timestamp is None or at - self.timestamp > self.max_age


class _OneMessage:
    """One message as a state of its own (the report joins each message applied alone)."""

    def __init__(self, source, message):
        self.source, self.timestamp = source, message.timestamp
        self.entities = {}
        for entity in message.entities:
            if not entity.is_deleted:
                self.entities.setdefault(entity.id, entity)
        self.all = [entity for entity in message.entities if not entity.is_deleted]

    def timestamp_of(self, entity):
        return self.timestamp


def _instant(moment):
    """A moment (POSIX seconds, or an aware datetime) as POSIX seconds."""
    return moment.timestamp() if isinstance(moment, datetime.datetime) else moment


def _stale(feeds, moment):
    return any(feed.is_stale(moment) for feed in feeds)


def _message_report(reader, source, message, moment):
    """(entities by kind {kind: [total, joined]}, Reasons) of one message joined alone."""
    state, reasons = _OneMessage(source, message), Reasons()
    prefix = reader.prefixes.get(source, "")
    counts = {kind: [0, 0] for kind in KINDS}
    for entity in state.all:
        if entity.trip_update is not None:
            counts["trip_updates"][0] += 1
            joined = join_update(reader, source, entity.id, entity.trip_update, state.timestamp, moment, reasons)
            if isinstance(joined, Run):
                joined.calls(reader, prefix, reasons)
            counts["trip_updates"][1] += joined is not None
        if entity.vehicle is not None:
            counts["vehicles"][0] += 1
            joined = join_vehicle(reader, source, entity.id, entity.vehicle, state.timestamp, moment, reasons)
            if joined is not None:
                counts["vehicles"][1] += 1
                place_vehicle(reader, prefix, joined[0], entity.vehicle, reasons, entity.id)
        if entity.alert is not None:
            counts["alerts"][0] += 1
            names = [name_selector(reader, source, s, moment, state.timestamp, reasons, entity.id) for s in entity.alert.informed]
            if not entity.alert.informed:  # the reference requires one: it names nothing the bundle knows
                reasons.add("unknown_informed_entity", entity.id)
            counts["alerts"][1] += any(named.known for named in names)
    return counts, reasons


def _kinds(counts):
    return {kind: {"total": counts[kind][0], "joined": counts[kind][1]} for kind in KINDS}


def join_report(reader, feeds, moment):
    """The join report (section 7): for each message the states keep, joined alone at
    `moment`, and in all (the sums): the entities, by kind how many and how many joined, the
    reasons with up to five examples; and `stale`."""
    messages, total, reasons, entities = [], {kind: [0, 0] for kind in KINDS}, Reasons(), 0
    for feed in feeds:
        for name, message in feed.messages:
            counts, found = _message_report(reader, feed.source, message, moment)
            messages.append(dict({"feed": name, "source": feed.source, "timestamp": message.timestamp,
                                  "incrementality": "DIFFERENTIAL" if message.differential else "FULL_DATASET",
                                  "entities": len(message.entities)}, **_kinds(counts), reasons=found.as_json()))
            entities += len(message.entities)
            for kind in KINDS:
                total[kind][0] += counts[kind][0]
                total[kind][1] += counts[kind][1]
            reasons.merge(found)
    return dict({"messages": messages, "entities": entities}, **_kinds(total), reasons=reasons.as_json(), stale=_stale(feeds, moment))


class LiveBundle:
    """The live layer over the bundle at `path` (read only). Each answer takes the states
    (LiveFeed list) and the moment (POSIX seconds or an aware datetime), and carries `stale`."""

    def __init__(self, path):
        if MISSING:
            raise ImportError(MISSING)
        self.reader = BundleReader(os.path.abspath(path))

    @property
    def zone(self):
        """The agency's time zone (the bundle's first agency's)."""
        return self.reader.zone

    def _answer(self, key, value, feeds, moment):
        return {key: value, "stale": _stale(feeds, moment)}

    def live_departures(self, feeds, moment, stop_id, limit=10, language=None):
        self.reader.fresh()
        moment = _instant(moment)
        return self._answer("departures", live_departures(self.reader, feeds, moment, stop_id, limit, language), feeds, moment)

    def place_departures(self, feeds, moment, stop_id, limit=10):
        self.reader.fresh()
        moment = _instant(moment)
        return self._answer("departures", place_departures(self.reader, feeds, moment, stop_id, limit), feeds, moment)

    def trip_progress(self, feeds, moment, trip_id, service_date=None):
        self.reader.fresh()
        moment = _instant(moment)
        return self._answer("trip", trip_progress(self.reader, feeds, moment, trip_id, service_date), feeds, moment)

    def live_runs(self, feeds, moment):
        """The runs the states predict at `moment` (LiveRun list), for the journey planner:
        `JourneyPlanner.plan(..., live=live.live_runs(feeds, moment))` (docs/live.md, section 5)."""
        self.reader.fresh()
        return live_runs(self.reader, feeds, _instant(moment))

    def vehicles(self, feeds, moment, route=None, direction=None):
        self.reader.fresh()
        moment = _instant(moment)
        return self._answer("vehicles", vehicles(self.reader, feeds, moment, route, direction), feeds, moment)

    def alerts(self, feeds, moment, stop=None, route=None, trip=None, language=None):
        self.reader.fresh()
        moment = _instant(moment)
        return self._answer("alerts", alerts(self.reader, feeds, moment, stop, route, trip, language), feeds, moment)

    def report(self, feeds, moment):
        self.reader.fresh()
        return join_report(self.reader, feeds, _instant(moment))

    def render(self, answer):
        """`answer` with its instants as ISO 8601 in the agency's time zone (the JSON of section 6)."""
        return render(answer, self.zone)


def render(value, zone):
    """A copy of `value` (dicts and lists) with every instant (the INSTANTS keys) as ISO 8601."""
    if isinstance(value, dict):
        return {key: iso(item, zone) if key in INSTANTS and isinstance(item, (int, float)) else render(item, zone)
                for key, item in value.items()}
    if isinstance(value, list):
        return [render(item, zone) for item in value]
    return value


# The command line (section 6).

class _Usage(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write("feedc-live: error: %s\n" % message)
        sys.exit(2)


def _parser():
    parser = _Usage(prog="feedc-live", description="GTFS-Realtime messages joined to a feedc bundle (docs/live.md).")
    parser.add_argument("bundle", metavar="BUNDLE")
    parser.add_argument("--feed", action="append", required=True, metavar="FILE", help="a GTFS-Realtime message (one state each)")
    parser.add_argument("--source", required=True, metavar="SOURCE_ID")
    parser.add_argument("--at", metavar="YYYY-MM-DDTHH:MM:SS", help="local to the agency; default now")
    parser.add_argument("--max-age", type=int, default=MAX_AGE, metavar="SECONDS")
    parser.add_argument("--stop", metavar="ID")
    parser.add_argument("--limit", type=int, metavar="N")
    parser.add_argument("--place", metavar="ID")
    parser.add_argument("--vehicles", action="store_true")
    parser.add_argument("--route", metavar="ID")
    parser.add_argument("--direction", type=int, metavar="I")
    parser.add_argument("--alerts", action="store_true")
    parser.add_argument("--lang", metavar="L")
    parser.add_argument("--report", action="store_true")
    parser.add_argument("--json", action="store_true")
    return parser


def _mode(parser, options):
    """Which answer the options ask for, the usage's combinations checked (exit 2 else)."""
    modes = [name for name, given in (("departures", options.stop is not None and not options.alerts),
                                      ("place", options.place is not None), ("vehicles", options.vehicles),
                                      ("alerts", options.alerts), ("report", options.report)) if given]
    if len(modes) != 1:
        parser.error("give one of --stop ID, --place ID, --vehicles, --alerts, --report")
    mode = modes[0]
    allowed = {"departures": {"stop", "limit"}, "place": {"place", "limit"}, "vehicles": {"route", "direction"},
               "alerts": {"stop", "route", "lang"}, "report": set()}[mode]
    for name in ("stop", "limit", "place", "route", "direction", "lang"):
        if getattr(options, name) is not None and name not in allowed:
            parser.error("--%s does not go with %s" % (name, "--stop" if mode == "departures" else "--" + mode))
    if options.limit is not None and options.limit < 0:
        parser.error("--limit must be 0 or more")
    if options.max_age < 0:
        parser.error("--max-age must be 0 or more")
    return mode


def _moment(parser, text, zone):
    """--at (local to the agency) as POSIX seconds; now without it."""
    if text is None:
        return int(time.time())
    match = AT.fullmatch(text)
    try:
        parts = [int(part) for part in match.groups()] if match else None
        local = datetime.datetime(*parts, tzinfo=zone) if parts else None
    except ValueError:
        local = None
    if local is None:
        parser.error("--at `%s` is not a local time YYYY-MM-DDTHH:MM:SS" % text)
    return int(local.timestamp())


def _text_lines(mode, answer):
    """The answer for a reader (without --json)."""
    lines = []
    if mode in ("departures", "place"):
        for d in answer["departures"]:
            delay = "" if d["delay_s"] is None else " %+ds" % d["delay_s"]
            lines.append("%s  %s%s  %s  %s  %s  %s (%s)" % ((d["predicted"] or d["scheduled"])[11:19], d["status"], delay,
                                                          d["route_id"], d["trip_id"], d["headsign"] or "", d["stop_id"], d["trip"]))
    elif mode == "vehicles":
        for v in answer["vehicles"]:
            lines.append("%s  trip %s  route %s  at %s  %s m (%s)  next %s  %s" % (
                v["vehicle_id"], v["trip_id"], v["route_id"], v["stop_id"], v["distance_along_m"], v["share"], v["next_stop_id"],
                v["status"]))
    elif mode == "alerts":
        for a in answer["alerts"]:
            lines.append("%s  %s  %s  %s: %s  stops %s  routes %s" % (a["id"], "active" if a["active"] else "inactive", a["cause"],
                                                                    a["effect"], a["header"], ",".join(a["stops"]), ",".join(a["routes"])))
    else:
        for m in answer["messages"] + [dict(answer, feed="in all")]:
            kinds = ", ".join("%s %d of %d joined" % (kind, m[kind]["joined"], m[kind]["total"]) for kind in KINDS if m[kind]["total"])
            reasons = ", ".join("%s %d (%s)" % (r, v["count"], " ".join(v["examples"])) for r, v in m["reasons"].items())
            lines.append("%s: %d entities; %s%s" % (m["feed"], m["entities"], kinds or "none", "; left out: " + reasons if reasons else ""))
    if answer["stale"]:
        lines.append("(stale: a state is older than --max-age)")
    return lines


def main(arguments=None):
    parser = _parser()
    options = parser.parse_args(arguments)
    if MISSING:
        sys.stderr.write("feedc-live: %s\n" % MISSING)
        return 2
    mode = _mode(parser, options)
    try:
        if not os.path.isfile(options.bundle):
            raise sqlite3.OperationalError("no such file")
        live = LiveBundle(options.bundle)
    except sqlite3.Error as error:
        parser.error("%s is not a feedc bundle (%s)" % (options.bundle, error))
    if options.source not in live.reader.prefixes:
        parser.error("no source `%s` in %s (its feeds: %s)" % (options.source, options.bundle, ", ".join(sorted(live.reader.prefixes))))
    moment = _moment(parser, options.at, live.zone)
    feeds = []
    for path in options.feed:
        feed = LiveFeed(options.source, max_age=options.max_age)
        try:
            feed.apply(read_file(path), name=path)
        except LiveError as error:
            sys.stderr.write("feedc-live: %s: %s\n" % (path, error))
            return 1
        except OSError as error:
            sys.stderr.write("feedc-live: %s: cannot be read: %s\n" % (path, error.strerror or error))
            return 1
        feeds.append(feed)
    try:
        answer = {"departures": lambda: live.live_departures(feeds, moment, options.stop, 10 if options.limit is None else options.limit),
                  "place": lambda: live.place_departures(feeds, moment, options.place, 10 if options.limit is None else options.limit),
                  "vehicles": lambda: live.vehicles(feeds, moment, options.route, options.direction),
                  "alerts": lambda: live.alerts(feeds, moment, options.stop, options.route, None, options.lang),
                  "report": lambda: live.report(feeds, moment)}[mode]()
    except sqlite3.Error as error:
        sys.stderr.write("feedc-live: %s cannot be read: %s\n" % (options.bundle, error))
        return 1
    answer = live.render(answer)
    _write(json.dumps(answer, ensure_ascii=False, sort_keys=False) if options.json else "\n".join(_text_lines(mode, answer)))
    return 0


def _write(text):
    """The answer on standard output, in UTF-8 whatever the locale; when it cannot be written
    (the reader gone, a full disk) exit 2 with a message, as feedc_planner does."""
    try:
        sys.stdout.buffer.write((text + "\n").encode("utf-8"))
        sys.stdout.buffer.flush()
    except OSError as error:
        try:
            sys.stderr.write("feedc-live: cannot write to standard output: %s\n" % (error.strerror or error))
            sys.stderr.flush()
        except OSError:
            pass
        os._exit(2)  # not sys.exit: its flush of what is still buffered would fail again


if __name__ == "__main__":
    sys.exit(main())
