"""The packed bundle (docs/packed-bundle.md) installed in process by feedc_packed.py: purpose-written
databases and real bundles packed by packed_fixture.py, installed, and compared by content digest;
spoiled packed files refused with a clear PackedError; the manifest's `encodings` chosen or
skipped. Whole pulls of packed bundles, by both clients: test_packed_pull.py.

    python3 -m unittest discover -s clients/python/tests -p 'test_packed_*.py' -v   (from the repository's root)

The real bundles are compiled by `feedc build` ($FEEDC_BINARY, else .build/release/feedc) from
../shared/data (skipped without either).
"""
import gzip
import json
import os
import random
import shutil
import sqlite3
import subprocess
import tempfile
import time
import unittest

import hostile_fixtures as fx
import packed_cases as cases
import packed_fixture as pf
from feedc_bundle import content_digest
from feedc_limits import UpdateError
from feedc_manifest import chosen_encoding, parse_manifest
from feedc_packed import PackedError, install_packed
from hostile_case import FEEDC, ROOT

SHARED_GTFS = os.path.join(ROOT, os.pardir, "shared", "data", "gtfs")


def digest_of(path):
    conn = sqlite3.connect(path)
    try:
        return content_digest(conn)
    finally:
        conn.close()


def build_real_bundles(folder, zips, name="b"):
    """(plain bundle, packed file, the manifest's digest) of what `feedc build` publishes from
    `zips` (GTFS files under ../shared/data/gtfs), both unpacked into `folder`: the packed file as
    the Swift writer wrote it."""
    lines = ["output: out", "bundles:", "  - name: %s" % name, "    sources:"]
    for n, path in enumerate(zips):
        lines += ["      - id: s%d" % n, "        path: %s" % os.path.join(SHARED_GTFS, path)]
    with open(os.path.join(folder, "pipeline.yaml"), "w") as f:
        f.write("\n".join(lines) + "\n")
    subprocess.run([FEEDC, "build", "--config", "pipeline.yaml"], cwd=folder, check=True, capture_output=True)
    published = os.path.join(folder, "out", name)
    with open(os.path.join(published, "manifest.json")) as f:
        latest = json.load(f)["latest"]
    packed = [e for e in latest.get("encodings", []) if e["encoding"] == "packed-gzip"]
    paths = []
    for file, unpacked in ((latest["file"], "plain.sqlite"), (packed[0]["file"] if packed else None, "swift.packed")):
        if file is None:
            paths.append(None)
            continue
        paths.append(os.path.join(folder, unpacked))
        with gzip.open(os.path.join(published, file)) as source, open(paths[-1], "wb") as out:
            shutil.copyfileobj(source, out)
    return paths[0], paths[1], latest["digest"]


def packed_tables(path):
    conn = sqlite3.connect(path)
    try:
        return (conn.execute("SELECT * FROM packed_meta ORDER BY key").fetchall(),
                conn.execute("SELECT * FROM packed_schema ORDER BY seq").fetchall(),
                conn.execute("SELECT name, rows, encodings, data FROM packed_tables ORDER BY rowid").fetchall())
    finally:
        conn.close()


class PackedInstallTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="feedc-packed-")
        self.addCleanup(shutil.rmtree, self.folder, True)
        self.plain = os.path.join(self.folder, "plain.sqlite")
        self.packed = os.path.join(self.folder, "b.packed")
        self.new = os.path.join(self.folder, "b.new")

    def round_trip(self, plain=None, **pack_options):
        """Packs `plain`, installs it, and checks the installed database's digest and
        user_version; returns the encodings chosen."""
        plain = plain or self.plain
        chosen = pf.pack(plain, self.packed, **pack_options)
        install_packed(self.packed, self.new)
        self.assertEqual(digest_of(self.new), digest_of(plain))
        conn = sqlite3.connect(self.new)
        self.assertEqual(conn.execute("PRAGMA user_version").fetchone(), sqlite3.connect(plain).execute("PRAGMA user_version").fetchone())
        self.assertEqual(conn.execute("PRAGMA integrity_check").fetchone()[0], "ok")
        conn.close()
        return chosen

    def test_every_encoding_round_trips(self):
        cases.make_rich_bundle(self.plain)
        self.assertEqual(self.round_trip(), cases.RICH_ENCODINGS)
        conn = sqlite3.connect(self.new)
        rows = conn.execute("SELECT rowid, stop_id, n FROM stops ORDER BY rowid").fetchall()
        self.assertEqual([r[0] for r in rows], [1, 5, 1000, 1 << 62, (1 << 62) | 7])  # rowid gaps kept
        self.assertEqual(conn.execute("SELECT nul FROM odd WHERE id = 3").fetchone()[0], "a\x00b")
        self.assertEqual(conn.execute("SELECT typeof(mixed) FROM odd ORDER BY id").fetchall(),
                         [("integer",), ("real",), ("text",), ("blob",), ("null",), ("integer",)])

    def test_forced_encodings_round_trip(self):
        """`v` holds any column; `t` and `f` hold what they can."""
        cases.make_rich_bundle(self.plain)
        forced = {name: "v" for name in cases.RICH_ENCODINGS if not name.endswith("rowid")}
        forced.update({"stops.lat": "f", "transfers.from_stop_id": "t"})
        self.round_trip(encodings=forced)

    def test_the_hostile_fixture_bundles_round_trip(self):
        fx.make_bundle(self.plain, 2, fx.stop_rows(60, renamed={3}))
        self.round_trip()

    def real_bundles(self, zip_name):
        zip_path = os.path.join(SHARED_GTFS, zip_name)
        if not os.path.exists(zip_path):
            self.skipTest("needs ../shared/data (%s)" % zip_path)
        if not os.access(FEEDC, os.X_OK):
            self.skipTest("needs the feedc binary ($FEEDC_BINARY or %s)" % FEEDC)
        return build_real_bundles(self.folder, [zip_name])

    def test_real_bundle_round_trips(self):
        plain, _, _ = self.real_bundles("small/cdmx_2018_tlib.zip")
        chosen = self.round_trip(plain)
        self.assertEqual(chosen["pattern_stops.stop_id"], "k")
        conn = sqlite3.connect(self.new)
        self.assertEqual(conn.execute("SELECT count(*) FROM sqlite_master WHERE type IN ('index', 'view')").fetchone()[0],
                         sqlite3.connect(self.plain).execute("SELECT count(*) FROM sqlite_master WHERE type IN ('index', 'view')").fetchone()[0])
        conn.close()

    def test_the_swift_writers_packed_file_installs(self):
        """The packed file `feedc build` publishes installs to the manifest's digest, and the test
        packer writes the same tables (so that the spoiled cases spoil what the writer writes)."""
        plain, packed, digest = self.real_bundles("small/cdmx_2018_tlib.zip")
        self.assertIsNotNone(packed, "feedc build published no packed-gzip encoding")
        install_packed(packed, self.new)
        self.assertEqual(digest_of(self.new), digest)
        pf.pack(plain, self.packed)
        self.assertEqual(packed_tables(self.packed), packed_tables(packed))

    def test_random_damage_is_refused_or_installed_alike_by_both_clients(self):
        """200 packed files with 1 to 4 bytes of a table's data changed, cut or inserted (a fixed
        seed): this client only ever raises PackedError, and `feedc unpack` (read through its
        windows) installs exactly the same files to the same digest and refuses the others (a
        text that is not UTF-8 included)."""
        if not os.access(FEEDC, os.X_OK):
            self.skipTest("needs the feedc binary ($FEEDC_BINARY or %s)" % FEEDC)
        rng = random.Random(5)
        cases.make_rich_bundle(self.plain)
        pf.pack(self.plain, self.packed)
        with open(self.packed, "rb") as f:
            raw = f.read()
        installed = refused = 0
        for case in range(200):
            with open(self.packed, "wb") as f:
                f.write(raw)
            conn = sqlite3.connect(self.packed)
            rowid, data = rng.choice(conn.execute("SELECT rowid, data FROM packed_tables ORDER BY rowid").fetchall())
            conn.close()
            data = bytearray(data)
            for _ in range(rng.randint(1, 4)):
                if not data:
                    break
                k, op = rng.randrange(len(data)), rng.random()
                if op < 0.5:
                    data[k] = rng.randrange(256)
                elif op < 0.7:
                    del data[k:k + rng.randint(1, 8)]
                elif op < 0.9:
                    data[k:k] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
                else:
                    data[k] = 0xFF
            pf.execute(self.packed, "UPDATE packed_tables SET data = ? WHERE rowid = ?", bytes(data), rowid)
            for path in (self.new, self.new + ".swift"):
                if os.path.exists(path):
                    os.remove(path)
            try:
                install_packed(self.packed, self.new, unpacked_bytes=4 * len(raw))
                mine = digest_of(self.new)
            except PackedError:
                mine = None
            with open(self.packed, "rb") as f, gzip.open(self.packed + ".gz", "wb") as g:
                g.write(f.read())
            swift = subprocess.run([FEEDC, "unpack", self.packed + ".gz", "--output", self.new + ".swift"], capture_output=True, text=True)
            self.assertIn(swift.returncode, (0, 1), "case %d: %s" % (case, swift.stderr))
            theirs = "sha256:" + swift.stdout.split("sha256:")[1].split(",")[0] if swift.returncode == 0 else None
            self.assertEqual(mine, theirs, "case %d: Python %s, Swift %s" % (case, mine, swift.stderr.strip() or theirs))
            installed, refused = installed + (mine is not None), refused + (mine is None)
        self.assertGreater(refused, 100)
        self.assertGreater(installed, 5)

    def test_spoiled_packed_files_are_refused(self):
        """Each installed as a pull installs it: capped by the plain bundle's size."""
        cases.make_rich_bundle(self.plain)
        plain_bytes = os.path.getsize(self.plain)
        for name, spoil, words in cases.SPOILED:
            with self.subTest(name):
                pf.pack(self.plain, self.packed)
                spoil(self.packed)
                for path in (self.new, self.new + "-journal"):
                    if os.path.exists(path):
                        os.remove(path)
                started = time.monotonic()
                with self.assertRaises(PackedError) as caught:
                    install_packed(self.packed, self.new, (2 * plain_bytes + (1 << 20)) // 4096, plain_bytes)
                self.assertLess(time.monotonic() - started, 5)  # refused quickly (an endless view too)
                self.assertIn(cases.words(words), str(caught.exception))
                # No side file (a journal, a WAL file of the packed file); `b.new` only once the
                # packed file was opened.
                self.assertEqual(sorted(set(os.listdir(self.folder)) - {"b.new"}), ["b.packed", "plain.sqlite"])

    def test_40_m_empty_presence_runs_are_refused_unread(self):
        """Without a cap on the data (a manifest may declare a large plain bundle), a column of 40 M
        empty presence runs is refused by their count, before any is read."""
        cases.make_rich_bundle(self.plain)
        pf.pack(self.plain, self.packed)
        cases._empty_runs(self.packed, 40_000_000)
        started = time.monotonic()
        with self.assertRaises(PackedError) as caught:
            install_packed(self.packed, self.new)
        self.assertLess(time.monotonic() - started, 5)
        self.assertIn("column stops.n: 40000002 presence runs for 5 rows", str(caught.exception))

    def test_a_varint_of_ten_bytes_decodes_and_eleven_do_not(self):
        cases.make_rich_bundle(self.plain)
        pf.pack(self.plain, self.packed)
        rows, data = cases.column(self.packed, "stops", 5)
        start = cases.presence_length(data)
        self.assertEqual(len(pf.varint(pf.zigzag(cases.INT64_MAX))), 10)
        pf.replace_data(self.packed, "stops", 5, data[:start] + b"\x80" + data[start:])
        with self.assertRaises(PackedError) as caught:
            install_packed(self.packed, self.new)
        self.assertIn("column stops.n: a varint cut short or beyond 64 bits", str(caught.exception))

    def test_an_installed_size_beyond_the_cap_is_refused(self):
        fx.make_bundle(self.plain, 2, fx.stop_rows(3000))
        pf.pack(self.plain, self.packed)
        self.assertLess(sum(map(len, pf.table_entry(self.packed, "stops")[2])), 20 * 4096)  # its data fits the cap
        with self.assertRaises(PackedError) as caught:
            install_packed(self.packed, self.new, max_pages=20)
        self.assertIn("full", str(caught.exception))

    def test_a_tables_data_beyond_the_cap_is_refused_unread(self):
        """A table's packed data larger than the installed file may be is refused before it is
        read (one 157 MB value would otherwise be held three times over)."""
        fx.make_bundle(self.plain, 2, fx.stop_rows(3000))
        pf.pack(self.plain, self.packed)
        with self.assertRaises(PackedError) as caught:
            install_packed(self.packed, self.new, max_pages=8)
        self.assertRegex(str(caught.exception), r"table stops: \d+ bytes of data, more than the installed bundle's cap of 32768")


class EncodingChoiceTests(unittest.TestCase):
    """`encodings` in a manifest's version: the first known entry with valid fields, else None."""

    PACKED = {"encoding": "packed-gzip", "file": "bundles/2.packed.sqlite.gz", "bytes": 100, "sha256": "ab" * 32,
              "unpacked_bytes": 1000}

    def manifest(self, encodings, unpacked_bytes=1000):
        latest = dict(fx.entry("bundles/2.sqlite.gz", b"x" * 100, 2, "sha256:" + "0" * 64), encodings=encodings)
        if unpacked_bytes is not None:
            latest["unpacked_bytes"] = unpacked_bytes
        return parse_manifest(fx.manifest(latest))

    def test_no_packed_entry_without_the_plain_bundles_unpacked_bytes(self):
        """The install is always capped by the plain bundle's size: without it, the plain file."""
        self.assertIsNone(chosen_encoding(self.manifest([self.PACKED], unpacked_bytes=None)["latest"]))
        self.assertEqual(chosen_encoding(self.manifest([self.PACKED])["latest"]), self.PACKED)

    def test_the_first_known_valid_entry_is_taken(self):
        other = dict(self.PACKED, encoding="brotli", file="other")
        second = dict(self.PACKED, file="second")
        self.assertEqual(chosen_encoding(self.manifest([other, self.PACKED, second])["latest"]), self.PACKED)

    def test_invalid_entries_are_skipped_and_never_make_the_manifest_unusable(self):
        spoilt = [dict(self.PACKED, bytes=-1), dict(self.PACKED, bytes=2 ** 53), dict(self.PACKED, bytes=1.0),
                  dict(self.PACKED, sha256="AB" * 32), dict(self.PACKED, sha256="ab" * 31), {k: v for k, v in self.PACKED.items() if k != "unpacked_bytes"},
                  dict(self.PACKED, unpacked_bytes=10001), dict(self.PACKED, bytes=2 ** 40, unpacked_bytes=(4 << 30) + 1),
                  dict(self.PACKED, file=None), dict(self.PACKED, encoding=["packed-gzip"]), "packed-gzip", None]
        for entry in spoilt:
            with self.subTest(entry=entry):
                self.assertIsNone(chosen_encoding(self.manifest([entry])["latest"]))
                self.assertEqual(chosen_encoding(self.manifest([entry, self.PACKED])["latest"]), self.PACKED)
        for encodings in (None, {}, "packed-gzip", []):
            self.assertIsNone(chosen_encoding(self.manifest(encodings)["latest"]))

    def test_a_duplicate_key_in_an_entry_still_makes_the_manifest_unusable(self):
        body = fx.manifest(dict(fx.entry("b", b"x", 2, "sha256:" + "0" * 64), encodings=[self.PACKED]))
        body = body.replace(b'"encoding": "packed-gzip"', b'"encoding": "packed-gzip", "encoding": "x"')
        with self.assertRaises(UpdateError):
            parse_manifest(body)


class RegionTiming(unittest.TestCase):
    """Not a test unless FEEDC_PACKED_TIMING=1: the 21 feeds of ../shared/data/gtfs/small and
    medium as one bundle, its packed file (the Swift writer's) installed three times; prints the
    seconds of each install."""

    @unittest.skipUnless(os.environ.get("FEEDC_PACKED_TIMING") == "1", "set FEEDC_PACKED_TIMING=1 to time the region")
    def test_region_install_seconds(self):
        import time
        folder = tempfile.mkdtemp(prefix="feedc-region-")
        self.addCleanup(shutil.rmtree, folder, True)
        zips = ["%s/%s" % (size, z) for size in ("small", "medium")
                for z in sorted(os.listdir(os.path.join(SHARED_GTFS, size))) if z.endswith(".zip")]
        _, packed, digest = build_real_bundles(folder, zips, "region")
        new = os.path.join(folder, "r.new")
        seconds = []
        for _ in range(3):
            if os.path.exists(new):
                os.remove(new)
            start = time.monotonic()
            install_packed(packed, new)
            seconds.append(time.monotonic() - start)
        self.assertEqual(digest_of(new), digest)
        print("\nregion (%d feeds): install %s s" % (len(zips), ", ".join("%.2f" % s for s in seconds)))


if __name__ == "__main__":
    unittest.main()
