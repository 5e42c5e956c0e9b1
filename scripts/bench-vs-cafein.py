#!/usr/bin/env python3
"""The journey planner's CPU per query beside cafein's (issue 43), in one run on the queries of
test_cafein_oracle.py (clients/python/tests/cafein_reference.py: 200 seeded random stop-to-stop
queries a feed, day and night; Bydgoszcz 2020, BART + Caltrain 2018):

- `feedc plan BUNDLE --batch`: one process, fed a line at a time; each query's CPU is the
  process's CPU clock (clock_gettime on its pid's clock: user + system, all threads, in ns)
  read before the line is written and after its answer is read.
- the Python planner (clients/python/feedc_planner.py, `answer`), in this process:
  time.process_time() around each query.
- cafein on the raw GTFS zips with the bundle's footpaths installed, in this process: its
  `route_between_stops` (the Pareto journeys with their legs, as feedc answers), once for each
  (origin stop, destination stop) of the two places (one pair for most queries); and its
  `travel_times_from_stop` (one-to-all earliest arrivals, what the test compares), once for
  each origin stop.

The first query of each side (opening the bundle, building the day's network) is measured apart
and left out of the per-query figures; so is building cafein's network. Prints median and p95
per query in milliseconds and the ratios to cafein's route_between_stops. Needs cafein
(`.build/venv/bin/pip install cafein==0.29.0`) and ../shared/data.

    .build/venv/bin/python scripts/bench-vs-cafein.py [--feedc .build/release/feedc] [--queries 200] [--feeds bydgoszcz,bay18]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "clients", "python", "tests"))
import cafein_reference as ref  # noqa: E402
from feedc_planner import JourneyPlanner, answer  # noqa: E402  (cafein_reference puts clients/python on sys.path)


def process_cpu(pid):
    """Seconds of CPU process `pid` has used (its CPU-time clock: clock_getcpuclockid)."""
    return time.clock_gettime((~pid << 3) | 2)


def quantiles(values):
    """(median, p95) of `values`, nearest rank."""
    ordered = sorted(values)
    return ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def bench_feedc(feedc, bundle, queries):
    """(CPU of the first query, [CPU of each other query], answers) of one `feedc plan --batch`."""
    process = subprocess.Popen([feedc, "plan", bundle, "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        times, answers = [], []
        for query in queries:
            before = process_cpu(process.pid)
            process.stdin.write(json.dumps(query) + "\n")
            process.stdin.flush()
            answers.append(json.loads(process.stdout.readline()))
            times.append(process_cpu(process.pid) - before)
        process.stdin.close()
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()  # the one process started here, by its id
            process.wait()
    return times[0], times[1:], answers


def bench_python(bundle, queries):
    planner = JourneyPlanner(bundle)
    times = []
    for query in queries:
        before = time.process_time()
        answer(planner, query)
        times.append(time.process_time() - before)
    return times[0], times[1:]


def bench_cafein(feed, queries):
    """([CPU of route_between_stops per query], [CPU of travel_times_from_stop per query],
    arrivals of route_between_stops) on cafein, each query over the stops of its places."""
    p2p, one_to_all, arrivals = [], [], []
    network = feed.network
    for query in queries:
        text, t = feed.departure(query)
        origins = [feed.to_cafein[s] for s in feed.place(query["from"])]
        targets = [feed.to_cafein[s] for s in feed.place(query["to"])]
        before = time.process_time()
        best = None
        for origin in origins:
            for target in targets:
                for journey in network.route_between_stops(origin, target, text, max_rides=ref.MAX_RIDES, geometries=False):
                    best = journey["arrival_s"] if best is None else min(best, journey["arrival_s"])
        p2p.append(time.process_time() - before)
        arrivals.append(best)
        before = time.process_time()
        for origin in origins:
            network.travel_times_from_stop(origin, text, max_rides=ref.MAX_RIDES)
        one_to_all.append(time.process_time() - before)
    return p2p, one_to_all, arrivals


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--feedc", default=os.path.join(ref.REPO, ".build", "release", "feedc"))
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--feeds", default=",".join(ref.FEEDS))
    args = parser.parse_args()
    cafein = ref.find_cafein()
    if cafein is None:
        sys.exit("cafein is not installed: .build/venv/bin/pip install cafein==%s" % ref.CAFEIN_VERSION)
    names = [n for n in args.feeds.split(",") if n]
    missing = [n for n in names if n not in ref.FEEDS or not ref.feeds_present(n)]
    if missing:
        sys.exit("unknown feeds or missing data: %s" % missing)
    feedc = os.path.abspath(args.feedc)
    folder = tempfile.mkdtemp(prefix="bench-cafein-")
    try:
        bundles = ref.build_bundles(feedc, folder, names)
        print("cafein %s, feedc %s, %d queries a feed (ms of CPU per query; the first query apart)" % (
            cafein.__version__, feedc, args.queries))
        for name in names:
            before = time.process_time()
            feed = ref.Reference(cafein, name, bundles[name])
            cafein_build = time.process_time() - before
            queries = feed.queries(args.queries)
            # The first query of each side opens the bundle / builds the day's network: a warm-up
            # query before the measured ones, so that every side is measured on the same queries.
            warm = [dict(queries[0])] + queries
            feedc_first, feedc_times, answers = bench_feedc(feedc, bundles[name], warm)
            python_first, python_times = bench_python(bundles[name], warm)
            p2p, one_to_all, arrivals = bench_cafein(feed, queries)
            agree = sum(ref.feedc_arrival(a, feed.date) == b for a, b in zip(answers[1:], arrivals))
            print("\n%s: %d queries; earliest arrivals equal (cafein route_between_stops vs feedc) on %d" % (name, len(queries), agree))
            print("  set-up: feedc first query %.0f ms, Python planner first query %.0f ms, cafein network build %.0f ms" % (
                feedc_first * 1e3, python_first * 1e3, cafein_build * 1e3))
            rows = [("feedc plan --batch", feedc_times), ("Python planner", python_times),
                    ("cafein route_between_stops", p2p), ("cafein travel_times_from_stop", one_to_all)]
            base = quantiles(p2p)
            print("  %-32s %9s %9s %15s %12s" % ("", "median", "p95", "median/cafein", "p95/cafein"))
            for label, values in rows:
                median, p95 = quantiles(values)
                print("  %-32s %9.3f %9.3f %15.2f %12.2f" % (label, median * 1e3, p95 * 1e3, median / base[0], p95 / base[1]))
            print("  totals (s): " + ", ".join("%s %.2f" % (label, sum(values)) for label, values in rows))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
