"""The journey planner against an outside reference (issue 43, "journeys a rider can trust"):
cafein (PyPI `cafein`, a RAPTOR written in Rust by others, pinned in .ci/run and installed into
.build/venv) routes on the raw GTFS zips, `feedc plan --batch` ($FEEDC_BINARY) on the bundle
`feedc build` makes of them. 200 seeded random queries per feed between served stops, day
(06:00–21:59) and night (22:00–04:59, where the day before's trips past 24:00:00 run): Bydgoszcz
2020 (583k stop times, no transfers.txt) on 30 April 2020 and BART + Caltrain of June 2018 joined
on 13 June 2018. The earliest arrival must agree, or the difference be one of the model's known
ones below; any other is printed with its query and fails the test.

Where the two models differ, and what is done (cafein_reference.py does it):
- Footpaths: cafein has none on these zips (its transfer_count is 0: BART's transfers.txt rows
  are all at one stop, and without an OpenStreetMap extract it computes no walks). It is given the bundle's `stop_transfers` between
  served stops, the walks feedc uses, as they are (`set_transfers`): both relax one walk after
  a ride or at the start, never two in a row, so the same walks are had.
- Places: a feedc stop id names its place (its station's stops and what `same_places` links,
  e.g. Millbrae's Caltrain platforms and BART's Millbrae); cafein routes from one stop to one
  stop. cafein is run from every served stop of the origin's place, read at every served stop of
  the destination's, and the earliest kept. Queries whose places share a stop are not asked.
- The first walk: feedc's round 0 is the origin's stops and one footpath from them (a journey
  may start on foot, or be a walk alone); cafein, given a stop and no street network, boards only
  there and walks only after a ride. cafein is also run from every stop one footpath from the
  origin's place, leaving when the walk arrives (so no query departs after 23:44: the walk
  arrives within the service day asked).
- Change times: feedc's change at one stop takes transfers.txt's stop-level time (type 2
  min_transfer_time, the stop's row else its station's; type 3 forbids it); cafein changes in no
  time at the same stop (it ignores those rows, and a self-loop transfer is not read as one).
  Bydgoszcz has no transfers.txt, Caltrain's is empty, BART's gives Coliseum (COLS) 240 s: a
  query where cafein arrives earlier by a change at such a stop under its time is counted
  "change time" (its journey is fetched with route_between_stops and the change shown) when
  feedc's arrival is exactly cafein's once the trips it boards by such changes are excluded,
  one at a time, until its journey changes only as feedc allows (`exclude_trips`). cafein's
  first answer is a lower bound on feedc's (it allows every change feedc does), the last an
  upper bound (a journey feedc may ride): feedc's arrival on the upper bound is consistent, not
  proven earliest (an excluded trip may also have been boarded elsewhere within the rules).
- At most 8 rides on both sides (feedc's cap, cafein's `max_rides` default).
- pickup_type / drop_off_type 1: feedc never boards / alights there; cafein 0.29.0 does (seen on
  a three-stop feed). Frequencies, untimed calls: not compared. The feeds here have none of
  these (BART's and Caltrain's frequencies.txt are empty): the test checks the bundles for them.
Nothing else differs on these feeds: no parent stations, no clock change on the dates.

Skipped when ../shared/data, cafein or $FEEDC_BINARY is missing; under CI (FEEDC_CI_RUN set,
.ci/run installs cafein), with the data and the binary there, a missing cafein fails instead.

    FEEDC_BINARY=.build/release/feedc python3 -m unittest discover -s clients/python/tests -p test_cafein_oracle.py -v
"""
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cafein_reference as ref  # noqa: E402

QUERIES = 200
FEEDC = os.path.abspath(os.environ["FEEDC_BINARY"]) if os.environ.get("FEEDC_BINARY") else None
CAFEIN = ref.find_cafein()
BUNDLES = {}
FOLDER = None


def setUpModule():
    global FOLDER
    names = [name for name in ref.FEEDS if ref.feeds_present(name)]
    if CAFEIN is None and names and FEEDC and os.environ.get("FEEDC_CI_RUN"):
        raise AssertionError("cafein is not installed: .ci/run installs cafein==%s into .build/venv" % ref.CAFEIN_VERSION)
    if CAFEIN is not None and FEEDC and names:
        FOLDER = tempfile.mkdtemp(prefix="feedc-cafein-")
        BUNDLES.update(ref.build_bundles(FEEDC, FOLDER, names))


def tearDownModule():
    if FOLDER:
        shutil.rmtree(FOLDER, ignore_errors=True)


class CafeinOracleTests(unittest.TestCase):

    def compare(self, name):
        """Runs the queries of `name` on both sides; returns the counts and fails on any
        difference that the model's known ones do not explain."""
        if CAFEIN is None:
            self.skipTest("cafein is not installed (pip install cafein==%s into .build/venv)" % ref.CAFEIN_VERSION)
        if not FEEDC:
            self.skipTest("FEEDC_BINARY is not set")
        if name not in BUNDLES:
            self.skipTest("../shared/data lacks the feeds of %s" % name)
        self.assertEqual(CAFEIN.__version__, ref.CAFEIN_VERSION)
        feed = ref.Reference(CAFEIN, name, BUNDLES[name])
        self.assertEqual(set(feed.unmodelled().values()), {0}, "the feed holds what the two models read apart: %s" % feed.unmodelled())
        queries = feed.queries(QUERIES)
        answers = ref.feedc_answers(FEEDC, BUNDLES[name], queries)
        self.assertEqual(len(answers), len(queries))
        counts = {"agree": 0, "agree (no journey)": 0, "change time": 0, "unexplained": 0}
        notes = []
        for query, answer in zip(queries, answers):
            self.assertNotIn("problem", answer, query)
            got = ref.feedc_arrival(answer, feed.date)
            want, pair = feed.cafein_arrival(query)
            if got == want:
                counts["agree" if got is not None else "agree (no journey)"] += 1
                continue
            line = "%s  feedc %s  cafein %s" % (query, ref.clock(got), ref.clock(want))
            journey = feed.cafein_journey(query, pair) if want is not None else None
            violated = feed.violated_changes(journey) if journey else []
            # Explained by a change time: cafein is earlier by changing at a stop under its change
            # time, and feedc's arrival is what cafein answers once the trips it boards by such
            # changes are excluded (an upper bound: that journey is one feedc may ride).
            if journey and journey["arrival_s"] == want and violated and got is not None and want < got:
                bound, _, refused = feed.respecting_changes(query)
                if bound == got:
                    counts["change time"] += 1
                    notes.append("change time: %s, cafein without the trips it boards by a change under the stop's time %s; %s" % (
                        line, ref.clock(bound), "; ".join("at %s in %d s (feedc: %s) onto %s" % v for v in refused)))
                    continue
            counts["unexplained"] += 1
            notes.append("UNEXPLAINED: %s; cafein's journey: %s; feedc's: %s" % (line, journey and [
                (leg["type"], leg.get("trip_id"), leg.get("board_stop") or leg.get("from_stop"),
                 leg.get("alight_stop") or leg.get("to_stop"), ref.clock(leg["departure_s"]), ref.clock(leg["arrival_s"]))
                for leg in journey["legs"]], answer["journeys"][:1]))
        night = [a for q, a in zip(queries, answers) if not 6 <= int(q["depart"][11:13]) < 22]
        small_hours = [a for q, a in zip(queries, answers) if int(q["depart"][11:13]) < 6 and a["journeys"]]
        print("\n  cafein %s, %s: %d queries (%d at night, %d answered from 00:00 to 05:59), %s; %d footpaths given to cafein" % (
            CAFEIN.__version__, name, len(queries), len(night), len(small_hours), ", ".join("%s %d" % kv for kv in counts.items()),
            len(feed.footpaths)), file=sys.stderr)
        for note in notes:
            print("    " + note, file=sys.stderr)
        self.assertEqual(counts["unexplained"], 0, "\n".join(n for n in notes if n.startswith("UNEXPLAINED")))
        self.assertGreater(counts["agree"], len(queries) // 2, "most random pairs of a network are connected")
        return counts

    def test_bydgoszcz(self):
        counts = self.compare("bydgoszcz")
        self.assertEqual(counts["change time"], 0, "Bydgoszcz has no transfers.txt: no change time")

    def test_bart_and_caltrain(self):
        self.compare("bay18")


if __name__ == "__main__":
    unittest.main()
