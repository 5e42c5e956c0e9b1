#!/usr/bin/env python3
"""Evaluate inferred directions and opposite stops against the agencies' own (issue 47).

For every shared GTFS feed whose trips carry `direction_id` (gtfs/small, gtfs/medium, and the
latest version of each gtfs/versions/* agency; a feed counts when at least half its trips have a
direction_id of 0 or 1, not all the same value; only those trips are scored):

1. write a copy of the feed to a temporary folder with the `direction_id` column removed from
   trips.txt (found in any subfolder of the zip; every other member is copied byte for byte);
2. build it with feedc (a pipeline.yaml with one bundle and one source; `feedc build --json`);
3. read the bundle (out/feed/bundles/*.sqlite.gz, not the .packed. one) and compare, per route,
   each trip's user-facing direction (`trips.pattern_id` -> `patterns.direction_index`) with the
   agency's direction_id, up to a swap of the two labels (the better mapping is chosen per route).
   A loop the bundle gives one direction scores the larger of the agency's two directions.
   "Label noise": trips whose first and last stop match other trips the agency labels the other
   way (the minority of each such group); no inference agrees with them, so total - noise is the
   ceiling. Amtrak's direction_id, for one, is not geographic on several routes;
4. on feeds with bus routes (route_type 3 or 700-799), the opposite-stop check. Labelled pairs:
   two stops with the same name (case-folded), served by a common bus line in opposite agency
   directions, each the other's nearest such stop, within 250 m. Recall: labelled pairs linked in
   the bundle's `stop_opposites`; "linked elsewhere": labelled pairs where a stop is linked to
   some other stop instead.

Prints per feed the trips agreeing / total and the routes below 100%, then a summary table;
`--json FILE` writes everything as JSON. Needs only Python 3 and a built feedc.

    scripts/eval-directions.py --feedc .build/release/feedc [--data ../shared/data] [--json out.json]
"""

import argparse
import csv
import glob
import gzip
import io
import json
import math
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import zipfile
from collections import Counter, defaultdict

OPPOSITE_MAX_M = 250.0


def trips_member(names):
    """The zip member that is the feed's trips.txt (top level or in one subfolder)."""
    cands = [n for n in names if os.path.basename(n) == "trips.txt" and not n.startswith("__MACOSX")]
    return min(cands, key=len) if cands else None


def read_csv(data):
    text = data.decode("utf-8-sig", errors="replace")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if not rows:
        return [], []
    header = [h.strip() for h in rows[0]]
    return header, [r for r in rows[1:] if any(c.strip() for c in r)]


def strip_direction(data):
    """trips.txt without its direction_id column (BOM and line ending kept)."""
    bom = data.startswith(b"\xef\xbb\xbf")
    text = data.decode("utf-8-sig")
    eol = "\r\n" if "\r\n" in text[:4096] else "\n"
    rows = list(csv.reader(io.StringIO(text, newline="")))
    idx = [h.strip() for h in rows[0]].index("direction_id")
    out = io.StringIO(newline="")
    w = csv.writer(out, lineterminator=eol)
    for r in rows:
        w.writerow(r[:idx] + r[idx + 1:])
    body = out.getvalue().encode("utf-8")
    return (b"\xef\xbb\xbf" if bom else b"") + body


def feed_tables(zpath):
    """The feed's zip members by basename (top-level folder ignored), read lazily."""
    z = zipfile.ZipFile(zpath)
    names = [n for n in z.namelist() if not n.startswith("__MACOSX") and not n.endswith("/")]
    by_base = {}
    for n in sorted(names, key=len):
        by_base.setdefault(os.path.basename(n), n)
    return z, by_base


def agency_directions(zpath):
    """{trip_id: (route_id, 0|1)} for trips with a direction_id, the trip count, and route types."""
    z, m = feed_tables(zpath)
    if "trips.txt" not in m:
        return None, 0, {}
    header, rows = read_csv(z.read(m["trips.txt"]))
    route_types = {}
    if "routes.txt" in m:
        rh, rr = read_csv(z.read(m["routes.txt"]))
        if "route_id" in rh and "route_type" in rh:
            i, j = rh.index("route_id"), rh.index("route_type")
            for r in rr:
                if len(r) > max(i, j):
                    route_types[r[i]] = r[j].strip()
    if "direction_id" not in header:
        return {}, len(rows), route_types
    ti, ri, di = header.index("trip_id"), header.index("route_id"), header.index("direction_id")
    dirs = {}
    for r in rows:
        if len(r) > max(ti, ri, di) and r[di].strip() in ("0", "1"):
            dirs[r[ti]] = (r[ri], int(r[di].strip()))
    return dirs, len(rows), route_types


def write_stripped(zpath, dest):
    src = zipfile.ZipFile(zpath)
    tm = trips_member(src.namelist())
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == tm:
                data = strip_direction(data)
            out.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)


def build(feedc, zpath, work):
    feed = os.path.join(work, "feed.zip")
    write_stripped(zpath, feed)
    with open(os.path.join(work, "pipeline.yaml"), "w") as f:
        f.write("output: out\nbundles:\n  - name: feed\n    sources:\n      - id: feed\n        path: feed.zip\n")
    p = subprocess.run([feedc, "build", "--json"], cwd=work, capture_output=True, text=True)
    if p.returncode not in (0, 3):
        raise RuntimeError(f"feedc build exit {p.returncode}: {p.stderr.strip()[-400:]}")
    gz = [g for g in glob.glob(os.path.join(work, "out/feed/bundles/*.sqlite.gz")) if ".packed." not in g]
    if not gz:
        raise RuntimeError("no bundle written")
    db = os.path.join(work, "bundle.sqlite")
    with gzip.open(max(gz, key=os.path.getmtime)) as i, open(db, "wb") as o:
        shutil.copyfileobj(i, o)
    return sqlite3.connect(db)


def compare_directions(con, agency):
    """Per route: trips agreeing (best of identity / swap) and total."""
    inferred = dict(con.execute(
        "SELECT t.trip_id, p.direction_index FROM trips t JOIN patterns p ON p.pattern_id = t.pattern_id"))
    loops = {r for (r,) in con.execute("SELECT route_id FROM directions WHERE is_loop = 1")}
    ndirs = dict(con.execute("SELECT route_id, COUNT(*) FROM directions GROUP BY route_id"))
    npat = dict(con.execute("SELECT route_id, COUNT(*) FROM patterns GROUP BY route_id"))
    names = {r: (s or l or r) for r, s, l in con.execute("SELECT route_id, short_name, long_name FROM routes")}
    ends = dict(con.execute(
        "SELECT ps.pattern_id, MIN(CASE WHEN ps.stop_index = 0 THEN ps.stop_id END) || ' > ' || "
        "(SELECT l.stop_id FROM pattern_stops l WHERE l.pattern_id = ps.pattern_id ORDER BY l.stop_index DESC LIMIT 1) "
        "FROM pattern_stops ps GROUP BY ps.pattern_id"))
    trip_pattern = dict(con.execute("SELECT trip_id, pattern_id FROM trips"))
    per = defaultdict(Counter)  # route -> Counter of (agency, inferred)
    by_ends = defaultdict(Counter)  # (route, first > last stop) -> Counter of agency directions
    missing = 0
    for trip, (route, d) in agency.items():
        if trip not in inferred:
            missing += 1
            continue
        per[route][(d, inferred[trip])] += 1
        by_ends[(route, ends.get(trip_pattern[trip]))][d] += 1
    # Label noise: trips from the same first stop to the same last stop that the agency gives both
    # directions; no assignment of whole patterns can agree with the minority, so total - noise
    # is the ceiling any inference can reach.
    noise = Counter()
    for (route, _), c in by_ends.items():
        if len(c) == 2:
            noise[route] += min(c.values())
    routes = []
    for route, c in sorted(per.items()):
        same = sum(n for (a, i), n in c.items() if a == i)
        swap = sum(n for (a, i), n in c.items() if a != i)
        total = same + swap
        routes.append({
            "route_id": route, "name": names.get(route, route), "agree": max(same, swap), "total": total,
            "swapped": swap > same, "bundle_directions": ndirs.get(route, 0), "loop": route in loops,
            "patterns": npat.get(route, 0), "label_noise": noise[route],
            "cells": {f"{a}->{i}": n for (a, i), n in sorted(c.items())},
        })
    return routes, missing


def haversine(a, b):
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(min(1.0, h)))


def check_opposites(con, agency, route_types):
    """Labelled opposite pairs from agency directions; recall against stop_opposites."""
    bus = {r for r, t in route_types.items() if t == "3" or (t.isdigit() and 700 <= int(t) < 800)}
    if not bus:
        return None
    trip_pattern = dict(con.execute("SELECT trip_id, pattern_id FROM trips"))
    pstops = defaultdict(set)
    for pid, sid in con.execute("SELECT pattern_id, stop_id FROM pattern_stops"):
        pstops[pid].add(sid)
    served = defaultdict(set)  # stop -> {(route, agency direction)}
    done = set()
    for trip, (route, d) in agency.items():
        pid = trip_pattern.get(trip)
        if route in bus and pid and (pid, route, d) not in done:
            done.add((pid, route, d))
            for s in pstops[pid]:
                served[s].add((route, d))
    stops = {sid: (name, lat, lon) for sid, name, lat, lon in con.execute(
        "SELECT stop_id, name, lat, lon FROM stops WHERE lat IS NOT NULL AND lon IS NOT NULL")}
    by_name = defaultdict(list)
    for s in served:
        if s in stops and stops[s][0]:
            by_name[stops[s][0].strip().casefold()].append(s)
    nearest = {}
    for group in by_name.values():
        for a in group:
            best = None
            for b in group:
                if b == a or not any((r, 1 - d) in served[b] for r, d in served[a]):
                    continue
                dist = haversine(stops[a][1:], stops[b][1:])
                if best is None or dist < best[1] or (dist == best[1] and b < best[0]):
                    best = (b, dist)
            if best:
                nearest[a] = best
    pairs = sorted({tuple(sorted((a, b))) for a, (b, dist) in nearest.items()
                    if dist <= OPPOSITE_MAX_M and nearest.get(b, (None,))[0] == a})
    links = defaultdict(set)
    for a, b in con.execute("SELECT stop_id, opposite_stop_id FROM stop_opposites"):
        links[a].add(b)
    linked = sum(1 for a, b in pairs if b in links[a] or a in links[b])
    elsewhere = sum(1 for a, b in pairs if not (b in links[a] or a in links[b])
                    and ((links[a] - {b}) or (links[b] - {a})))
    misses = [[a, b, stops[a][0]] for a, b in pairs if not (b in links[a] or a in links[b])]
    return {"labelled": len(pairs), "linked": linked, "linked_elsewhere": elsewhere,
            "bundle_links": sum(len(v) for v in links.values()) // 2, "missed_examples": misses[:10]}


def feeds(data):
    out = sorted(glob.glob(os.path.join(data, "gtfs/small/*.zip"))) + sorted(glob.glob(os.path.join(data, "gtfs/medium/*.zip")))
    for agency in sorted(glob.glob(os.path.join(data, "gtfs/versions/*/"))):
        zips = glob.glob(os.path.join(agency, "*.zip"))
        def key(p):
            m = re.search(r"(\d{4})-(\d{2})(?:-(\d{2}))?", os.path.basename(p))
            return (m.group(1), m.group(2), m.group(3) or "00", os.path.basename(p)) if m else ("", "", "", p)
        if zips:
            out.append(max(zips, key=key))
    return out


def pct(a, b):
    return f"{100.0 * a / b:.1f}%" if b else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--feedc", default=".build/release/feedc")
    ap.add_argument("--data", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../shared/data"))
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    ap.add_argument("--only", metavar="SUBSTR", action="append", help="only feeds whose path contains this")
    args = ap.parse_args()
    feedc = os.path.abspath(args.feedc)
    data = os.path.abspath(args.data)
    results, skipped = [], []
    for zpath in feeds(data):
        rel = os.path.relpath(zpath, os.path.join(data, "gtfs"))
        if args.only and not any(s in rel for s in args.only):
            continue
        agency, ntrips, route_types = agency_directions(zpath)
        if not agency or len(agency) * 2 < ntrips or len({d for _, d in agency.values()}) < 2:
            why = "constant" if agency and len(agency) * 2 >= ntrips else "no or partial"
            skipped.append({"feed": rel, "trips_with_direction": len(agency or {}), "trips": ntrips, "why": why})
            continue
        with tempfile.TemporaryDirectory(prefix="eval47-") as work:
            try:
                con = build(feedc, zpath, work)
            except RuntimeError as e:
                print(f"{rel}: {e}", file=sys.stderr)
                results.append({"feed": rel, "error": str(e)})
                continue
            routes, missing = compare_directions(con, agency)
            kept = con.execute("SELECT COUNT(*) FROM directions WHERE source = 'feed'").fetchone()[0]
            if kept:
                print(f"{rel}: {kept} directions still from the feed: direction_id not removed?", file=sys.stderr)
            opp = check_opposites(con, agency, route_types)
            con.close()
        agree, total = sum(r["agree"] for r in routes), sum(r["total"] for r in routes)
        noise = sum(r["label_noise"] for r in routes)
        res = {"feed": rel, "agree": agree, "total": total, "label_noise": noise, "routes": len(routes),
               "routes_below_100": [r for r in routes if r["agree"] < r["total"]],
               "trips_not_in_bundle": missing, "opposites": opp}
        results.append(res)
        print(f"\n== {rel}: {agree}/{total} trips agree ({pct(agree, total)}), "
              f"{len(routes) - len(res['routes_below_100'])}/{len(routes)} routes at 100%; "
              f"agency label noise {noise} trips")
        for r in sorted(res["routes_below_100"], key=lambda r: r["agree"] / r["total"]):
            kind = "loop" if r["loop"] else f"{r['bundle_directions']} dir"
            print(f"   route {r['route_id']} ({r['name']}): {r['agree']}/{r['total']} ({pct(r['agree'], r['total'])})"
                  f"  [{kind}, {r['patterns']} patterns, label noise {r['label_noise']}, agency->bundle {r['cells']}]")
        if opp:
            print(f"   opposites: {opp['linked']}/{opp['labelled']} labelled pairs linked ({pct(opp['linked'], opp['labelled'])}),"
                  f" {opp['linked_elsewhere']} linked elsewhere; bundle links {opp['bundle_links']}")
    ok = [r for r in results if "error" not in r]
    print("\n| feed | trips agreeing | % | ceiling (minus label noise) | routes < 100% | opposite recall | linked elsewhere |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in ok:
        o = r["opposites"]
        orec = f"{o['linked']}/{o['labelled']} ({pct(o['linked'], o['labelled'])})" if o else "-"
        print(f"| {r['feed']} | {r['agree']}/{r['total']} | {pct(r['agree'], r['total'])} | "
              f"{pct(r['total'] - r['label_noise'], r['total'])} | "
              f"{len(r['routes_below_100'])}/{r['routes']} | {orec} | {o['linked_elsewhere'] if o else '-'} |")
    A, T = sum(r["agree"] for r in ok), sum(r["total"] for r in ok)
    N = sum(r["label_noise"] for r in ok)
    macro = sum(r["agree"] / r["total"] for r in ok if r["total"]) / max(1, len(ok))
    L = sum(r["opposites"]["labelled"] for r in ok if r["opposites"])
    K = sum(r["opposites"]["linked"] for r in ok if r["opposites"])
    E = sum(r["opposites"]["linked_elsewhere"] for r in ok if r["opposites"])
    print(f"| **overall** | {A}/{T} | {pct(A, T)} (mean of feeds {100 * macro:.1f}%) | {pct(T - N, T)} | "
          f"{sum(len(r['routes_below_100']) for r in ok)}/{sum(r['routes'] for r in ok)} | {K}/{L} ({pct(K, L)}) | {E} |")
    if skipped:
        print("\nskipped (direction_id missing on over half the trips, or the same on every trip): " + ", ".join(
            f"{s['feed']} ({s['why']}, {s['trips_with_direction']}/{s['trips']})" for s in skipped))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"feeds": results, "skipped": skipped,
                       "overall": {"agree": A, "total": T, "label_noise": N, "mean_of_feeds": macro,
                                   "opposites": {"labelled": L, "linked": K, "linked_elsewhere": E}}}, f, indent=1)
    return 1 if len(ok) < len(results) else 0


if __name__ == "__main__":
    sys.exit(main())
