"""Attacks through a delta (hostile_case.py): 3 GB bodies, gzip bombs, `file:` URLs, cross joins,
function calls, dripping and stalled bodies, a forged version, work beyond the budget. The full
bundle is gone, so each ends in exit 2 with the database as it was. The same with `feedc pull`:
test_hostile_swift.py.

    python3 -m unittest discover -s clients/python/tests -v      (from the repository's root)
"""
import hashlib
import os
import shutil
import sqlite3
import unittest

import hostile_fixtures as fx
from feedc_client import FeedClient
from feedc_limits import UpdateError
from hostile_case import DELTA_1_2, MEASURED, TIMEOUT, ClientTest, setUpModule, tearDownModule  # noqa: F401


class DeltaAttackTests(ClientTest):
    """The full bundle is gone (404), so a delta the client refuses ends in exit 2, and the
    database must be exactly as it was: nothing of the delta stayed."""

    def setUp(self):
        super().setUp()
        self.before = self.install_v1()
        self.serve("bundles/2.sqlite.gz", fx.not_found)

    def delta(self, data, handler=None, **extra):
        self.publish(deltas=[fx.entry("deltas/1-2.sql.gz", data, **dict(extra, **{"from": 1, "to": 2}))])
        self.serve("deltas/1-2.sql.gz", handler or fx.static(data))

    def install_rows(self, count):
        """A local version 1 of `count` stops (as a pull leaves it), in place of the small one."""
        path = os.path.join(self.folder, "big.sqlite")
        fx.make_bundle(path, 1, fx.stop_rows(count))
        shutil.copy(path, self.db)
        conn = sqlite3.connect(self.db)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.close()
        self.before_digest = self.digest()
        with open(self.db, "rb") as f:
            self.before = f.read()

    def assertRefused(self, outcome, reason):
        """Exit 2 on the missing full bundle, the database unchanged; and the delta refused for
        `reason`: named in the error line by `feedc pull`, which reports why the delta was not
        used; for the Python client, by the delta failure of a pull again in process."""
        if self.client == "swift":
            self.assertFailed(outcome, "bundles/2.sqlite.gz: HTTP 404", "the delta was not used: ", reason, before=self.before)
            self.assertIn("/m/deltas/1-2.sql.gz", self.server.requests)
            return
        self.assertFailed(outcome, "bundles/2.sqlite.gz: HTTP 404", before=self.before)
        self.assertIn("/m/deltas/1-2.sql.gz", self.server.requests)
        client = FeedClient(self.server.url("/m/manifest.json"), self.db, timeout=TIMEOUT)
        with self.assertRaisesRegex(UpdateError, "HTTP 404"):
            client.update()
        self.assertIn(reason, client.delta_failure or "")
        name, seconds, cpu, peak, _ = MEASURED[-1]
        MEASURED[-1] = (name, seconds, cpu, peak, "delta refused: " + client.delta_failure.replace(self.server.url(""), ""))

    def test_3_gb_delta_body(self):
        self.delta(self.delta_bytes, fx.endless(self.delta_bytes))
        self.assertRefused(self.pull(), "more than the %d bytes the manifest lists" % len(self.delta_bytes))

    def test_3_gb_delta_announced(self):
        self.delta(self.delta_bytes, fx.endless(self.delta_bytes, content_length=fx.GB3))
        self.assertRefused(self.pull(), "more than the %d bytes the manifest lists" % len(self.delta_bytes))

    def test_zero_bombs(self):
        for gib, header in ((2, b""), (5, b""), (5, fx.DELTA_HEADER)):
            self.delta(fx.zero_bomb(gib, header))
            self.assertRefused(self.pull(), "the delta holds a NUL byte")
        self.delta(fx.text_bomb(2048, b"-- feedc delta format 2\n"))
        self.assertRefused(self.pull(), "not a feedc delta")

    def test_text_bomb_within_declared_size(self):
        # A valid beginning, then 2 GiB of comment text: stopped at the declared unpacked size.
        self.delta(fx.text_bomb(2048, fx.DELTA_HEADER + b"-- "), unpacked_bytes=1 << 20)
        self.assertRefused(self.pull(), "unpacks to more than 1048576 bytes")

    def test_file_url_falls_back_to_the_full_bundle(self):
        self.serve("bundles/2.sqlite.gz", fx.static(self.bundle[2]))
        self.publish(deltas=[dict(fx.entry("deltas/1-2.sql.gz", self.delta_bytes, **{"from": 1, "to": 2}),
                                  file="file:///dev/zero")])
        refusal = self.words("file:///dev/zero is not on the manifest's server",
                             "unusable manifest: `file:///dev/zero` is not on the manifest's server")
        self.assertAtVersion2(self.pull(), self.full_line(reason="the delta from version 1 was not used: " + refusal))

    def test_cross_join(self):
        self.install_rows(2000)  # 2000^4 rows to look at: hours of work if it ran
        sql = fx.DELTA_HEADER.decode() + ("DELETE FROM stops WHERE stop_id IN "
                                          "(SELECT a.stop_id FROM stops a, stops b, stops c, stops d);\n")
        self.delta(fx.gz(sql.encode()))
        # The Swift check reads a statement's tokens before its shape, so the `.` of `a.stop_id`
        # refuses it first.
        self.assertRefused(self.pull(), self.words("'SELECT' is neither a column", "`.` outside a string"))

    def test_function_calls(self):
        sql = fx.DELTA_HEADER.decode() + "UPDATE stops SET stop_name = stop_name (1) WHERE stop_id = 's00001';\n"
        self.delta(fx.gz(sql.encode()))
        self.assertRefused(self.pull(), self.words("'stop_name' followed by \"(\"", "`stop_name(` calls a function"))

    def test_delta_at_1_byte_a_second(self):
        self.delta(self.delta_bytes, fx.dripping(self.delta_bytes))
        outcome = self.pull()
        self.assertRefused(outcome, "timed out after 5 s")
        self.assertIdleOnCPU(outcome)

    def test_delta_stalled(self):
        self.delta(self.delta_bytes, fx.stalled(self.delta_bytes, 40))
        outcome = self.pull()
        self.assertRefused(outcome, "timed out after 5 s")
        self.assertIdleOnCPU(outcome)

    def test_delta_forging_the_version(self):
        # The digest leaves meta.version out, so this delta reaches the right digest.
        sql = DELTA_1_2.replace("SET value = '2'", "SET value = '999999'")
        self.delta(fx.gz(sql.encode()))
        self.assertRefused(self.pull(), self.words("meta.version is '999999'", "meta.version is 999999"))

    def test_work_beyond_the_budget(self):
        # Statements of the writer's shape, each a scan of 100,000 rows: far more work than the
        # budget of 1,000 SQLite instructions per byte of SQL allows.
        self.install_rows(100000)
        scans = "".join("UPDATE stops SET lat = 1.5 WHERE lat = -%r AND stop_name = '%s';\n"
                        % (n / 7, hashlib.sha256(b"%d" % n).hexdigest()[:20]) for n in range(2000))
        self.delta(fx.gz(fx.DELTA_HEADER + scans.encode()))
        self.assertRefused(self.pull(), "ran past its budget")


if __name__ == "__main__":
    unittest.main()
