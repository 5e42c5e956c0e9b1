#!/usr/bin/env python3
"""Compare feedc's validation with gtfs-guru's (MobilityData's rules and codes, in Rust).

A benchmark, not a CI test. For every GTFS zip under ../shared/data (or the paths given), runs
gtfs-guru (Python API, `gtfs_guru.validate(path).notices`) and `feedc validate ZIP --json`, then
prints how far they agree:

- notices: the share of gtfs-guru's ERROR (and WARNING, and INFO) notices whose (feed, code)
  feedc reports with the same count;
- pairs: the (feed, code) pairs either side reports at that severity, and how many agree on the
  count;
- exit status: feedc exits 1 exactly when gtfs-guru has ERROR notices (feeds gtfs-guru reads);
- a per-code table of the differences.

Codes listed in the "Deliberate differences" table of docs/validation.md, and feedc's own codes
listed below it ("Other codes feedc raises that MobilityData has not": what the compiler did,
such as the info `rows_dropped`), are counted apart ("excluding documented differences"), and so
are feeds gtfs-guru does not read: files in a
subfolder (`invalid_input_files_in_subfolder`), which both report as missing from the top level
and which feedc then reads from the subfolder, finding in them what MobilityData cannot.

Both validate as of the same date (`--date`, default today in UTC): gtfs-guru's `date=` and
feedc's `--date`, so the calendar warnings do not depend on the day the script runs.

Usage: scripts/compare-validators.py [--feedc PATH] [--guru-python PATH] [--date YYYY-MM-DD] [--verbose] [ZIP ...]
gtfs-guru: python3 -m venv /tmp/guru-venv && /tmp/guru-venv/bin/pip install gtfs-guru
The gtfs-guru results are cached in /tmp/guru-cache (keyed by path, size, mtime and date).
"""
import argparse
import collections
import datetime
import hashlib
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "..", "shared", "data")
CACHE = "/tmp/guru-cache"

GURU_SNIPPET = r"""
import json, sys, collections, gtfs_guru
result = gtfs_guru.validate(sys.argv[1], date=sys.argv[2])
counts = collections.Counter((n.code, n.severity) for n in result.notices)
print(json.dumps([[c, s, n] for (c, s), n in counts.items()]))
"""


def zips(paths):
    if paths:
        return sorted(paths)
    found = []
    for folder, _, files in os.walk(os.path.join(DATA, "gtfs")):
        found += [os.path.join(folder, f) for f in files if f.endswith(".zip")]
    return sorted(found)


def guru(python, path, today):
    """gtfs-guru's notices of one feed: {(code, severity): count}, or None when it failed."""
    st = os.stat(path)
    key = hashlib.sha256(f"{os.path.abspath(path)}|{st.st_size}|{st.st_mtime}|{today}".encode()).hexdigest()[:24]
    cached = os.path.join(CACHE, key + ".json")
    if os.path.exists(cached):
        with open(cached) as f:
            rows = json.load(f)
    else:
        run = subprocess.run([python, "-c", GURU_SNIPPET, path, today], capture_output=True, text=True)
        if run.returncode != 0:
            rows = None
        else:
            rows = json.loads(run.stdout.strip().splitlines()[-1])
        os.makedirs(CACHE, exist_ok=True)
        with open(cached, "w") as f:
            json.dump(rows, f)
    if rows is None:
        return None
    return {(c, s.lower()): n for c, s, n in rows}


def feedc(binary, path, today):
    """feedc's notices of one feed as of `today`: ({(code, severity): count}, exit status)."""
    run = subprocess.run([binary, "validate", path, "--json", "--date", today], capture_output=True, text=True)
    counts = {}
    try:
        report = json.loads(run.stdout)
        for n in report.get("notices", []):
            counts[(n["code"], n["severity"].lower())] = n["count"]
    except (json.JSONDecodeError, AttributeError):
        pass
    return counts, run.returncode


def deliberate():
    """Codes of the deliberate-differences table in docs/validation.md, and feedc's own codes
    (its paragraph "Other codes feedc raises that MobilityData has not"), which gtfs-guru never
    raises."""
    path = os.path.join(ROOT, "docs", "validation.md")
    if not os.path.exists(path):
        return set()
    codes, inside, own = set(), False, False
    for line in open(path):
        if line.startswith("## "):
            inside = "deliberate" in line.lower()
            own = False
        elif inside and line.startswith("| `"):
            codes.update(re.findall(r"`([a-z0-9_]+)`", line.split("|")[1]))
        elif inside and line.startswith("Other codes feedc raises that MobilityData has not"):
            own = True
        if own:
            # The paragraph ends on a blank line, or where it turns to MobilityData's i_o_error.
            text, _, rest = line.partition("A dump of any format")
            codes.update(re.findall(r"`([a-z0-9_]+)`", text))
            own = bool(line.strip()) and not rest
    return codes


def by_severity(counts, severity):
    out = collections.Counter()
    for (code, s), n in counts.items():
        if s == severity:
            out[code] += n
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--feedc", default=os.path.join(ROOT, ".build", "release", "feedc"))
    parser.add_argument("--guru-python", default="/tmp/guru-venv/bin/python")
    parser.add_argument("--verbose", action="store_true", help="print every differing (feed, code)")
    parser.add_argument("--date", help="validation date, YYYY-MM-DD, given to both validators (default: today, UTC)")
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args()
    today = args.date or datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    skip = deliberate()

    feeds = []
    for path in zips(args.paths):
        started = time.time()
        g = guru(args.guru_python, path, today)
        f, status = feedc(args.feedc, path, today)
        feeds.append((os.path.relpath(path, DATA) if path.startswith(DATA) else path, g, f, status))
        print(f"  {feeds[-1][0]}: {time.time() - started:.1f} s", file=sys.stderr)

    readable = [x for x in feeds if x[1] is not None]
    print(f"date {today}; {len(feeds)} zips, {len(readable)} read by gtfs-guru")
    if skip:
        print("documented deliberate differences: " + ", ".join(sorted(skip)))
    for severity in ("error", "warning", "info"):
        total = agreed = total_x = agreed_x = 0
        pairs = pairs_agreed = pairs_x = pairs_agreed_x = 0
        table = collections.defaultdict(lambda: [0, 0, 0, []])  # guru total, feedc total, feeds differing
        for name, g, f, _ in readable:
            gc, fc = by_severity(g, severity), by_severity(f, severity)
            unread = ("invalid_input_files_in_subfolder", "error") in g
            for code in set(gc) | set(fc):
                same = gc[code] == fc[code]
                pairs += 1
                pairs_agreed += same
                total += gc[code]
                agreed += gc[code] if same else 0
                if code not in skip and not unread:
                    pairs_x += 1
                    pairs_agreed_x += same
                    total_x += gc[code]
                    agreed_x += gc[code] if same else 0
                row = table[code]
                row[0] += gc[code]
                row[1] += fc[code]
                if not same:
                    row[2] += 1
                    row[3].append(f"{name} {gc[code]}/{fc[code]}")
        pct = lambda a, b: f"{100 * a / b:.1f}%" if b else "n/a"
        print(f"\n{severity.upper()}: notices agreeing {agreed}/{total} ({pct(agreed, total)}); "
              f"(feed, code) pairs agreeing {pairs_agreed}/{pairs} ({pct(pairs_agreed, pairs)})")
        print(f"  excluding documented differences: notices {agreed_x}/{total_x} ({pct(agreed_x, total_x)}); "
              f"pairs {pairs_agreed_x}/{pairs_x} ({pct(pairs_agreed_x, pairs_x)})")
        differing = sorted(((c, r) for c, r in table.items() if r[2]), key=lambda cr: (-cr[1][2], cr[0]))
        if differing:
            print(f"  {'code':58} {'feeds':>5} {'gtfs-guru':>10} {'feedc':>10}")
            for code, (gt, ft, nf, where) in differing:
                mark = " (documented)" if code in skip else ""
                print(f"  {code:58} {nf:5} {gt:10} {ft:10}{mark}")
                if args.verbose:
                    for w in where:
                        print(f"      {w}")
    agree = sum(1 for _, g, _, s in readable if (s == 1) == (by_severity(g, "error").total() > 0) and s in (0, 1))
    unreadable = [n for n, _, _, s in readable if s not in (0, 1)]
    print(f"\nexit status agrees with \"has ERRORs\" on {agree}/{len(readable)} feeds"
          + (f"; feedc could not read {', '.join(unreadable)}" if unreadable else ""))
    read = [x for x in readable if ("invalid_input_files_in_subfolder", "error") not in x[1]]
    agree = sum(1 for _, g, _, s in read if (s == 1) == (by_severity(g, "error").total() > 0) and s in (0, 1))
    print(f"  on the {len(read)} feeds gtfs-guru reads (no files in a subfolder): {agree}/{len(read)}")
    for name, g, _, s in readable:
        if (s == 1) != (by_severity(g, "error").total() > 0):
            print(f"  differs: {name} feedc exit {s}, gtfs-guru errors {by_severity(g, 'error').total()}")


if __name__ == "__main__":
    main()
