"""The screen layer (feedc_screens.py): every call answers exactly the rows of its documented query
(feedc_queries.QUERIES) run here by hand with the parameters the docs say to compute (the box
from metres, the service day's times from local noon less 12 hours, the folded text), on bundles
built by `feedc build` ($FEEDC_BINARY, else .build/release/feedc; skipped without one): the
repository's samples (metro and rail as one network: two time zones, stations, frequencies,
translations) and BART + Caltrain 2018 (../shared/data beside the repository; skipped when
absent). Bad arguments raise ValueError naming the argument; a file that is not a bundle,
BundleError. The service-day arithmetic is also checked on fixed answers (Chicago's clock changes).

    FEEDC_BINARY=.build/release/feedc python3 -m unittest discover -s clients/python/tests -p test_screens.py -v
"""
import datetime
import json
import math
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import unittest
import zoneinfo

import built_bundles

CLIENT_FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
sys.path.insert(0, CLIENT_FOLDER)

from feedc_client import fold_query  # noqa: E402
from feedc_queries import QUERIES  # noqa: E402
from feedc_screens import BundleError, Screens, service_time  # noqa: E402

REPO = os.path.abspath(os.path.join(CLIENT_FOLDER, os.pardir, os.pardir))
DATA = os.path.abspath(os.path.join(REPO, os.pardir, "shared", "data"))
RELEASE = os.path.join(REPO, ".build", "release", "feedc")
FEEDC = os.path.abspath(os.environ["FEEDC_BINARY"]) if os.environ.get("FEEDC_BINARY") else (
    RELEASE if os.access(RELEASE, os.X_OK) else None)
SOURCES = {
    "samples": [("metro", os.path.join(REPO, "Samples/metro")), ("rail", os.path.join(REPO, "Samples/rail"))],
    "bay18": [("bart", os.path.join(DATA, "gtfs/versions/bart/bart_2018-05_v47_tlib.zip")),
              ("caltrain", os.path.join(DATA, "gtfs/versions/caltrain/caltrain_2018-06-12_tlib.zip"))],
}
BUNDLES = {}
FOLDER = None
CHICAGO = zoneinfo.ZoneInfo("America/Chicago")


def setUpModule():
    global FOLDER
    if not FEEDC:
        return
    FOLDER = tempfile.mkdtemp(prefix="feedc-screens-")
    names = [name for name, feeds in SOURCES.items() if all(os.path.exists(path) for _, path in feeds)]
    BUNDLES.update(built_bundles.build(FEEDC, FOLDER, {name: SOURCES[name] for name in names}))

def tearDownModule():
    if FOLDER:
        shutil.rmtree(FOLDER, ignore_errors=True)


def start_of(date, zone):
    """The docs' start of service day `date`: local noon less 12 hours, POSIX seconds."""
    noon = datetime.datetime(date // 10000, date // 100 % 100, date % 100, 12, tzinfo=zone)
    return noon.timestamp() - 43200


class ServiceDayTests(unittest.TestCase):
    """Fixed answers: GTFS times count from local noon less 12 hours, not from midnight."""

    def test_ordinary_day(self):
        self.assertEqual(service_time(datetime.datetime(2026, 3, 4, 0, 15, tzinfo=CHICAGO), CHICAGO),
                         {"date": 20260304, "after": 900, "previous_after": 87300})

    def test_spring_forward(self):
        # 2026-03-08: 02:00 CST becomes 03:00 CDT; the service day starts at 23:00 CST the day before.
        self.assertEqual(service_time(datetime.datetime(2026, 3, 8, 1, 30, tzinfo=CHICAGO), CHICAGO),
                         {"date": 20260308, "after": 9000, "previous_after": 9000 + 82800})
        self.assertEqual(service_time(datetime.datetime(2026, 3, 8, 8, 0, tzinfo=CHICAGO), CHICAGO),
                         {"date": 20260308, "after": 28800, "previous_after": 28800 + 82800})

    def test_fall_back(self):
        # 2026-11-01: 02:00 CDT becomes 01:00 CST; the service day starts at 01:00 CDT, an hour after midnight.
        self.assertEqual(service_time(datetime.datetime(2026, 11, 1, 8, 0, tzinfo=CHICAGO), CHICAGO),
                         {"date": 20261101, "after": 28800, "previous_after": 28800 + 90000})

    def test_any_zone_is_the_same_moment(self):
        moment = datetime.datetime(2026, 3, 4, 14, 0, tzinfo=datetime.timezone.utc)
        self.assertEqual(service_time(moment, CHICAGO), {"date": 20260304, "after": 8 * 3600, "previous_after": 32 * 3600})


class NotABundleTests(unittest.TestCase):
    def test_missing_file_and_other_sqlite(self):
        folder = tempfile.mkdtemp(prefix="feedc-screens-")
        self.addCleanup(shutil.rmtree, folder)
        with self.assertRaisesRegex(BundleError, "no bundle file"):
            Screens(os.path.join(folder, "none.sqlite"))
        other = os.path.join(folder, "other.sqlite")
        sqlite3.connect(other).execute("CREATE TABLE t(x)").connection.commit()
        with self.assertRaisesRegex(BundleError, "not a feedc bundle"):
            Screens(other)
        db = sqlite3.connect(other)
        db.executescript("CREATE TABLE meta(key TEXT, value TEXT); INSERT INTO meta VALUES ('format', '2');")
        with self.assertRaisesRegex(BundleError, "bundle format 2"):
            Screens(db)


@unittest.skipUnless(FEEDC, "needs FEEDC_BINARY or .build/release/feedc")
class ScreensTests(unittest.TestCase):
    """Each call against its documented query run by hand, on every bundle built."""

    def bundles(self):
        """(name, Screens, by_hand(query, **params) -> [row dict], a connection of the test's own) per bundle."""
        self.assertTrue(BUNDLES)
        found = []
        for name, path in BUNDLES.items():
            screens = Screens(path)
            hand = sqlite3.connect(path)
            hand.row_factory = sqlite3.Row
            self.addCleanup(screens.close)
            self.addCleanup(hand.close)
            found.append((name, screens, lambda _query, hand=hand, **params: [dict(r) for r in hand.execute(QUERIES[_query], params)], hand))
        return found

    def sample(self, hand, sql, count, seed=7):
        rows = [r[0] for r in hand.execute(sql)]
        return random.Random(seed).sample(rows, min(count, len(rows)))

    def test_stops_and_places_near(self):
        for name, screens, by_hand, hand in self.bundles():
            found = 0
            for stop in self.sample(hand, "SELECT stop_id FROM stops WHERE lat IS NOT NULL ORDER BY stop_id", 15):
                lat, lon = hand.execute("SELECT lat, lon FROM stops WHERE stop_id = ?", (stop,)).fetchone()
                lat, lon = lat + 0.0007, lon - 0.0009
                for radius, limit in ((300, 5), (2500, 40)):
                    scale = math.cos(math.radians(lat))
                    box = dict(lat=lat, lon=lon, dlat=radius / 111320, dlon=min(180, radius / 111320 / scale), lon_scale=scale, limit=limit)
                    want = by_hand("stops_near", **box)
                    got = screens.stops_near(lat, lon, radius_m=radius, limit=limit)
                    self.assertEqual([(s.stop_id, s.name, s.code, s.lat, s.lon) for s in got],
                                     [(r["stop_id"], r["name"], r["code"], r["lat"], r["lon"]) for r in want])
                    for s, r in zip(got, want):
                        self.assertAlmostEqual(s.distance_m, math.sqrt(r["distance"]) * 111320, places=6)
                        self.assertLessEqual(s.distance_m, radius * 1.5)
                    want = by_hand("places_near", **box)
                    got = screens.places_near(lat, lon, radius_m=radius, limit=limit)
                    self.assertEqual([(p.place_id, p.name, p.lat, p.lon, p.agencies, p.lines) for p in got],
                                     [(r["place_id"], r["name"], r["lat"], r["lon"], r["agencies"], r["lines"]) for r in want])
                    self.assertEqual([round(p.distance_m, 6) for p in got], [round(math.sqrt(r["distance"]) * 111320, 6) for r in want])
                    found += len(got)
            self.assertGreater(found, 0)

    def test_stops_and_places_named(self):
        for name, screens, by_hand, hand in self.bundles():
            names = self.sample(hand, "SELECT name FROM stops WHERE name IS NOT NULL ORDER BY stop_id", 12)
            texts = [n.split()[0] for n in names] + [n[:-2] for n in names if len(n) > 4] + ["st", "Café & Bäckerei", "and"]
            found = 0
            for text in texts:
                query = fold_query(text)
                got = screens.stops_named(text, limit=8)
                want = by_hand("stops_named", query=query, limit=8) if query else []
                self.assertEqual([(s.stop_id, s.name, s.code, s.lat, s.lon) for s in got],
                                 [(r["stop_id"], r["name"], r["code"], r["lat"], r["lon"]) for r in want], text)
                got = screens.places_named(text, limit=8)
                want = by_hand("places_named", query=query, limit=8) if query else []
                self.assertEqual([(p.place_id, p.name, p.lat, p.lon, p.exact_words, p.agencies, p.lines) for p in got],
                                 [(r["place_id"], r["name"], r["lat"], r["lon"], r["exact_words"], r["agencies"], r["lines"])
                                  for r in want], text)
                found += len(got)
            self.assertGreater(found, 0)
            for text in ("", "  ", "&", "& &", "!?"):
                self.assertEqual(screens.stops_named(text), [])
                self.assertEqual(screens.places_named(text), [])

    def test_stop_screens(self):
        for name, screens, by_hand, hand in self.bundles():
            stops = self.sample(hand, "SELECT stop_id FROM stops ORDER BY stop_id", 40)
            stops += [r[0] for r in hand.execute("SELECT stop_id FROM stops WHERE location_type = 1 ORDER BY stop_id LIMIT 5")]
            stops += self.sample(hand, "SELECT DISTINCT stop_id FROM same_places ORDER BY stop_id", 8)
            stops += self.sample(hand, "SELECT stop_id FROM stops WHERE parent_station IN (SELECT stop_id FROM same_places) ORDER BY stop_id", 5)
            seen = {"lines": 0, "same": 0, "transfers": 0}
            for stop in stops + ["no such stop"]:
                want = by_hand("lines_at_stop", stop_id=stop)
                got = screens.lines_at_stop(stop)
                self.assertEqual([tuple(vars(line).values()) for line in got], [tuple(r.values()) for r in want])
                seen["lines"] += len(got)
                got = screens.stop_lines(stop)
                self.assertEqual([(x.route_id, x.short_name, x.direction_index, x.direction_name, list(x.headsigns)) for x in got],
                                 [(r["route_id"], r["short_name"], r["direction_index"], r["direction"], json_list(r["headsigns"]))
                                  for r in by_hand("stop_lines", stop_id=stop)])
                got = screens.same_station(stop)
                self.assertEqual([tuple(vars(x).values()) for x in got], [tuple(r.values()) for r in by_hand("same_station", stop_id=stop)])
                seen["same"] += len(got)
                got = screens.transfers_from(stop)
                self.assertEqual([tuple(vars(x).values()) for x in got], [tuple(r.values()) for r in by_hand("transfers_from", stop_id=stop)])
                seen["transfers"] += len(got)
                got = screens.opposite_stop(stop)
                self.assertEqual([(x.stop_id, x.name, x.distance_m, x.confidence, list(x.route_ids)) for x in got],
                                 [(r["opposite_stop_id"], r["name"], r["distance_m"], r["confidence"], json_list(r["route_ids"]))
                                  for r in by_hand("opposite_stop", stop_id=stop)])
                for line in screens.lines_at_stop(stop)[:2]:
                    got = screens.opposite_stop(stop, line.route_id)
                    self.assertEqual([x.stop_id for x in got],
                                     [r["opposite_stop_id"] for r in by_hand("opposite_stop_on_line", stop_id=stop, route_id=line.route_id)])
                want = by_hand("stop_by_id", stop_id=stop)
                got = screens.stop_by_id(stop)
                self.assertEqual(None if got is None else tuple(vars(got).values()),
                                 tuple(dict(want[0], location_type=want[0]["location_type"] or 0).values()) if want else None)
            if not hand.execute("SELECT 1 FROM same_places LIMIT 1").fetchone():
                del seen["same"]  # the samples link no places
            self.assertTrue(all(seen.values()), (name, seen))

    def test_lines(self):
        for name, screens, by_hand, hand in self.bundles():
            for route in self.sample(hand, "SELECT route_id FROM routes ORDER BY route_id", 10) + ["no such line"]:
                got = screens.line_directions(route)
                self.assertEqual([(d.direction_index, d.name, d.headsign, list(d.terminal_stop_ids), d.is_loop) for d in got],
                                 [(r["direction_index"], r["name"], r["headsign"], json_list(r["terminal_stop_ids"]), r["is_loop"] == 1)
                                  for r in by_hand("line_directions", route_id=route)])
                for direction in (0, 1):
                    self.assertEqual([(s.stop_id, s.name, s.lat, s.lon) for s in screens.direction_stops(route, direction)],
                                     [(r["stop_id"], r["name"], r["lat"], r["lon"])
                                      for r in by_hand("direction_stops", route_id=route, direction_index=direction)])

    def moments(self, screens):
        """Local moments in the middle of the service range: a Wednesday's small hours, morning, evening and
        late evening, and the Sunday after."""
        first, last = (datetime.date(d // 10000, d // 100 % 100, d % 100) for d in screens.service_range())
        day = first + (last - first) / 2
        while day.weekday() != 2:  # a Wednesday
            day -= datetime.timedelta(days=1)
        return [datetime.datetime.combine(day, datetime.time(h, m)) for h, m in ((0, 15), (7, 58), (17, 30), (23, 50))] + [
            datetime.datetime.combine(day + datetime.timedelta(days=4), datetime.time(10, 5))]

    def test_departures(self):
        for name, screens, by_hand, hand in self.bundles():
            stops = [r[0] for r in hand.execute(
                "SELECT stop_id FROM stop_routes GROUP BY stop_id ORDER BY sum(trip_count) DESC, stop_id LIMIT 6")]
            stops += [r[0] for r in hand.execute("SELECT stop_id FROM stops WHERE location_type = 1 ORDER BY stop_id LIMIT 3")]
            count = {"next": 0, "place": 0}
            for stop in stops:
                zone_name = by_hand("stop_timezone", stop_id=stop)[0]["timezone"]
                zone = zoneinfo.ZoneInfo(zone_name)
                self.assertEqual(screens.stop_timezone(stop), zone)
                for local in self.moments(screens):
                    moment = local.replace(tzinfo=zone).timestamp()
                    date = int(local.strftime("%Y%m%d"))
                    yesterday = int((local - datetime.timedelta(days=1)).strftime("%Y%m%d"))
                    params = dict(stop_id=stop, date=date, after=math.floor(moment - start_of(date, zone)),
                                  previous_after=math.floor(moment - start_of(yesterday, zone)), limit=12)
                    for lang in (None, "en", "EN"):
                        want = by_hand("next_departures", lang=lang and lang.lower(), **params)
                        got = screens.next_departures(stop, local, limit=12, lang=lang)
                        self.assertEqual([departure_row(d) for d in got], [tuple(r.values()) for r in want], (stop, local))
                        for d in got:
                            self.assertEqual(d.time.timestamp(), start_of(d.service_date, zone) + d.service_seconds)
                            self.assertEqual(d.time.timestamp(), moment + d.wait)
                        count["next"] += len(got)
                    # The same moment given in UTC, aware, is the same answer.
                    aware = datetime.datetime.fromtimestamp(moment, datetime.timezone.utc)
                    self.assertEqual(screens.next_departures(stop, aware, limit=12), screens.next_departures(stop, local, limit=12))
                    want = by_hand("place_departures", **params)
                    got = screens.place_departures(stop, local, limit=12)
                    self.assertEqual([(d.trip_id, d.route_id, d.line, d.agency, d.stop_id, d.headsign, d.service_seconds, d.direction_index,
                                       d.service_date, d.wait, int(d.is_exact), d.headway, d.start_time) for d in got],
                                     [tuple(r.values()) for r in want], (stop, local))
                    for d in got:
                        self.assertEqual(d.time.timestamp(), moment + d.wait)
                    count["place"] += len(got)
            self.assertTrue(all(count.values()), count)

    def test_realtime_lookups(self):
        for name, screens, by_hand, hand in self.bundles():
            feeds = hand.execute("SELECT source_id, id_prefix FROM feeds ORDER BY source_id").fetchall()
            self.assertTrue(feeds)
            for source, prefix in feeds:
                own = lambda table, column: [r[0][len(prefix):] for r in hand.execute(  # noqa: E731
                    "SELECT %s FROM %s WHERE substr(%s, 1, ?) = ? ORDER BY %s LIMIT 5" % (column, table, column, column),
                    (len(prefix), prefix))]
                for stop in own("stops", "stop_id") + ["no such stop"]:
                    want = by_hand("realtime_stop", source_id=source, stop_id=stop)
                    got = screens.realtime_stop(source, stop)
                    self.assertEqual(None if got is None else tuple(vars(got).values()), tuple(want[0].values()) if want else None)
                    if stop != "no such stop":
                        self.assertEqual(got.stop_id, prefix + stop)
                        self.assertEqual(tuple(vars(screens.feed_id(prefix + stop)).values()), (source, stop))
                for route in own("routes", "route_id"):
                    got = screens.realtime_route(source, route)
                    self.assertEqual(tuple(vars(got).values()), tuple(by_hand("realtime_route", source_id=source, route_id=route)[0].values()))
                first, last = screens.service_range()
                for trip in own("trips", "trip_id"):
                    for date in (first, last, datetime.date(last // 10000, last // 100 % 100, last % 100)):
                        key = date if isinstance(date, int) else int(date.strftime("%Y%m%d"))
                        want = by_hand("realtime_trip", source_id=source, trip_id=trip, start_date=key)
                        got = screens.realtime_trip(source, trip, date)
                        self.assertEqual([(t.trip_id, t.service_date, int(t.runs), t.route_id, t.start_time) for t in got],
                                         [tuple(r.values()) for r in want])
                        self.assertTrue(got)
                    route, direction, start = hand.execute("SELECT route_id, direction_id, start_time FROM trips WHERE trip_id = ?",
                                                           (prefix + trip,)).fetchone()
                    if direction is not None:
                        clock = "%d:%02d:%02d" % (start // 3600, start // 60 % 60, start % 60)
                        want = [r["feed_trip_id"] for r in by_hand("realtime_trip_by_start", source_id=source, route_id=route[len(prefix):],
                                                                   direction_id=direction, start_time=start)]
                        self.assertIn(trip, want)
                        self.assertEqual(screens.realtime_trip_by_start(source, route[len(prefix):], direction, start), want)
                        self.assertEqual(screens.realtime_trip_by_start(source, route[len(prefix):], direction, clock), want)
            self.assertIsNone(screens.realtime_stop("no such source", "x"))
            self.assertIsNone(screens.realtime_route(feeds[0][0], "no such route"))

    def test_bad_arguments(self):
        path = next(iter(BUNDLES.values()))
        screens = Screens(path)
        self.addCleanup(screens.close)
        stop = screens.stops_near(*first_stop(path), radius_m=1000)[0].stop_id
        cases = [
            ("stop_id", lambda: screens.lines_at_stop("")), ("stop_id", lambda: screens.next_departures(None)),
            ("stop_id", lambda: screens.transfers_from(42)), ("stop_id", lambda: screens.same_station(b"s101")),
            ("lat", lambda: screens.stops_near(91, 0)), ("lat", lambda: screens.places_near(float("nan"), 0)),
            ("lon", lambda: screens.stops_near(0, "10")), ("lon", lambda: screens.stops_near(0, 180.5)),
            ("radius_m", lambda: screens.stops_near(0, 0, radius_m=-1)), ("radius_m", lambda: screens.places_near(0, 0, radius_m=math.inf)),
            ("limit", lambda: screens.stops_near(0, 0, limit=0)), ("limit", lambda: screens.stops_named("a", limit=True)),
            ("limit", lambda: screens.next_departures(stop, limit=10_001)), ("limit", lambda: screens.place_departures(stop, limit=2.5)),
            ("limit", lambda: screens.stops_near(0, 0, limit=-1)),
            ("at", lambda: screens.next_departures(stop, "2026-03-04T08:00")), ("at", lambda: screens.place_departures(stop, 1772600000)),
            ("at", lambda: screens.next_departures(stop, datetime.date(2026, 3, 4))),
            ("lang", lambda: screens.next_departures(stop, lang="")),
            ("text", lambda: screens.stops_named(None)), ("text", lambda: screens.places_named(["a"])),
            ("direction_index", lambda: screens.direction_stops("r", 2)), ("route_id", lambda: screens.opposite_stop(stop, "")),
            ("start_date", lambda: screens.realtime_trip("metro", "t", 20260231)),
            ("start_date", lambda: screens.realtime_trip("metro", "t", "20260304")),
            ("start_date", lambda: screens.realtime_trip("metro", "t", datetime.datetime(2026, 3, 4))),
            ("source_id", lambda: screens.realtime_stop("", "s")), ("bundle_id", lambda: screens.feed_id(None)),
            ("direction_id", lambda: screens.realtime_trip_by_start("metro", "r", 2, 0)),
            ("start_time", lambda: screens.realtime_trip_by_start("metro", "r", 0, "8:61:00")),
            ("start_time", lambda: screens.realtime_trip_by_start("metro", "r", 0, -5)),
        ]
        for argument, call in cases:
            with self.subTest(argument=argument), self.assertRaises(ValueError) as raised:
                call()
            self.assertTrue(str(raised.exception).startswith(argument + ": "), str(raised.exception))


def first_stop(path):
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT lat, lon FROM stops WHERE stop_id IN (SELECT stop_id FROM stop_routes) ORDER BY stop_id").fetchone()
    finally:
        db.close()


def json_list(text):
    return [] if text is None else json.loads(text)


def departure_row(d):
    """A Departure as the next_departures row it came from."""
    return (d.trip_id, d.route_id, d.headsign, d.service_seconds, d.direction_index, d.service_date, d.wait, int(d.is_exact),
            d.headway, d.start_time)


if __name__ == "__main__":
    unittest.main()
