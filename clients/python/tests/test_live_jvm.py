"""The JVM client's live layer (clients/jvm, `org.feedc.client.live`; docs/live.md) through its
command line, `java -cp feedc-jvm.jar:sqlite-jdbc.jar:protobuf.jar org.feedc.client.Main live
BUNDLE --feed FILE --source ID … --json`, against expectations computed here on their own: the
messages decoded with Google's bindings (gtfs_realtime_pb2), the timetable read from the raw
GTFS zip's CSV files.

- WMATA's four TripUpdate messages of the night of 2024-02-09/10 (../shared/data/gtfs-rt): at the
  busiest stops of each, every trip the bundle knows that the message predicts at the stop is
  shown with the message's own time (its departure, else its arrival + the scheduled dwell),
  every departure's scheduled time is the zip's, and nothing before the moment is kept;
- New York's subway message: each joined vehicle (the set the zip's trips give under the `nyct`
  convention) at its message's stop, with that stop's coordinates, its next stop, and its
  distance along the trip's shape as the doc computes it on the zip's shapes.txt; its one Alert;
- small messages written here over the WMATA bundle: canceled, skipped, NO_DATA, a trip-level
  delay, an added trip, stale states, alerts with selectors, periods and translations, and the
  join report's reasons;
- hostile messages: truncated, 100 MB, nested 100,000 deep, 100,001 entities, invalid UTF-8, an
  unknown version: exit 1, one line naming the file and the doc's code, bounded memory.

The bundles are built from the zips with `feedc build` ($FEEDC_BINARY, else .build/release/feedc);
the jar with clients/jvm/build.sh (or $FEEDC_JVM_JAR). Skipped without the data, java, javac,
the JDBC driver, protobuf.jar or gtfs_realtime_pb2 (`.ci/run` installs the bindings into
.build/venv, which this module adds to its path).

    FEEDC_BINARY=.build/release/feedc python3 -m unittest discover -s clients/python/tests -p test_live_jvm.py -v
"""
import csv
import glob
import gzip
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import zipfile
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import hostile_case as hc

try:
    from google.transit import gtfs_realtime_pb2 as rt
except ImportError:
    for site in sorted(glob.glob(os.path.join(hc.ROOT, ".build", "venv", "lib", "python3*", "site-packages"))):
        if site not in sys.path:
            sys.path.append(site)
    try:
        from google.transit import gtfs_realtime_pb2 as rt
    except ImportError:
        rt = None

SHARED_DATA = os.path.normpath(os.path.join(hc.ROOT, os.pardir, "shared", "data"))
if not os.path.isdir(SHARED_DATA):
    SHARED_DATA = "/work/shared/data"
WMATA_ZIP = os.path.join(SHARED_DATA, "gtfs", "medium", "wmata_2023_subset_oba.zip")
NYCT_ZIP = os.path.join(SHARED_DATA, "gtfs", "medium", "nyct_subway_2023_oba.zip")
WMATA_MESSAGES = [os.path.join(SHARED_DATA, "gtfs-rt", "wmata_2023_subset", "wmata-%s.pb" % t)
                  for t in ("2345", "2354", "0004", "0009")]
NYCT_MESSAGE = os.path.join(SHARED_DATA, "gtfs-rt", "nyct_subway_2023", "nyct_subways_gtfs_rt.pb")
PROTOBUF_JAR = hc.PROTOBUF_JAR
NEW_YORK = ZoneInfo("America/New_York")
PEAK_MAX_MB = 256
BUNDLES = {}        # "wmata", "nyct" -> bundle path
STATE = {}          # "folder", "why" (why the jar or the bundles are missing)


def setUpModule():
    STATE["folder"] = tempfile.mkdtemp(prefix="feedc-live-jvm-")
    if rt is None:
        STATE["why"] = "needs gtfs_realtime_pb2 (PyPI gtfs-realtime-bindings; .ci/run installs it into .build/venv)"
        return
    if shutil.which("java") is None or not os.path.exists(hc.SQLITE_JDBC_JAR) or not os.path.exists(PROTOBUF_JAR):
        STATE["why"] = ("needs java, the SQLite JDBC driver and protobuf.jar (Debian: openjdk-17-jdk-headless, "
                        "libxerial-sqlite-jdbc-java, libprotobuf-java)")
        return
    if "FEEDC_JVM_JAR" not in os.environ and not jar_is_current():
        if shutil.which("javac") is None:
            STATE["why"] = "needs javac to build the JVM client (Debian: openjdk-17-jdk-headless)"
            return
        if not hc.JVM_BUILT:
            hc.JVM_BUILT.append(subprocess.run(["bash", os.path.join(hc.ROOT, "clients", "jvm", "build.sh")],
                                               capture_output=True, text=True))
        if hc.JVM_BUILT[0].returncode != 0:
            STATE["failed"] = "clients/jvm/build.sh failed: %s" % hc.JVM_BUILT[0].stderr[-2000:]
            return
    sources = [(name, path) for name, path in (("wmata", WMATA_ZIP), ("nyct", NYCT_ZIP)) if os.path.exists(path)]
    if not sources or not os.access(hc.FEEDC, os.X_OK):
        return
    pipeline = os.path.join(STATE["folder"], "pipeline.yaml")
    with open(pipeline, "w") as f:
        f.write("output: out\nbundles:\n")
        for name, path in sources:
            f.write("  - name: %s\n    sources:\n      - id: %s\n        format: gtfs\n        path: %s\n"
                    % (name, name, path))
            if name == "nyct":
                f.write("        realtime_trip_ids: nyct\n")
    built = subprocess.run([hc.FEEDC, "build", "--config", pipeline], cwd=STATE["folder"], capture_output=True, text=True)
    if built.returncode != 0:
        STATE["failed"] = "feedc build failed: %s" % built.stderr[-2000:]
        return
    for name, _ in sources:
        found = [p for p in glob.glob(os.path.join(STATE["folder"], "out", name, "bundles", "*.sqlite.gz"))
                 if not p.endswith(".packed.sqlite.gz")]
        path = os.path.join(STATE["folder"], name + ".sqlite")
        with gzip.open(found[0], "rb") as src, open(path, "wb") as dst:
            shutil.copyfileobj(src, dst)
        BUNDLES[name] = path


def jar_is_current():
    """Whether the jar is newer than everything build.sh builds it from (then it is not built again)."""
    if not os.path.exists(hc.JVM_JAR):
        return False
    jvm = os.path.join(hc.ROOT, "clients", "jvm")
    inputs = glob.glob(os.path.join(jvm, "src", "**", "*.java"), recursive=True)
    inputs += [os.path.join(jvm, "build.sh"), os.path.join(hc.ROOT, "docs", "positional-queries.json")]
    built = os.path.getmtime(hc.JVM_JAR)
    return all(os.path.getmtime(p) < built for p in inputs)


def tearDownModule():
    shutil.rmtree(STATE.get("folder", ""), ignore_errors=True)


# The raw GTFS, read here on its own.

def read_csv(archive, name):
    with archive.open(name) as f:
        return list(csv.DictReader(io.TextIOWrapper(f, "utf-8-sig")))


def seconds(text):
    if not text:
        return None
    h, m, s = text.strip().split(":")
    return int(h) * 3600 + int(m) * 60 + int(s)


class Timetable:
    """trips.txt, stop_times.txt (each trip's calls in stop_sequence order), stops.txt,
    shapes.txt, calendar.txt and calendar_dates.txt of a zip."""

    def __init__(self, path, trips_wanted=None):
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            self.trips = {r["trip_id"]: r for r in read_csv(z, "trips.txt")}
            self.routes = {r["route_id"]: r for r in read_csv(z, "routes.txt")}
            self.stops = {r["stop_id"]: r for r in read_csv(z, "stops.txt")}
            self.calendar = {r["service_id"]: r for r in read_csv(z, "calendar.txt")} if "calendar.txt" in names else {}
            self.dates = {}
            for r in read_csv(z, "calendar_dates.txt") if "calendar_dates.txt" in names else []:
                self.dates[(r["service_id"], int(r["date"]))] = int(r["exception_type"])
            self.calls = {}
            with z.open("stop_times.txt") as f:
                rows = csv.reader(io.TextIOWrapper(f, "utf-8-sig"))
                header = next(rows)
                t, s, a, d, q = (header.index(c) for c in ("trip_id", "stop_id", "arrival_time", "departure_time",
                                                            "stop_sequence"))
                p = header.index("pickup_type") if "pickup_type" in header else None
                for row in rows:
                    if trips_wanted is None or row[t] in trips_wanted:
                        pickup = row[p] if p is not None and row[p] else "0"
                        self.calls.setdefault(row[t], []).append(
                            (int(row[q]), row[s], seconds(row[a]), seconds(row[d]), int(pickup)))
            for calls in self.calls.values():
                calls.sort()
            self.shapes = {}
            if "shapes.txt" in names:
                for r in read_csv(z, "shapes.txt"):
                    self.shapes.setdefault(r["shape_id"], []).append(
                        (int(r["shape_pt_sequence"]), float(r["shape_pt_lat"]), float(r["shape_pt_lon"])))
                for points in self.shapes.values():
                    points.sort()

    def runs(self, service, date):
        """Whether `service` runs on `date` (YYYYMMDD), by calendar.txt and calendar_dates.txt."""
        exception = self.dates.get((service, date))
        if exception is not None:
            return exception == 1
        c = self.calendar.get(service)
        if c is None or not int(c["start_date"]) <= date <= int(c["end_date"]):
            return False
        day = datetime(date // 10000, date // 100 % 100, date % 100)
        return c[("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")[day.weekday()]] == "1"


def day_start(date):
    """The start of service day `date` in New York: local noon minus 12 hours, epoch seconds."""
    noon = datetime(date // 10000, date // 100 % 100, date % 100, 12, tzinfo=NEW_YORK)
    return int(noon.timestamp()) - 12 * 3600


def previous_date(date):
    day = datetime(date // 10000, date // 100 % 100, date % 100) - timedelta(days=1)
    return day.year * 10000 + day.month * 100 + day.day


def local(epoch):
    return datetime.fromtimestamp(epoch, NEW_YORK).strftime("%Y-%m-%dT%H:%M:%S")


def instant(text):
    return None if text is None else int(datetime.fromisoformat(text).timestamp())


def along(points, calls_points, snap=None):
    """The doc's distances on the local plane (docs/live.md, "Vehicles"): each call's point
    projected onto the segments from the previous call's on; the line's length; and, for `snap`
    (a point), its projection onto all the segments (ties: the first)."""
    lat0, lon0 = points[0]
    scale = 111320 * math.cos(math.radians(lat0))
    xy = [((lon - lon0) * scale, (lat - lat0) * 111320) for lat, lon in points]
    cumulative = [0.0]
    for (x1, y1), (x2, y2) in zip(xy, xy[1:]):
        cumulative.append(cumulative[-1] + math.hypot(x2 - x1, y2 - y1))
    out, start = [], 0
    for lat, lon in list(calls_points) + ([snap] if snap else []):
        if snap and len(out) == len(calls_points):
            start = 0
        px, py = (lon - lon0) * scale, (lat - lat0) * 111320
        best = None
        for s in range(start, len(xy) - 1):
            (x1, y1), (x2, y2) = xy[s], xy[s + 1]
            dx, dy = x2 - x1, y2 - y1
            square = dx * dx + dy * dy
            t = 0 if square == 0 else max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / square))
            d = (x1 + t * dx - px) ** 2 + (y1 + t * dy - py) ** 2
            if best is None or d < best[0]:
                best = (d, s, cumulative[s] + t * math.sqrt(square))
        out.append(best[2])
        start = best[1]
    if snap:
        return out[:-1], cumulative[-1], out[-1]
    return out, cumulative[-1]


def decode(path):
    message = rt.FeedMessage()
    with open(path, "rb") as f:
        message.ParseFromString(f.read())
    return message


class LiveCase(unittest.TestCase):
    def setUp(self):
        if "failed" in STATE:
            self.fail(STATE["failed"])
        if "why" in STATE:
            self.skipTest(STATE["why"])

    def need(self, *names):
        for name in names:
            if name not in BUNDLES:
                self.skipTest("needs %s and feedc (%s) to build its bundle" % (
                    WMATA_ZIP if name == "wmata" else NYCT_ZIP, hc.FEEDC))

    def live(self, bundle, feeds, *args):
        command = [shutil.which("java") or "/usr/bin/java", "-cp",
                   os.pathsep.join([hc.JVM_JAR, hc.SQLITE_JDBC_JAR, PROTOBUF_JAR]), "org.feedc.client.Main", "live",
                   BUNDLES[bundle]]
        for feed in feeds:
            command += ["--feed", feed]
        outcome = hc.run(command + ["--source", bundle] + list(args), client="jvm")
        self.assertLess(outcome.peak_mb, PEAK_MAX_MB, outcome)
        return outcome

    def answer(self, bundle, feeds, *args):
        outcome = self.live(bundle, feeds, *args, "--json")
        self.assertEqual(outcome.status, 0, outcome)
        self.assertEqual(outcome.err, "", outcome)
        return json.loads(outcome.out)

    def write(self, name, message):
        path = os.path.join(STATE["folder"], name)
        with open(path, "wb") as f:
            f.write(message if isinstance(message, bytes) else message.SerializeToString())
        return path


class WmataDepartureTests(LiveCase):
    """WMATA's messages: the busiest stops' departures against the messages' own times."""

    LIMIT = 40

    @classmethod
    def setUpClass(cls):
        cls.table = None
        if rt is not None and os.path.exists(WMATA_ZIP) and all(os.path.exists(p) for p in WMATA_MESSAGES):
            wanted = set()
            for path in WMATA_MESSAGES:
                wanted |= {e.trip_update.trip.trip_id for e in decode(path).entity}
            cls.table = Timetable(WMATA_ZIP, wanted)

    def expected(self, message):
        """Each TripUpdate of a trip the zip has: its run (the start date's, or the day before's
        for a trip past 24:00; running; the start nearest the update's timestamp), and by stop,
        the time the message gives there (its departure, else its arrival + the dwell)."""
        runs = {}
        for entity in message.entity:
            tu = entity.trip_update
            trip = self.table.trips.get(tu.trip.trip_id)
            calls = self.table.calls.get(tu.trip.trip_id)
            if trip is None or not calls:
                continue
            stamp = tu.timestamp if tu.HasField("timestamp") else message.header.timestamp
            first = calls[0][3]
            date = int(tu.trip.start_date)
            candidates = [d for d, shift in ((date, 0), (previous_date(date), 1))
                          if (shift == 0 or first >= 86400) and self.table.runs(trip["service_id"], d)]
            if not candidates:
                continue
            service_date = min(candidates, key=lambda d: abs(day_start(d) + first - stamp))
            by_stop = {}
            for u in tu.stop_time_update:
                index = next(i for i, c in enumerate(calls) if c[0] == u.stop_sequence)
                sequence, stop, arrival, departure, pickup = calls[index]
                if u.departure.HasField("time"):
                    time = u.departure.time
                elif u.arrival.HasField("time"):
                    time = max(u.arrival.time + (departure - arrival), u.arrival.time)
                else:
                    continue
                boardable = index < len(calls) - 1 and pickup != 1
                by_stop[stop] = (time, day_start(service_date) + departure, boardable)
            runs[(tu.trip.trip_id, service_date)] = by_stop
        return runs

    def test_busiest_stops_show_the_messages_times(self):
        self.need("wmata")
        if self.table is None:
            self.skipTest("needs the WMATA messages and zip under %s" % SHARED_DATA)
        checked = 0
        for path in WMATA_MESSAGES:
            message = decode(path)
            at = message.header.timestamp
            runs = self.expected(message)
            counts = {}
            for by_stop in runs.values():
                for stop, (time, scheduled, boardable) in by_stop.items():
                    if boardable and time >= at:
                        counts[stop] = counts.get(stop, 0) + 1
            busiest = sorted(counts, key=lambda s: (-counts[s], s))[:2]
            self.assertTrue(busiest, path)
            for stop in busiest:
                with self.subTest(message=os.path.basename(path), stop=stop):
                    answer = self.answer("wmata", [path], "--at", local(at), "--stop", stop, "--limit", str(self.LIMIT))
                    self.assertFalse(answer["stale"])
                    departures = answer["departures"]
                    self.assertTrue(departures)
                    times = []
                    for d in departures:
                        self.assertEqual(d["stop_id"], stop)
                        calls = self.table.calls.get(d["trip_id"]) or self.static_calls(d["trip_id"])
                        call = next(c for c in calls if c[0] == d["stop_sequence"])
                        self.assertEqual(call[1], stop)
                        self.assertEqual(instant(d["scheduled"]), day_start(d["service_date"]) + call[3], d)
                        time = instant(d["predicted"]) if d["predicted"] else instant(d["scheduled"])
                        self.assertGreaterEqual(time, at, d)
                        times.append(time)
                        given = runs.get((d["trip_id"], d["service_date"]), {}).get(stop)
                        if given is not None:
                            self.assertEqual((d["status"], instant(d["predicted"])), ("predicted", given[0]), d)
                            self.assertEqual(d["delay_s"], given[0] - given[1], d)
                            checked += 1
                    self.assertEqual(times, sorted(times))
                    last = times[-1] if len(departures) == self.LIMIT else math.inf
                    shown = {(d["trip_id"], d["service_date"]) for d in departures}
                    for run, by_stop in runs.items():
                        time, scheduled, boardable = by_stop.get(stop, (None, None, False))
                        if boardable and at <= time < last and scheduled >= at - 3600:
                            self.assertIn(run, shown, "%s predicted at %s" % (run, local(time)))
        self.assertGreater(checked, 20)

    def static_calls(self, trip_id):
        """The calls of a trip no message names (read once more, for it alone)."""
        table = Timetable(WMATA_ZIP, {trip_id})
        self.table.calls[trip_id] = table.calls[trip_id]
        return table.calls[trip_id]


class NyctTests(LiveCase):
    """New York's subway message: vehicles without coordinates at their stops, and its Alert."""

    @classmethod
    def setUpClass(cls):
        cls.table = None
        if rt is not None and os.path.exists(NYCT_ZIP) and os.path.exists(NYCT_MESSAGE):
            cls.table = Timetable(NYCT_ZIP)
            cls.message = decode(NYCT_MESSAGE)

    def setUp(self):
        super().setUp()
        self.need("nyct")
        if self.table is None:
            self.skipTest("needs %s" % NYCT_MESSAGE)

    def joined(self, descriptor, stamp):
        """The zip's trip a real-time trip names under the `nyct` convention (origin time in
        hundredths of a minute, six digits, `_`, `mta_trip_id`), running on its start date (or,
        past 24:00, the day before), the start nearest `stamp`; None without one."""
        if not hasattr(self, "ids"):
            self.__class__.ids = {}
            for trip_id, trip in self.table.trips.items():
                calls = self.table.calls.get(trip_id)
                if calls and trip.get("mta_trip_id"):
                    self.ids.setdefault("%06d_%s" % (calls[0][3] * 100 // 60, trip["mta_trip_id"]), []).append(trip_id)
        date = int(descriptor.start_date)
        runs = []
        for trip_id in self.ids.get(descriptor.trip_id, []):
            first = self.table.calls[trip_id][0][3]
            for d, shift in ((date, 0), (previous_date(date), 1)):
                if (shift == 0 or first >= 86400) and self.table.runs(self.table.trips[trip_id]["service_id"], d):
                    runs.append((abs(day_start(d) + first - stamp), shift, trip_id))
        return min(runs)[2] if runs else None

    def routes_at(self, stop):
        """The routes whose trips call at `stop` or at a platform of it (stop_times.txt)."""
        here = {stop} | {s for s, row in self.table.stops.items() if row["parent_station"] == stop}
        return {self.table.trips[t]["route_id"] for t, calls in self.table.calls.items() if any(c[1] in here for c in calls)}

    def test_vehicles_at_their_stops(self):
        at = self.message.header.timestamp
        answer = self.answer("nyct", [NYCT_MESSAGE], "--at", local(at), "--vehicles")
        self.assertFalse(answer["stale"])
        expected = {}
        for entity in self.message.entity:
            v = entity.vehicle
            trip_id = self.joined(v.trip, v.timestamp) if entity.HasField("vehicle") else None
            if trip_id is not None:
                expected[v.trip.trip_id] = (entity, trip_id)
        vehicles = answer["vehicles"]
        self.assertEqual(sorted(v["realtime_trip_id"] for v in vehicles), sorted(expected))
        self.assertGreater(len(vehicles), 50)
        for vehicle in vehicles:
            entity, trip_id = expected[vehicle["realtime_trip_id"]]
            v = entity.vehicle
            with self.subTest(vehicle=vehicle["vehicle_id"]):
                self.assertEqual(vehicle["vehicle_id"], entity.id)  # no VehicleDescriptor in New York's
                self.assertEqual(vehicle["trip_id"], trip_id)
                self.assertEqual(vehicle["route_id"], v.trip.route_id)
                calls = self.table.calls[trip_id]
                index = next(i for i, c in enumerate(calls) if c[0] == v.current_stop_sequence)
                self.assertEqual(calls[index][1], v.stop_id)  # the message's call is at its stop
                self.assertEqual(vehicle["stop_id"], v.stop_id)
                stop = self.table.stops[v.stop_id]
                self.assertAlmostEqual(vehicle["lat"], float(stop["stop_lat"]), places=6)
                self.assertAlmostEqual(vehicle["lon"], float(stop["stop_lon"]), places=6)
                stopped = v.HasField("current_status") and v.current_status == rt.VehiclePosition.STOPPED_AT
                next_index = index + 1 if stopped else index
                self.assertEqual(vehicle["next_stop_id"], calls[next_index][1] if next_index < len(calls) else None)
                self.assertEqual(vehicle["status"], rt.VehiclePosition.VehicleStopStatus.Name(v.current_status)
                                 if v.HasField("current_status") else None)
                self.assertEqual(instant(vehicle["timestamp"]), v.timestamp)
                shape = self.table.shapes[self.table.trips[trip_id]["shape_id"]]
                points = [(lat, lon) for _, lat, lon in shape]
                stops = [(float(self.table.stops[c[1]]["stop_lat"]), float(self.table.stops[c[1]]["stop_lon"]))
                         for c in calls]
                distances, length = along(points, stops)
                self.assertTrue(0 <= vehicle["distance_along_m"] <= length * 1.002 + 5, (vehicle, length))
                # The shape as the bundle keeps it (an encoded polyline, 1e-5°) moves points by up to a metre.
                self.assertLess(abs(vehicle["distance_along_m"] - distances[index]), 5 + distances[index] * 0.002,
                                (vehicle, distances[index]))
                self.assertLess(abs(vehicle["share"] - distances[index] / length), 0.002, vehicle)

    def test_vehicles_by_route_and_direction(self):
        at = local(self.message.header.timestamp)
        every = self.answer("nyct", [NYCT_MESSAGE], "--at", at, "--vehicles")["vehicles"]
        route = self.answer("nyct", [NYCT_MESSAGE], "--at", at, "--vehicles", "--route", "2", "--direction", "1")
        trips = {v["trip_id"] for v in every
                 if v["route_id"] == "2" and self.table.trips[v["trip_id"]]["direction_id"] == "1"}
        self.assertTrue(trips)
        self.assertEqual({v["trip_id"] for v in route["vehicles"]}, trips)

    def test_the_alert(self):
        """New York's one Alert names no entity: every alert is returned without a selector, and
        it applies to no stop and no route."""
        alerts = [e for e in self.message.entity if e.HasField("alert")]
        self.assertEqual(len(alerts), 1)
        at = local(self.message.header.timestamp)
        answer = self.answer("nyct", [NYCT_MESSAGE], "--at", at, "--alerts")
        self.assertEqual(answer["alerts"], [{
            "id": alerts[0].id, "header": alerts[0].alert.header_text.translation[0].text, "description": None,
            "url": None, "cause": "UNKNOWN_CAUSE", "effect": "UNKNOWN_EFFECT", "active": True, "stops": [],
            "routes": []}])
        self.assertEqual(self.answer("nyct", [NYCT_MESSAGE], "--at", at, "--alerts", "--stop", "137S")["alerts"], [])
        self.assertEqual(self.answer("nyct", [NYCT_MESSAGE], "--at", at, "--alerts", "--route", "2")["alerts"], [])

    def test_alerts_by_selector(self):
        """Alerts written here over New York's stops: one for stop 137S's station and route 2,
        one for route 1, one for the subway (route type 1) in two languages, one over."""
        at = self.message.header.timestamp
        message = rt.FeedMessage()
        message.header.gtfs_realtime_version = "2.0"
        message.header.timestamp = at
        first = message.entity.add(id="station")
        first.alert.informed_entity.add(stop_id="137")
        first.alert.informed_entity.add(route_id="2")
        first.alert.effect = rt.Alert.SIGNIFICANT_DELAYS
        first.alert.header_text.translation.add(text="Delays at 28 St")
        second = message.entity.add(id="one")
        second.alert.informed_entity.add(route_id="1")
        second.alert.cause = rt.Alert.MAINTENANCE
        second.alert.active_period.add(start=at - 7200, end=at - 3600)
        third = message.entity.add(id="subway")
        third.alert.informed_entity.add(route_type=1)
        third.alert.header_text.translation.add(text="Service change", language="en")
        third.alert.header_text.translation.add(text="Cambio de servicio", language="es")
        fourth = message.entity.add(id="nowhere")
        fourth.alert.informed_entity.add(stop_id="no-such-stop")
        path = self.write("nyct-alerts.pb", message)
        when = local(at)

        def ids(*args):
            return [a["id"] for a in self.answer("nyct", [path], "--at", when, "--alerts", *args)["alerts"]]

        def subway(routes):
            return ["subway"] if any(self.table.routes[r]["route_type"] == "1" for r in routes) else []

        # 137S is a platform of station 137 (stops.txt).
        self.assertEqual(self.table.stops["137S"]["parent_station"], "137")
        at_137 = self.routes_at("137S")
        self.assertIn("2", at_137)
        self.assertEqual(ids("--stop", "137S"), ["station"] + (["one"] if "1" in at_137 else []) + subway(at_137))
        self.assertEqual(ids("--stop", "137"), ["station"] + (["one"] if "1" in self.routes_at("137") else [])
                         + subway(self.routes_at("137")))
        self.assertEqual(ids("--route", "2"), ["station"] + subway(["2"]))
        self.assertEqual(ids("--route", "1"), ["one"] + subway(["1"]))
        at_l01 = self.routes_at("L01S")
        self.assertNotIn("2", at_l01)
        self.assertEqual(ids("--stop", "L01S"), (["one"] if "1" in at_l01 else []) + subway(at_l01))
        every = {a["id"]: a for a in self.answer("nyct", [path], "--at", when, "--alerts", "--lang", "es-MX")["alerts"]}
        self.assertEqual(list(every), ["station", "one", "subway", "nowhere"])
        self.assertEqual(every["station"]["stops"], ["137"])
        self.assertEqual(every["station"]["routes"], ["2"])
        self.assertEqual(every["station"]["effect"], "SIGNIFICANT_DELAYS")
        self.assertEqual(every["one"]["cause"], "MAINTENANCE")
        self.assertFalse(every["one"]["active"])
        self.assertTrue(every["station"]["active"])
        self.assertEqual(every["subway"]["header"], "Cambio de servicio")
        self.assertEqual(every["nowhere"]["stops"], [])
        others = self.answer("nyct", [path], "--at", when, "--alerts", "--lang", "fr")["alerts"]
        self.assertEqual(others[2]["header"], "Service change")  # no French, no untranslated: the first
        report = self.answer("nyct", [path], "--at", when, "--report")["report"]["all"]
        self.assertEqual(report["left_out"]["unknown_informed_entity"], {"count": 1, "examples": ["nowhere"]})
        self.assertEqual((report["entities"]["alerts"], report["joined"]["alerts"]), (4, 3))


class WrittenMessageTests(LiveCase):
    """Messages written here over one WMATA trip: the longest trip of the zip running on Friday
    2024-02-09, asked ten minutes before it leaves."""

    DATE = 20240209

    @classmethod
    def setUpClass(cls):
        cls.table = None
        if rt is not None and os.path.exists(WMATA_ZIP):
            cls.table = Timetable(WMATA_ZIP)
            running = [t for t, trip in cls.table.trips.items()
                       if cls.table.runs(trip["service_id"], cls.DATE) and t in cls.table.calls]
            cls.trip = max(running, key=lambda t: (len(cls.table.calls[t]), t))
            cls.calls = cls.table.calls[cls.trip]
            cls.base = day_start(cls.DATE)
            cls.at = cls.base + cls.calls[0][3] - 600

    def setUp(self):
        super().setUp()
        self.need("wmata")
        if self.table is None:
            self.skipTest("needs %s" % WMATA_ZIP)

    def message(self, timestamp="at", updates=(), relationship=None, delay=None):
        message = rt.FeedMessage()
        message.header.gtfs_realtime_version = "2.0"
        if timestamp is not None:
            message.header.timestamp = self.at if timestamp == "at" else timestamp
        tu = message.entity.add(id="e1").trip_update
        tu.trip.trip_id = self.trip
        tu.trip.start_date = str(self.DATE)
        if relationship is not None:
            tu.trip.schedule_relationship = relationship
        if delay is not None:
            tu.delay = delay
        for index, fields in updates:
            u = tu.stop_time_update.add(stop_sequence=self.calls[index][0])
            for name, value in fields.items():
                if name == "relationship":
                    u.schedule_relationship = value
                else:
                    event, what = name.split("_")
                    setattr(getattr(u, event), what, value)
        return message

    def departure(self, path, index, *args):
        """The departure of the trip at its `index`-th call, and the whole answer."""
        answer = self.answer("wmata", [path], "--at", local(self.at), "--stop", self.calls[index][1], "--limit", "200", *args)
        mine = [d for d in answer["departures"] if d["trip_id"] == self.trip and d["stop_sequence"] == self.calls[index][0]]
        self.assertEqual(len(mine), 1, answer)
        self.assertEqual(instant(mine[0]["scheduled"]), self.base + self.calls[index][3])
        return mine[0], answer

    def assertCall(self, departure, status, delay):
        scheduled = instant(departure["scheduled"])
        self.assertEqual((departure["status"], departure["delay_s"]), (status, delay), departure)
        self.assertEqual(instant(departure["predicted"]), None if delay is None else scheduled + delay, departure)

    def test_canceled(self):
        path = self.write("canceled.pb", self.message(relationship=rt.TripDescriptor.CANCELED))
        departure, _ = self.departure(path, 2)
        self.assertEqual(departure["trip"], "canceled")
        self.assertCall(departure, "canceled", None)

    def test_skipped_carries_the_delay(self):
        arrival = self.base + self.calls[4][2]
        path = self.write("skipped.pb", self.message(updates=[
            (1, {"departure_delay": 60}), (2, {"relationship": rt.TripUpdate.StopTimeUpdate.SKIPPED}),
            (4, {"arrival_time": arrival + 300})]))
        for index, status, delay in ((0, "scheduled", None), (1, "predicted", 60), (2, "skipped", None),
                                     (3, "propagated", 60), (4, "predicted", 300), (5, "propagated", 300)):
            with self.subTest(call=index):
                departure, _ = self.departure(path, index)
                self.assertEqual(departure["trip"], "scheduled")
                self.assertCall(departure, status, delay)

    def test_no_data_ends_the_delay(self):
        path = self.write("no-data.pb", self.message(updates=[
            (1, {"departure_delay": 90}), (2, {"relationship": rt.TripUpdate.StopTimeUpdate.NO_DATA})]))
        for index in (2, 3):
            with self.subTest(call=index):
                self.assertCall(self.departure(path, index)[0], "scheduled", None)

    def test_trip_level_delay(self):
        path = self.write("trip-delay.pb", self.message(delay=45))
        for index in (0, 3):
            with self.subTest(call=index):
                self.assertCall(self.departure(path, index)[0], "propagated", 45)

    def test_added_trip(self):
        message = self.message()
        added = message.entity.add(id="e2").trip_update
        added.trip.trip_id = "extra-1"
        added.trip.route_id = self.table.trips[self.trip]["route_id"]
        added.trip.start_date = str(self.DATE)
        added.trip.schedule_relationship = rt.TripDescriptor.NEW
        added.stop_time_update.add(stop_id=self.calls[2][1]).departure.time = self.at + 600
        added.stop_time_update.add(stop_id=self.calls[3][1])  # no time: left out
        path = self.write("added.pb", message)
        answer = self.answer("wmata", [path], "--at", local(self.at), "--stop", self.calls[2][1], "--limit", "200")
        mine = [d for d in answer["departures"] if d["trip_id"] == "extra-1"]
        self.assertEqual(mine, [{"trip_id": "extra-1", "route_id": added.trip.route_id, "stop_id": self.calls[2][1],
                                 "stop_sequence": None, "service_date": self.DATE, "headsign": None, "scheduled": None,
                                 "predicted": datetime.fromtimestamp(self.at + 600, NEW_YORK).isoformat(),
                                 "delay_s": None, "status": "added", "trip": "added"}])
        report = self.answer("wmata", [path], "--at", local(self.at), "--report")["report"]["all"]
        self.assertEqual(report["left_out"]["added_without_time"], {"count": 1, "examples": ["e2"]})

    def test_differential(self):
        """A DIFFERENTIAL message replaces the entity of its id in the state before it, or removes
        it (`is_deleted`); a FULL_DATASET one starts again."""
        full = self.write("full.pb", self.message(updates=[(1, {"departure_delay": 60})]))
        change = self.message(updates=[(1, {"departure_delay": 120})])
        change.header.incrementality = rt.FeedHeader.DIFFERENTIAL
        change = self.write("change.pb", change)
        deleted = rt.FeedMessage()
        deleted.header.gtfs_realtime_version = "2.0"
        deleted.header.incrementality = rt.FeedHeader.DIFFERENTIAL
        deleted.header.timestamp = self.at
        deleted.entity.add(id="e1", is_deleted=True)
        deleted = self.write("deleted.pb", deleted)
        self.assertCall(self.departure(full, 1, "--feed", change)[0], "predicted", 120)
        self.assertCall(self.departure(full, 1, "--feed", change, "--feed", deleted)[0], "scheduled", None)
        self.assertCall(self.departure(change, 1, "--feed", full)[0], "predicted", 60)

    def test_vehicle_with_position(self):
        """A vehicle between two stops, naming no call: snapped to the nearest point of the trip's
        shape, its next stop the first call beyond it; its id its label (it has no id)."""
        trip = self.table.trips[self.trip]
        stops = [(float(self.table.stops[c[1]]["stop_lat"]), float(self.table.stops[c[1]]["stop_lon"])) for c in self.calls]
        here = ((stops[3][0] + stops[4][0]) / 2, (stops[3][1] + stops[4][1]) / 2)
        message = self.message()
        entity = message.entity.add(id="v1")
        entity.vehicle.trip.trip_id = self.trip
        entity.vehicle.trip.start_date = str(self.DATE)
        entity.vehicle.vehicle.label = "bus 7"
        entity.vehicle.position.latitude, entity.vehicle.position.longitude = here
        entity.vehicle.timestamp = self.at - 5
        path = self.write("position.pb", message)
        vehicles = self.answer("wmata", [path], "--at", local(self.at), "--vehicles")["vehicles"]
        self.assertEqual(len(vehicles), 1, vehicles)
        v = vehicles[0]
        position = (entity.vehicle.position.latitude, entity.vehicle.position.longitude)  # as float32 holds them
        points = [(lat, lon) for _, lat, lon in self.table.shapes[trip["shape_id"]]]
        distances, length, snapped = along(points, stops, snap=position)
        self.assertEqual((v["vehicle_id"], v["trip_id"], v["realtime_trip_id"], v["route_id"], v["stop_id"], v["status"]),
                         ("bus 7", self.trip, self.trip, trip["route_id"], None, None))
        self.assertAlmostEqual(v["lat"], position[0], delta=5.1e-7)  # rounded to 1e-6
        self.assertAlmostEqual(v["lon"], position[1], delta=5.1e-7)
        self.assertLess(abs(v["distance_along_m"] - snapped), 5 + snapped * 0.002, (v, snapped))
        self.assertLess(abs(v["share"] - snapped / length), 0.002, v)
        beyond = next(i for i, d in enumerate(distances) if d > snapped)
        self.assertEqual(v["next_stop_id"], self.calls[beyond][1])
        self.assertEqual(instant(v["timestamp"]), self.at - 5)

    def test_stale(self):
        old = self.write("old.pb", self.message(timestamp=self.at - 200))
        undated = self.write("undated.pb", self.message(timestamp=None))
        fresh = self.write("fresh.pb", self.message())
        self.assertTrue(self.departure(old, 1)[1]["stale"])
        self.assertFalse(self.departure(old, 1, "--max-age", "300")[1]["stale"])
        self.assertTrue(self.departure(undated, 1)[1]["stale"])
        self.assertTrue(self.departure(fresh, 1, "--feed", undated)[1]["stale"])  # any state stale

    def test_report_reasons(self):
        message = self.message(updates=[(1, {"departure_delay": 30}), (3, {"arrival_time": 5})])
        u = message.entity[0].trip_update.stop_time_update.add(stop_sequence=99999)
        u.arrival.delay = 1
        message.entity[0].trip_update.stop_time_update.add(stop_id="no-such-stop").arrival.delay = 1
        unknown = message.entity.add(id="e0").trip_update
        unknown.trip.trip_id = "no-such-trip"
        unknown.trip.start_date = str(self.DATE)
        path = self.write("reasons.pb", message)
        report = self.answer("wmata", [path], "--at", local(self.at), "--report")["report"]
        self.assertEqual(len(report["messages"]), 1)
        for part in (report["messages"][0], report["all"]):
            self.assertEqual(part["entities"], {"trip_updates": 2, "vehicles": 0, "alerts": 0})
            self.assertEqual(part["joined"], {"trip_updates": 1, "vehicles": 0, "alerts": 0})
            counted = {k: v for k, v in part["left_out"].items() if v["count"]}
            self.assertEqual(counted, {
                "unknown_trip": {"count": 1, "examples": ["e0"]},
                "unknown_stop": {"count": 1, "examples": ["e1"]},
                "unknown_stop_sequence": {"count": 1, "examples": ["e1"]},
                "time_out_of_range": {"count": 1, "examples": ["e1"]}})
            self.assertFalse(part["stale"])
        self.assertEqual(report["messages"][0]["file"], path)
        self.assertEqual(report["messages"][0]["incrementality"], "FULL_DATASET")


class HostileMessageTests(LiveCase):
    """Messages that cannot be read: exit 1 and one line, `feedc-jvm: FILE: CODE: …`, in bounded
    memory, whatever the message."""

    def setUp(self):
        super().setUp()
        self.need("wmata")

    def refused(self, path, code):
        outcome = self.live("wmata", [path], "--report", "--json")
        self.assertEqual(outcome.status, 1, outcome)
        self.assertEqual(outcome.out, "", outcome)
        self.assertEqual(outcome.err.count("\n"), 1, outcome)
        self.assertTrue(outcome.err.startswith("feedc-jvm: %s: %s: " % (path, code)), outcome)
        return outcome

    @staticmethod
    def header(version=b"2.0"):
        header = b"\x0a" + bytes([len(version)]) + version + b"\x18\x01"  # gtfs_realtime_version, timestamp 1
        return b"\x0a" + bytes([len(header)]) + header

    @staticmethod
    def varint(n):
        out = bytearray()
        while True:
            byte = n & 0x7F
            n >>= 7
            out.append(byte | (0x80 if n else 0))
            if not n:
                return bytes(out)

    def test_truncated(self):
        if not os.path.exists(WMATA_MESSAGES[0]):
            self.skipTest("needs %s" % WMATA_MESSAGES[0])
        with open(WMATA_MESSAGES[0], "rb") as f:
            data = f.read()
        self.refused(self.write("truncated.pb", data[:len(data) // 2]), "malformed")
        self.refused(self.write("garbage.pb", b"\xff" * 64), "malformed")
        self.refused(self.write("no-header.pb", b""), "malformed")

    def test_too_large(self):
        path = os.path.join(STATE["folder"], "huge.pb")
        with open(path, "wb") as f:
            f.truncate(100 * 2 ** 20)  # 100 MB (sparse): refused by its size, unread
        outcome = self.refused(path, "too_large")
        self.assertLess(outcome.peak_mb, 160, outcome)

    def test_deep_nesting(self):
        depth = 100000
        start, end = self.varint(1500 << 3 | 3), self.varint(1500 << 3 | 4)  # an unknown group (extension range)
        self.refused(self.write("deep.pb", self.header() + start * depth + end * depth), "too_deep")
        # Known messages nest 7 deep at most: an entity's own unknown groups count from its depth.
        entity = b"\x0a\x01x" + start * 40 + end * 40
        self.refused(self.write("deep-entity.pb", self.header() + b"\x12" + self.varint(len(entity)) + entity), "too_deep")

    def test_too_many_entities(self):
        entity = b"\x12\x03\x0a\x01x"
        self.refused(self.write("entities.pb", self.header() + entity * 100001), "too_many_entities")

    def test_too_many_updates(self):
        trip = b"\x0a\x00"  # trip_update.trip (empty)
        updates = b"\x12\x00" * 250001
        tu = trip + updates
        entity = b"\x0a\x01x" + b"\x1a" + self.varint(len(tu)) + tu
        one = b"\x12" + self.varint(len(entity)) + entity
        self.refused(self.write("updates.pb", self.header() + one * 4), "too_many_updates")

    def test_invalid_utf8_and_wire_types(self):
        entity = b"\x0a\x02\xc3\x28"  # entity id: not UTF-8
        self.refused(self.write("utf8.pb", self.header() + b"\x12" + self.varint(len(entity)) + entity), "malformed")
        entity = b"\x08\x01"  # entity id (a string) as a varint
        self.refused(self.write("wire.pb", self.header() + b"\x12" + self.varint(len(entity)) + entity), "malformed")

    def test_unsupported_version(self):
        self.refused(self.write("version.pb", self.header(b"3.0")), "unsupported_version")
        outcome = self.live("wmata", [self.write("version-1.pb", self.header(b"1.0"))], "--report", "--json")
        self.assertEqual(outcome.status, 0, outcome)

    def test_missing_file_and_usage(self):
        outcome = self.live("wmata", [os.path.join(STATE["folder"], "absent.pb")], "--report")
        self.assertEqual(outcome.status, 1, outcome)
        self.assertEqual(outcome.err.count("\n"), 1, outcome)
        outcome = self.live("wmata", [self.write("v.pb", self.header())], "--vehicles", "--alerts")
        self.assertEqual(outcome.status, 2, outcome)


if __name__ == "__main__":
    unittest.main()
