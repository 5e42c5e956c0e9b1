"""The update protocol's building blocks on their own (docs/update-protocol.md, "Limits"): the
statement check, streamed inflation, the manifest checks, and the schema texts the Python client
carries, compared with the Swift sources. The attacks through whole pulls are test_hostile_*.py.

    python3 -m unittest discover -s clients/python/tests -v      (from the repository's root)
"""
import gzip
import os
import re
import sqlite3
import time
import unittest
import zlib

import hostile_fixtures as fx
from feedc_bundle import FORMAT, STOP_TIMES_VIEW, VIRTUAL_TABLES, apply_delta
from feedc_delta_check import check_delta_sql
from feedc_http import resolve
from feedc_limits import UpdateError, inflate, slices
from feedc_manifest import parse_manifest


class BuildingBlockTests(unittest.TestCase):
    """The limits on their own, in process."""

    TABLES = {"stops": {"stop_id", "stop_name", "lat"}, "pattern_stops": {"pattern_id", "stop_index"},
              "meta": {"key", "value"}}

    def test_the_writers_statements_pass(self):
        sql = ("-- feedc delta format 1\n-- from version 1\n"
               "DELETE FROM stops WHERE stop_id IN ('a','b');\n"
               "DELETE FROM pattern_stops WHERE pattern_id IN (3,4) AND (pattern_id, stop_index) IN (VALUES (3,0),(4,1));\n"
               "UPDATE stops SET stop_name = 'X', lat = 37.5 WHERE stop_id = 'a';\n"
               "INSERT INTO stops (stop_id, stop_name, lat) VALUES ('a','A',1.5),\n('b','B\n;',-2.0);\n"
               "UPDATE stops SET stop_name = CAST(X'00ff' AS TEXT), lat = (CAST(4503599627370497 AS REAL)/1024) WHERE stop_id = 'c';\n"
               "UPDATE stops SET lat = 1e-05, stop_name = NULL WHERE stop_id = 'it''s';\n")
        self.assertEqual(check_delta_sql(sql, self.TABLES), 6)

    def test_other_statements_are_refused(self):
        for statement in ("COMMIT;", "SELECT 1;", "update stops SET lat = 1;", 'UPDATE "stops" SET lat = 1;',
                          "UPDATE stops SET lat = 1", "UPDATE stops SET stop_name = upper(stop_name);",
                          "UPDATE stops SET stop_name = upper /* */ (stop_name);", "UPDATE stops SET lat = lat * 2;",
                          "UPDATE stops SET lat = REAL(1);", "UPDATE stops SET lat = ?;", "UPDATE evil SET x = 1;",
                          "INSERT INTO stops (stop_id) SELECT stop_id FROM stops;", "UPDATE stops SET lat = 1 WHERE stops.lat = 1;",
                          "DELETE FROM stops WHERE stop_id LIKE 'a%';", "UPDATE stops SET stop_name = 'a\x00';", ";"):
            with self.subTest(statement=statement), self.assertRaises(UpdateError):
                check_delta_sql("-- feedc delta format 1\n" + statement + "\n", self.TABLES)

    def test_the_budget_stops_a_cross_join_the_shape_check_would_refuse(self):
        import feedc_bundle
        conn = sqlite3.connect(":memory:", isolation_level=None)
        conn.executescript(fx.SCHEMA)
        conn.executemany("INSERT INTO stops VALUES (?, ?, ?, ?)", fx.stop_rows(1000))
        conn.executemany("INSERT INTO meta VALUES (?, ?)", [("bundle", "t"), ("format", str(FORMAT)), ("version", "1")])
        sql = fx.DELTA_HEADER.decode() + "DELETE FROM stops WHERE stop_id IN (SELECT a.stop_id FROM stops a, stops b, stops c, stops d);\n"
        saved, feedc_bundle.check_delta_sql = feedc_bundle.check_delta_sql, lambda *_: 0
        try:
            start = time.monotonic()
            with self.assertRaisesRegex(UpdateError, "budget"):
                apply_delta(conn, sql, "sha256:" + "0" * 64, 2, "t")
            self.assertLess(time.monotonic() - start, 5)
        finally:
            feedc_bundle.check_delta_sql = saved
        self.assertFalse(conn.in_transaction)
        self.assertEqual(conn.execute("SELECT count(*) FROM stops").fetchone()[0], 1000)

    def test_inflate(self):
        data = os.urandom(100000)
        packed = fx.gz(data)
        out = bytearray()
        self.assertEqual(inflate(slices(packed, 7), out.extend, len(data), len(data)), len(data))
        self.assertEqual(bytes(out), data)
        for bad, cap, exact, words in ((packed + b"x", 10 ** 6, None, "after the end"),
                                       (packed[:-3], 10 ** 6, None, "truncated"),
                                       (packed, 99999, None, "more than 99999"),
                                       (packed, 10 ** 6, 100001, "unpacks to 100000 bytes"),
                                       (b"PK\x03\x04", 10 ** 6, None, "not gzip"), (b"", 1, None, "not gzip")):
            with self.subTest(words=words), self.assertRaisesRegex(ValueError, words):
                inflate(slices(bad), lambda _: None, cap, exact)

    def test_bombs_are_what_gzip_reads(self):
        """The bombs' members (a block repeated, its CRC-32 combined) are what gzip itself
        unpacks, CRC and length checked, and crc32_combine agrees with zlib's crc32."""
        for a, b in ((b"", b""), (b"x", b""), (b"", b"yz"), (os.urandom(1000), os.urandom(3001)), (b"a" * 70000, bytes(5))):
            self.assertEqual(fx.crc32_combine(zlib.crc32(a), zlib.crc32(b), len(b)), zlib.crc32(a + b))
        for header, unit, count in ((b"", bytes(1 << 12), 1), (b"-- feedc delta format 2\n", b"a" * 4096, 7),
                                    (b"head", bytes(1 << 20), 5), (os.urandom(100), os.urandom(333), 13)):
            member = fx.repeated_member(header, unit, count)
            self.assertEqual(gzip.decompress(member), header + unit * count)
            self.assertLess(len(member), len(header) + len(unit) * count + 200)
        self.assertEqual(zlib.decompressobj(31).decompress(fx.zero_bomb(1)[:20000])[:100], bytes(100))
        self.assertEqual(len(fx.text_bomb(3, b"h")), len(fx.repeated_member(b"h", b"a" * (1 << 20), 3)))
        self.assertEqual(gzip.decompress(fx.text_bomb(3, b"h")), b"h" + b"a" * (3 << 20))

    def test_manifest_parsing(self):
        good = fx.manifest(fx.entry("b.gz", b"x", 2, "sha256:" + "0" * 64))
        self.assertEqual(parse_manifest(good)["latest"]["version"], 2)
        for bad in (good.replace(b'"file"', b'"file": "a", "file"'), b"[" * 100000, b"\xff",
                    good.replace(b'"bytes": 1', b'"bytes": 1e0'), good.replace(b'"bytes": 1', b'"bytes": 9007199254740992'),
                    good.replace(b'"sha256": "', b'"sha256": "../')):
            with self.assertRaisesRegex(UpdateError, "unusable manifest"):
                parse_manifest(bad)

    def test_resolve(self):
        base = "https://cdn.example:8443/feeds/m/manifest.json"
        self.assertEqual(resolve(base, "bundles/2.sqlite.gz"), "https://cdn.example:8443/feeds/m/bundles/2.sqlite.gz")
        self.assertEqual(resolve(base, "/other/x#y"), "https://cdn.example:8443/other/x")
        self.assertEqual(resolve("http://h/m/manifest.json", "http://H:80/m/x"), "http://H:80/m/x")
        for file in ("file:///dev/zero", "http://cdn.example:8443/x", "https://cdn.example/x", "//evil/x", "ftp://cdn.example:8443/x"):
            with self.assertRaisesRegex(UpdateError, "not on the manifest's server"):
                resolve(base, file)

    def test_the_view_and_virtual_tables_are_the_swift_writers(self):
        source = os.path.join(fx.CLIENT_FOLDER, os.pardir, os.pardir, "Sources", "BundleFormat", "BundleSchema.swift")
        if not os.path.exists(source):
            self.skipTest("no Swift sources")
        with open(source, encoding="utf-8") as f:
            found = re.search(r'static let views: \[String\] = \[\n *"""\n(.*?)\n( *)"""', f.read(), re.DOTALL)
        indent = len(found.group(2))
        self.assertEqual("\n".join(line[indent:] for line in found.group(1).split("\n")), STOP_TIMES_VIEW)
        with open(os.path.join(os.path.dirname(source), "SQLiteModules.swift"), encoding="utf-8") as f:
            modules = f.read().replace('"\n            "', "")
        for ddl in VIRTUAL_TABLES:
            self.assertIn('"%s"' % ddl, modules)


# The same cases for the Swift client, `feedc pull`.
