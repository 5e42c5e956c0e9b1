#!/usr/bin/env python3
"""Download-size benchmark (issue 30): what a rider's first download costs, feed by feed.

For every GTFS zip under ../shared/data/gtfs (small, medium, versions: the newest Wichita dump
stands for its series) and the 21-feed region (small and medium as one bundle), it prints the
agency zip, the feedc bundle (`.sqlite.gz`) built by FEEDC (default: this build's release
binary) and its packed encoding (`.packed.sqlite.gz`, docs/packed-bundle.md), and, when
FEEDC_BASE names another binary (a baseline build), that binary's bundle beside it; the gtfs-proto 0.1.0 pack (a packed, non-queryable format: a lower bound of what the
data needs) where it packs; the largest tables by pages of the unpacked bundle (SQLite's
`dbstat`, through Python's sqlite3 when it has the module); and, for the largest bundles, the
device's cost of a full install: gunzip plus SHA-256 of the plain file (the client's check),
and the packed bundle's install by `feedc unpack` (gunzip, rows, indexes, content digest),
medians of three. With --deltas it also builds the 27 Wichita dumps in date order (keep 30,
max_delta_share 1.0) and prints the total delta bytes against the last version, beside
`zstd --patch-from` of the same pairs when zstd is installed.

    scripts/bench-size.py [--only NAME] [--deltas] [--json]

gtfs-proto is installed into .build/venv-size (PyPI, pinned) on first use; without network it
is left out and said so. Figures go to standard output; nothing is written outside a temporary
folder.
"""
import argparse
import gzip
import hashlib
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.normpath(os.path.join(ROOT, "..", "shared", "data", "gtfs"))
VENV = os.path.join(ROOT, ".build", "venv-size")
PROTO_VERSION = "0.1.0"


def feeds():
    """The zips measured: small and medium, and the newest of the Wichita and BART series."""
    out = []
    for group in ("small", "medium"):
        folder = os.path.join(DATA, group)
        out += [os.path.join(folder, name) for name in sorted(os.listdir(folder)) if name.endswith(".zip")]
    for name in ("wichita", "bart"):  # the newest of each series the issue's table names
        series = os.path.join(DATA, "versions", name)
        if os.path.isdir(series):
            out.append(os.path.join(series, sorted(n for n in os.listdir(series) if n.endswith(".zip"))[-1]))
    return out


def build(feedc, sources, folder, keep=None, bundle_extra=None):
    """Builds `sources` as one bundle into `folder`/out; returns the gzipped bundle's path."""
    os.makedirs(folder, exist_ok=True)
    lines = ["output: out"] + ([f"keep: {keep}"] if keep else []) + ["bundles:", "  - name: b"]
    if bundle_extra:
        lines.append(bundle_extra)
    lines.append("    sources:")
    for path in sources:
        ident = "".join(c if c.isalnum() else "_" for c in os.path.basename(path)[:-4])
        lines += [f"      - id: {ident}", f"        path: {path}"]
    config = os.path.join(folder, "pipeline.yaml")
    with open(config, "w") as f:
        f.write("\n".join(lines) + "\n")
    done = subprocess.run([feedc, "build", "--config", config, "--json"], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"feedc build failed for {sources[0]}: {done.stderr.strip()[-300:]}")
    manifest = json.load(open(os.path.join(folder, "out", "b", "manifest.json")))
    return os.path.join(folder, "out", "b", manifest["latest"]["file"])


def packed_of(gz_path):
    """The packed encoding published beside the bundle at `gz_path`, or None (an older feedc)."""
    out = os.path.dirname(os.path.dirname(gz_path))
    latest = json.load(open(os.path.join(out, "manifest.json")))["latest"]
    packed = [e for e in latest.get("encodings", []) if e["encoding"] == "packed-gzip"]
    return os.path.join(out, packed[0]["file"]) if packed else None


def packed_install_seconds(feedc, packed, folder):
    """The Swift client's install of a packed bundle without the download (`feedc unpack`:
    gunzip, tables, rows, indexes, content digest): the process's wall time, median of three."""
    times = []
    for k in range(3):
        target = os.path.join(folder, f"unpacked-{k}.sqlite")
        start = time.perf_counter()
        subprocess.run([feedc, "unpack", packed, "-o", target], check=True, capture_output=True)
        times.append(time.perf_counter() - start)
        os.remove(target)
    return statistics.median(times)


def gtfs_proto():
    """The gtfs_proto command of a venv of its own, or None when it cannot be installed."""
    command = os.path.join(VENV, "bin", "gtfs_proto")
    if not os.path.exists(command):
        try:
            subprocess.run([sys.executable, "-m", "venv", VENV], check=True, capture_output=True)
            subprocess.run([os.path.join(VENV, "bin", "pip"), "install", "-q", f"gtfs-proto=={PROTO_VERSION}"],
                           check=True, capture_output=True)
        except subprocess.CalledProcessError as error:
            print(f"gtfs-proto not installed ({error.stderr.decode()[-200:].strip()}): its column is left out", file=sys.stderr)
            return None
    return command


def proto_size(command, zip_path, folder):
    """gtfs-proto's packed size, or None when it cannot pack the feed (it fails on many)."""
    if command is None:
        return None
    output = os.path.join(folder, "feed.pb")
    done = subprocess.run([command, "pack", zip_path, "-o", output], capture_output=True, text=True)
    return os.path.getsize(output) if done.returncode == 0 and os.path.exists(output) else None


def table_shares(sqlite_path, top=3):
    """The largest tables and indexes by pages, as (name, share of the file's pages)."""
    try:
        db = sqlite3.connect(sqlite_path)
        rows = db.execute("SELECT name, count(*) FROM dbstat GROUP BY name ORDER BY 2 DESC").fetchall()
    except sqlite3.Error:
        return []  # a Python SQLite without dbstat
    total = sum(count for _, count in rows) or 1
    return [(name, count / total) for name, count in rows[:top]]


def install_seconds(gz_path, folder):
    """A full install's device work without the download: gunzip to a file, SHA-256 of it."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        target = os.path.join(folder, "install.sqlite")
        with gzip.open(gz_path, "rb") as source, open(target, "wb") as sink:
            shutil.copyfileobj(source, sink, 1 << 20)
        digest = hashlib.sha256()
        with open(target, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(name, sources, feedc, base, proto, largest):
    with tempfile.TemporaryDirectory() as folder:
        row = {"feed": name, "zip": sum(os.path.getsize(s) for s in sources)}
        gz = build(feedc, sources, os.path.join(folder, "new"))
        row["bundle_gz"] = os.path.getsize(gz)
        packed = packed_of(gz)
        if packed:
            row["packed_gz"] = os.path.getsize(packed)
        if base:
            row["base_gz"] = os.path.getsize(build(base, sources, os.path.join(folder, "base")))
        row["proto"] = proto_size(proto, sources[0], folder) if len(sources) == 1 else None
        unpacked = os.path.join(folder, "b.sqlite")
        with gzip.open(gz, "rb") as source, open(unpacked, "wb") as sink:
            shutil.copyfileobj(source, sink)
        row["sqlite"] = os.path.getsize(unpacked)
        row["largest"] = table_shares(unpacked)
        if largest:
            row["install_s"] = install_seconds(gz, folder)
            if packed:
                row["packed_install_s"] = packed_install_seconds(feedc, packed, folder)
        return row


def deltas(feedc):
    """The Wichita series' delta bytes against its last version, and zstd --patch-from's."""
    series = os.path.join(DATA, "versions", "wichita")
    dumps = sorted(os.path.join(series, n) for n in os.listdir(series) if n.endswith(".zip"))
    zstd = shutil.which("zstd")
    with tempfile.TemporaryDirectory() as folder:
        current = os.path.join(folder, "w.zip")
        for dump in dumps:
            shutil.copyfile(dump, current)
            build(feedc, [current], folder, keep=30, bundle_extra="    max_delta_share: 1.0")
        out = os.path.join(folder, "out", "b")
        manifest = json.load(open(os.path.join(out, "manifest.json")))
        total = sum(d["bytes"] for d in manifest["deltas"])
        patch_total, smaller = 0, 0
        if zstd:
            latest = os.path.join(folder, "latest.sqlite")
            with gzip.open(os.path.join(out, manifest["latest"]["file"]), "rb") as s, open(latest, "wb") as t:
                shutil.copyfileobj(s, t)
            for delta in manifest["deltas"]:
                version = next(v for v in manifest["versions"] if v["version"] == delta["from"])
                old = os.path.join(folder, "old.sqlite")
                with gzip.open(os.path.join(out, version["file"]), "rb") as s, open(old, "wb") as t:
                    shutil.copyfileobj(s, t)
                patch = os.path.join(folder, "p.zst")
                subprocess.run([zstd, "-q", "-f", "-19", "--long=27", "--patch-from", old, latest, "-o", patch], check=True, stderr=subprocess.DEVNULL)
                patch_total += os.path.getsize(patch)
                smaller += delta["bytes"] < os.path.getsize(patch)
        return {"deltas": len(manifest["deltas"]), "delta_bytes": total, "zstd_patch_bytes": patch_total if zstd else None,
                "feedc_smaller_on": smaller if zstd else None}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", help="measure only feeds whose file name contains this")
    parser.add_argument("--deltas", action="store_true", help="also the Wichita series' deltas")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    feedc = os.environ.get("FEEDC", os.path.join(ROOT, ".build", "release", "feedc"))
    base = os.environ.get("FEEDC_BASE")
    if not os.path.exists(feedc):
        sys.exit(f"{feedc}: no such binary (swift build -c release --product feedc, or set FEEDC)")
    proto = gtfs_proto()
    zips = [z for z in feeds() if not args.only or args.only in os.path.basename(z)]
    by_size = sorted(zips, key=os.path.getsize)[-3:]
    rows = [measure(os.path.basename(z)[:-4], [z], feedc, base, proto, z in by_size) for z in zips]
    if not args.only:
        region = [z for z in zips if "/versions/" not in z]
        rows.append(measure("21-feed region", region, feedc, base, None, True))
    result = {"feeds": rows}
    if args.deltas:
        result["wichita"] = deltas(feedc)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{'feed':34} {'zip KB':>8} {'gz KB':>8} {'base KB':>8} {'packed KB':>9} {'packed/gz':>9} {'proto KB':>9} "
          f"{'gz/proto':>8} {'pk/proto':>8} {'install s':>9} {'packed s':>8}  largest pages")
    for r in rows:
        def cell(value, width, form):
            return f"{value:{width}{form}}" if value is not None else f"{'-':>{width}}"
        proto = r.get("proto")
        packed = r.get("packed_gz")
        print(f"{r['feed'][:34]:34} {r['zip'] / 1000:8.0f} {r['bundle_gz'] / 1000:8.0f} "
              f"{cell(r['base_gz'] / 1000 if 'base_gz' in r else None, 8, '.0f')} "
              f"{cell(packed / 1000 if packed else None, 9, '.0f')} {cell(packed / r['bundle_gz'] if packed else None, 9, '.2f')} "
              f"{cell(proto / 1000 if proto else None, 9, '.0f')} {cell(r['bundle_gz'] / proto if proto else None, 8, '.1f')} "
              f"{cell(packed / proto if proto and packed else None, 8, '.2f')} {cell(r.get('install_s'), 9, '.2f')} "
              f"{cell(r.get('packed_install_s'), 8, '.2f')}  " + ", ".join(f"{n} {s:.0%}" for n, s in r["largest"]))
    if args.deltas:
        w = result["wichita"]
        print(f"Wichita: {w['deltas']} deltas to the last version, {w['delta_bytes']} bytes; zstd --patch-from "
              f"{w['zstd_patch_bytes']} bytes; feedc's smaller on {w['feedc_smaller_on']} of {w['deltas']}")


if __name__ == "__main__":
    main()
