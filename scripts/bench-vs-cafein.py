#!/usr/bin/env python3
"""The journey planner's CPU per query beside cafein's (issue 43), in one run on the queries of
test_cafein_oracle.py (clients/python/tests/cafein_reference.py: 200 seeded random stop-to-stop
queries a feed, day and night; Bydgoszcz 2020, BART + Caltrain 2018):

- `feedc plan BUNDLE --batch`: one process, fed a line at a time; each query's CPU is the
  process's CPU clock (clock_gettime on its pid's clock: user + system, all threads, in ns)
  read before the line is written and after its answer is read.
- the Python planner (clients/python/feedc_planner.py, `answer`), in this process:
  time.process_time() around each query.
- cafein on the raw GTFS zips with the bundle's footpaths installed, in this process:
  time.process_time() around its `route_between_stops` (the Pareto journeys with their legs, as
  feedc answers), once for each (origin stop, destination stop) of the two places, from the
  origin's stops only (cafein's own question, without feedc's first walk: one call for most
  queries); and around the test's question (`Reference.cafein_arrival`: one-to-all
  `travel_times_from_stop` from the origin's stops and from every stop one walk away, feedc's
  model; several searches a query).

The first query of each side (opening the bundle, building the day's network) is measured apart
and left out of the per-query figures; so is building cafein's network. Prints median and p95
per query in milliseconds and the ratios to both cafein figures. Needs cafein
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
    """([CPU of route_between_stops per query], [CPU of the test's question per query], its
    arrivals) on cafein. route_between_stops: the Pareto journeys with their legs, as feedc
    answers, once per (origin stop, destination stop) of the two places, from the origin's stops
    only (cafein's own question: no first walk). The test's question: travel_times_from_stop
    from every start (`Reference.starts`: the origin's stops and the stops one walk away),
    which is feedc's transfer model."""
    p2p, same_model, arrivals = [], [], []
    network = feed.network
    for query in queries:
        text, t = feed.departure(query)
        origins = [feed.to_cafein[s] for s in feed.place(query["from"])]
        targets = [feed.to_cafein[s] for s in feed.place(query["to"])]
        before = time.process_time()
        for origin in origins:
            for target in targets:
                network.route_between_stops(origin, target, text, max_rides=ref.MAX_RIDES, geometries=False)
        p2p.append(time.process_time() - before)
        before = time.process_time()
        arrivals.append(feed.cafein_arrival(query)[0])
        same_model.append(time.process_time() - before)
    return p2p, same_model, arrivals


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
            p2p, same_model, arrivals = bench_cafein(feed, queries)
            agree = sum(ref.feedc_arrival(a, feed.date) == b for a, b in zip(answers[1:], arrivals))
            starts = sorted(len(feed.starts(q)) for q in queries)
            print("\n%s: %d queries; the earliest arrival of feedc and of cafein (the test's question) equal on %d; "
                  "cafein searches a query for the test's question: median %d, max %d" % (
                      name, len(queries), agree, starts[len(starts) // 2], starts[-1]))
            print("  set-up: feedc first query %.0f ms, Python planner first query %.0f ms, cafein network build %.0f ms" % (
                feedc_first * 1e3, python_first * 1e3, cafein_build * 1e3))
            rows = [("feedc plan --batch", feedc_times), ("Python planner", python_times),
                    ("cafein route_between_stops", p2p), ("cafein, the test's question", same_model)]
            base, model = quantiles(p2p), quantiles(same_model)
            print("  %-30s %8s %8s   %-23s %-23s" % ("", "median", "p95", "/ cafein route (med, p95)", "/ cafein test's (med, p95)"))
            for label, values in rows:
                median, p95 = quantiles(values)
                print("  %-30s %8.3f %8.3f   %10.2f %10.2f    %10.2f %10.2f" % (
                    label, median * 1e3, p95 * 1e3, median / base[0], p95 / base[1], median / model[0], p95 / model[1]))
            print("  totals (s): " + ", ".join("%s %.2f" % (label, sum(values)) for label, values in rows))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
