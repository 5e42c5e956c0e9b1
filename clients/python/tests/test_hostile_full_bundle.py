"""Attacks through the full bundle (hostile_case.py): 3 GB bodies, gzip bombs, bytes after the
gzip member, a forged version, triggers, views and virtual tables, dripping and stalled bodies,
a full disk. The same with `feedc pull`: test_hostile_swift.py.

    python3 -m unittest discover -s clients/python/tests -v      (from the repository's root)
"""
import os
import sqlite3
import unittest

import hostile_fixtures as fx
from hostile_case import FIXTURE, ClientTest, setUpModule, tearDownModule  # noqa: F401


class FullBundleAttackTests(ClientTest):
    """No delta: the full bundle is the only way, and each attack on it ends in exit 2."""

    def setUp(self):
        super().setUp()
        self.before = self.install_v1()

    def bundle_as(self, data, handler=None, **extra):
        latest = dict(fx.entry("bundles/2.sqlite.gz", data, 2, FIXTURE[2][1]), **extra)
        self.publish(latest)
        self.serve("bundles/2.sqlite.gz", handler or fx.static(data))
        return latest

    def test_bundle_followed_by_3_gb(self):
        self.publish(self.latest)
        self.serve("bundles/2.sqlite.gz", fx.endless(self.bundle[2]))
        self.assertFailed(self.pull(), "more than the %d bytes the manifest lists" % len(self.bundle[2]), before=self.before)
        self.assertEqual([n for n in os.listdir(self.folder) if ".download-" in n], [])

    def test_bundle_announcing_3_gb(self):
        self.publish(self.latest)
        self.serve("bundles/2.sqlite.gz", fx.endless(self.bundle[2], content_length=fx.GB3))
        self.assertFailed(self.pull(), "more than the", before=self.before)

    def test_zero_bombs(self):
        for gib in (2, 5):
            bomb = fx.zero_bomb(gib)
            self.bundle_as(bomb)
            self.assertFailed(self.pull(), "unpacks to more than %d bytes" % (100 * len(bomb)), before=self.before)
            self.bundle_as(bomb, unpacked_bytes=len(FIXTURE[2][0]))
            self.assertFailed(self.pull(), "unpacks to more than %d bytes" % len(FIXTURE[2][0]), before=self.before)
            self.bundle_as(bomb, unpacked_bytes=gib << 30)
            self.assertFailed(self.pull(), "`unpacked_bytes`", before=self.before)

    def test_bytes_after_the_gzip_member(self):
        words = self.words("bytes after the end of the gzip data", "data after the gzip member")
        self.bundle_as(self.bundle[2] + b"junk")
        self.assertFailed(self.pull(), words, before=self.before)
        self.bundle_as(self.bundle[2] + self.bundle[2])
        self.assertFailed(self.pull(), words, before=self.before)

    def test_bundle_forging_the_version(self):
        path = os.path.join(self.folder, "forged.sqlite")
        digest = fx.make_bundle(path, 2, [r for r in fx.stop_rows(60, renamed={3}) if r[0] != "s00007"], meta_version=999999)
        self.assertEqual(digest, FIXTURE[2][1])  # the version is outside the digest
        with open(path, "rb") as f:
            self.bundle_as(fx.gz(f.read()))
        self.assertFailed(self.pull(), self.words("meta.version is '999999'", "meta.version is `999999`"), before=self.before)

    def test_bundle_with_a_trigger_view_or_virtual_table(self):
        rows = [r for r in fx.stop_rows(60, renamed={3}) if r[0] != "s00007"]
        odd = [("CREATE TRIGGER t AFTER DELETE ON stops BEGIN DELETE FROM meta; END;", "a trigger", "holds a trigger (t)"),
               ("CREATE VIEW stop_times AS SELECT 1;", "a view", "holds a view `stop_times` that the format does not define"),
               ("CREATE VIEW v AS SELECT * FROM stops;", "a view", "holds a view `v` that the format does not define")]
        if "ENABLE_RTREE" in " ".join(r[0] for r in sqlite3.connect(":memory:").execute("PRAGMA compile_options")):
            odd.append(("CREATE VIRTUAL TABLE stop_rtree USING rtree(id, a, b);", "a virtual table",
                        "holds a virtual table `stop_rtree` that the format does not define"))
        for extra, words, swift in odd:
            path = os.path.join(self.folder, "odd.sqlite")
            digest = fx.make_bundle(path, 2, rows, extra_sql=extra)
            with open(path, "rb") as f:
                self.publish(dict(self.bundle_as(fx.gz(f.read())), digest=digest))
            self.assertFailed(self.pull(), self.words("the database has %s the bundle format does not define" % words, swift),
                              before=self.before)

    def test_bundle_at_1_byte_a_second(self):
        self.bundle_as(self.bundle[2], fx.dripping(self.bundle[2]))
        outcome = self.pull()
        self.assertFailed(outcome, "timed out after 5 s", before=self.before)
        self.assertIdleOnCPU(outcome)

    def test_bundle_stalled_then_resumed(self):
        self.bundle_as(self.bundle[2], fx.stalled(self.bundle[2], 1000))
        outcome = self.pull()
        self.assertFailed(outcome, "timed out after 5 s", before=self.before)
        self.assertIdleOnCPU(outcome)
        self.serve("bundles/2.sqlite.gz", fx.static(self.bundle[2]))
        self.assertAtVersion2(self.pull(), self.full_line(reason="no delta from version 1 is published"))

    def test_disk_full_is_a_local_error(self):
        os.remove(self.db)
        outcome = self.pull(file_size_limit=1000)
        self.assertFailed(outcome, "cannot write", "File too large", before=None)
        self.assertNotIn("no connection", outcome.err)


if __name__ == "__main__":
    unittest.main()
