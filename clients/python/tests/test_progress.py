"""Progress and the reason a delta was not used (hostile_case.py's server and publication): the
`progress(phase, done, total)` callback of FeedClient through a delta (bytes, then statements)
and a full bundle (bytes, a resumed download starting from the bytes kept); `pull` drawing it on
standard error when that is a terminal (a pty here), and `UpdateResult.reason`.

    python3 -m unittest discover -s clients/python/tests -v -p test_progress.py
"""
import io
import os
import pty
import sqlite3
import subprocess
import sys
import unittest

import hostile_fixtures as fx
from feedc_bundle import FORMAT, apply_delta, content_digest
from feedc_client import FeedClient, TerminalProgress, UpdateResult
from hostile_case import CLIENT, FIXTURE, TIMEOUT, ClientTest, setUpModule, tearDownModule  # noqa: F401


class ProgressTests(ClientTest):
    def update(self):
        events = []
        client = FeedClient(self.server.url("/m/manifest.json"), self.db, timeout=TIMEOUT,
                            progress=lambda *event: events.append(event))
        return client.update(), events

    def assertPhase(self, events, phase, total):
        """The `phase` events: from 0 up to `total`, never down; their `done` values."""
        done = [d for p, d, t in events if p == phase]
        self.assertTrue(done, events)
        self.assertEqual({t for p, _, t in events if p == phase}, {total})
        self.assertEqual(done, sorted(done))
        self.assertEqual(done[-1], total)
        return done

    def test_a_delta_reports_its_bytes_then_each_statement(self):
        self.install_v1()
        result, events = self.update()
        self.assertEqual(result, UpdateResult("delta", 2, 1, len(self.delta_bytes)))
        self.assertIsNone(result.reason)
        self.assertEqual(self.assertPhase(events, "download_delta", len(self.delta_bytes))[0], 0)
        # DELTA_1_2: a DELETE, two UPDATEs and an INSERT, each reported as it is applied.
        self.assertEqual(self.assertPhase(events, "apply_delta", 4), [0, 1, 2, 3, 4])
        self.assertEqual([p for p, _, _ in events], ["download_delta"] * (len(events) - 5) + ["apply_delta"] * 5)

    def test_a_full_bundle_reports_its_bytes_as_they_arrive(self):
        path = os.path.join(self.folder, "big.sqlite")
        digest = fx.make_bundle(path, 2, fx.stop_rows(40000))
        with open(path, "rb") as f:
            data = fx.gz(f.read())
        self.publish(fx.entry("bundles/big.sqlite.gz", data, 2, digest))
        self.serve("bundles/big.sqlite.gz", fx.static(data))
        result, events = self.update()
        self.assertEqual((result.kind, result.reason), ("full", "first download"))
        done = self.assertPhase(events, "download_full", len(data))
        self.assertEqual(done[0], 0)
        self.assertGreater(len(set(done)), 3, "%d bytes in one step" % len(data))

    def test_a_resumed_download_starts_from_the_bytes_kept(self):
        self.serve("bundles/2.sqlite.gz", fx.cut(self.bundle[2], 1000))
        self.assertFailed(self.pull(), "connection closed after 1000 of", before=None)
        self.serve("bundles/2.sqlite.gz", fx.static(self.bundle[2]))
        result, events = self.update()
        self.assertEqual(self.assertPhase(events, "download_full", len(self.bundle[2]))[0], 1000)
        self.assertEqual(str(result), self.full_line())

    def test_a_refused_delta_then_the_full_bundle(self):
        self.install_v1()
        self.serve("deltas/1-2.sql.gz", fx.not_found)
        result, events = self.update()
        self.assertEqual(result.reason, "the delta from version 1 was not used: deltas/1-2.sql.gz: HTTP 404")
        self.assertEqual([p for p, _, _ in events][0], "download_delta")
        self.assertPhase(events, "download_full", len(self.bundle[2]))
        self.assertNotIn("apply_delta", [p for p, _, _ in events])


class TerminalTests(ClientTest):
    def pull_on_a_terminal(self):
        """`pull` with standard error on a pty: (exit status, standard output, what the terminal
        received)."""
        main, side = pty.openpty()
        try:
            child = subprocess.Popen([sys.executable, CLIENT, "pull", self.server.url("/m/manifest.json"),
                                      "--db", self.db, "--timeout", str(TIMEOUT)],
                                     stdout=subprocess.PIPE, stderr=side)
        finally:
            os.close(side)
        out = child.communicate(timeout=30)[0].decode()
        received = b""
        try:
            while True:
                piece = os.read(main, 4096)
                if not piece:
                    break
                received += piece
        except OSError:  # EIO: the child closed the terminal's other side
            pass
        os.close(main)
        # A pty turns "\n" into "\r\n".
        return child.returncode, out, received.decode().replace("\r\n", "\n")

    def test_a_delta_on_a_terminal(self):
        self.install_v1()
        status, out, terminal = self.pull_on_a_terminal()
        self.assertEqual((status, out), (0, "applied delta 1\u21922, %d bytes\n" % len(self.delta_bytes)))
        size = len(self.delta_bytes)
        self.assertTrue(terminal.startswith("\rdownloading the delta: 0%% (0 of %d bytes)" % size), repr(terminal))
        self.assertIn("\rdownloading the delta: 100%% (%d of %d bytes)\n" % (size, size), terminal)
        self.assertIn("\rapplying the delta: 0% (0 of 4 statements)", terminal)
        self.assertTrue(terminal.endswith("\rapplying the delta: 100% (4 of 4 statements)\n"), repr(terminal))

    def test_a_full_bundle_on_a_terminal(self):
        status, out, terminal = self.pull_on_a_terminal()
        self.assertEqual((status, out), (0, self.full_line() + "\n"))
        size = len(self.bundle[2])
        self.assertEqual(terminal, "\rdownloading the full bundle: 0%% (0 of %d bytes)"
                                   "\rdownloading the full bundle: 100%% (%d of %d bytes)\n" % (size, size, size))

    def test_a_failure_on_a_terminal_ends_the_line_first(self):
        self.serve("bundles/2.sqlite.gz", fx.not_found)
        status, out, terminal = self.pull_on_a_terminal()
        self.assertEqual((status, out), (2, ""))
        lines = terminal.split("\n")
        self.assertEqual(lines[-1], "")
        self.assertTrue(lines[-2].startswith("feedc_client: ") and "HTTP 404" in lines[-2], repr(terminal))
        self.assertTrue(lines[-3].startswith("\rdownloading the full bundle: 0%"), repr(terminal))


class ApplyProgressTests(unittest.TestCase):
    def test_statements_are_counted_at_their_ends_not_at_semicolons_in_text(self):
        sql = (fx.DELTA_HEADER.decode() + "-- from version 1\n"
               "UPDATE stops SET stop_name = 'a;\nb;' WHERE stop_id = 's00001';\n"
               "INSERT INTO stops (stop_id, stop_name, lat, code) VALUES ('x','it''s; ok',1.5,NULL),\n('y',NULL,2.5,X'00');\n"
               "UPDATE meta SET value = '2' WHERE key = 'version';\n-- the end\n")
        conns = []
        for _ in range(2):
            conn = sqlite3.connect(":memory:", isolation_level=None)
            conn.executescript(fx.SCHEMA)
            conn.executemany("INSERT INTO stops VALUES (?, ?, ?, ?)", fx.stop_rows(5))
            conn.executemany("INSERT INTO meta VALUES (?, ?)", [("bundle", fx.BUNDLE), ("format", str(FORMAT)), ("version", "1")])
            conns.append(conn)
        conns[1].executescript(sql)
        events = []
        apply_delta(conns[0], sql, content_digest(conns[1]), 2, fx.BUNDLE, progress=lambda *e: events.append(e))
        self.assertEqual(events, [(0, 3), (1, 3), (2, 3), (3, 3)])
        self.assertEqual(conns[0].execute("SELECT stop_name FROM stops WHERE stop_id = 's00001'").fetchone(), ("a;\nb;",))


class TerminalProgressTests(unittest.TestCase):
    def test_lines_are_redrawn_then_ended(self):
        stream = io.StringIO()
        shown = TerminalProgress(stream, interval=0)
        for event in (("download_delta", 0, 300), ("download_delta", 300, 300), ("apply_delta", 0, 2),
                      ("apply_delta", 1, 2), ("apply_delta", 2, 2)):
            shown(*event)
        shown.end()
        self.assertEqual(stream.getvalue(), (
            "\rdownloading the delta: 0% (0 of 300 bytes)"
            "\rdownloading the delta: 100% (300 of 300 bytes)\n"
            "\rapplying the delta: 0% (0 of 2 statements)"
            "\rapplying the delta: 50% (1 of 2 statements)"
            "\rapplying the delta: 100% (2 of 2 statements)\n"))

    def test_events_within_the_interval_are_skipped_but_not_a_phase_end(self):
        stream = io.StringIO()
        shown = TerminalProgress(stream, interval=60)
        shown("download_full", 0, 10 ** 6)
        shown("download_full", 5, 10 ** 6)
        shown("download_full", 10 ** 6, 10 ** 6)
        shown.end()
        shown.end()  # a second end writes nothing
        self.assertEqual(stream.getvalue(), "\rdownloading the full bundle: 0% (0 of 1000000 bytes)"
                                            "\rdownloading the full bundle: 100% (1000000 of 1000000 bytes)\n")


if __name__ == "__main__":
    unittest.main()
