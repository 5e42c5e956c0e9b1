#!/usr/bin/env python3
"""Zip-bomb benchmark: `feedc validate` on a GTFS zip whose stop_times.txt unpacks to 3.45 GB
from a few MB (built in seconds: one deflate block of repeated rows, flushed so that it can be
repeated byte for byte), once with honest sizes in its headers and once with headers that claim
1 KB. Prints the wall time, peak memory (max RSS) and exit status of each run, and the reason
given. Issue 13's target: refused with peak memory under 512 MB.

    python3 scripts/bench-zip-bomb.py [--gb 3.45] [--feedc .build/release/feedc]
"""
import argparse, os, struct, subprocess, tempfile, time, zlib

parser = argparse.ArgumentParser()
parser.add_argument("--gb", type=float, default=3.45, help="unpacked size of stop_times.txt, in GB")
parser.add_argument("--feedc", default=".build/release/feedc")
args = parser.parse_args()

FILES = {
    "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://example.com,Europe/Warsaw\n",
    "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,53.1,18.0\nS2,Two,53.2,18.1\n",
    "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\n",
    "trips.txt": "route_id,service_id,trip_id\nR1,W,T1\n",
    "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
                    "W,1,1,1,1,1,0,0,20240101,20261231\n",
}
HEADER = b"trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
ROW = b"T1,08:00:00,08:00:00,S1,1\n"


def bomb_stream(total):
    """The deflate stream, its CRC-32 and unpacked size: header, then one block repeated."""
    block = ROW * ((1 << 20) // len(ROW))
    co = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = co.compress(HEADER) + co.flush(zlib.Z_FULL_FLUSH)
    first = co.compress(block) + co.flush(zlib.Z_FULL_FLUSH)
    second = co.compress(block) + co.flush(zlib.Z_FULL_FLUSH)
    assert first == second, "a flushed block does not repeat byte for byte"
    tail = co.flush(zlib.Z_FINISH)
    count = max(1, int((total - len(HEADER)) // len(block)))
    crc = zlib.crc32(HEADER)
    for _ in range(count):
        crc = zlib.crc32(block, crc)
    return [head] + [first] * count + [tail], crc & 0xFFFFFFFF, len(HEADER) + count * len(block)


def write_zip(path, members):
    """members: (name, method, chunks, crc, unpacked, declared_unpacked)."""
    central = b""
    with open(path, "wb") as f:
        for name, method, chunks, crc, unpacked, declared in members:
            packed = sum(len(c) for c in chunks)
            offset = f.tell()
            n = name.encode()
            f.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0x21, crc, packed, declared, len(n), 0) + n)
            for c in chunks:
                f.write(c)
            central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, method, 0, 0x21, crc, packed, declared,
                                   len(n), 0, 0, 0, 0, 0, offset) + n
        start = f.tell()
        f.write(central)
        f.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members), len(central), start, 0))


def run(feedc, path):
    start = time.time()
    proc = subprocess.run(["/usr/bin/time", "-f", "%M", feedc, "validate", path, "--json"],
                          capture_output=True, text=True)
    wall = time.time() - start
    peak_kb = int(proc.stderr.strip().splitlines()[-1])
    reason = next((line.strip() for line in proc.stdout.splitlines() if "stop_times.txt" in line and "message" in line), "")
    return wall, peak_kb / 1024, proc.returncode, reason


with tempfile.TemporaryDirectory() as work:
    t0 = time.time()
    chunks, crc, size = bomb_stream(args.gb * 1e9)
    packed = sum(len(c) for c in chunks)
    small = [(name, 0, [text.encode()], zlib.crc32(text.encode()), len(text.encode()), len(text.encode()))
             for name, text in FILES.items()]
    honest = os.path.join(work, "honest.zip")
    lying = os.path.join(work, "lying.zip")
    write_zip(honest, small + [("stop_times.txt", 8, chunks, crc, size, size)])
    write_zip(lying, small + [("stop_times.txt", 8, chunks, crc, size, 1000)])
    print(f"stop_times.txt: {size / 1e9:.2f} GB unpacked from {packed / 1e6:.1f} MB "
          f"(ratio {size / packed:.0f}), both zips built in {time.time() - t0:.1f} s")
    for label, path in [("sizes declared", honest), ("sizes hidden (header claims 1 KB)", lying)]:
        wall, peak, status, reason = run(args.feedc, path)
        print(f"{label}: {wall:.2f} s, peak {peak:.0f} MB, exit {status}")
        print(f"  {reason[:200]}")
