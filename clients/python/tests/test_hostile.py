"""Both clients against a hostile server (docs/update-protocol.md, "Limits"): each attack ends
in exit status 2 with one readable line (or, for a delta, in the full bundle), the database as it
was, within the deadline, and in bounded memory. Also the good path (the limits' building blocks
on their own: test_building_blocks.py).

    python3 -m unittest discover -s clients/python/tests -v      (from the repository's root)

Each pull runs a client as a child process: the Python one, `feedc_client.py pull URL --db PATH
--timeout 5`, in the classes below, and the Swift one, `feedc pull URL --db PATH --timeout 5`,
in their `Swift…` subclasses at the end (the same cases; where the clients word a reason
differently, `words` gives each its own). The Swift binary is $FEEDC_BINARY, else
.build/release/feedc (`swift build -c release --product feedc`); without it those tests fail.
A pull's wall time (at most 10 s) and peak memory (at most 256 MB: ru_maxrss of that process
alone, `run`) are checked, and its CPU time where it waits on a slow server (at most 2 s), and
printed at the end with what the pull printed. About 3 minutes in all.
"""
import base64
import fcntl
import hashlib
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import hostile_fixtures as fx
from feedc_bundle import content_digest
from feedc_client import FeedClient
from feedc_limits import UpdateError

CLIENT = os.path.join(fx.CLIENT_FOLDER, "feedc_client.py")
FEEDC = os.environ.get("FEEDC_BINARY") or os.path.join(
    fx.CLIENT_FOLDER, os.pardir, os.pardir, ".build", "release", "feedc")
TIMEOUT = 5            # --timeout of every pull
WALL_MAX = 10.0        # seconds: the deadline of a small request, with room to spare
CPU_MAX = 2.0          # seconds of CPU while a pull waits on a slow server: it must not spin
PEAK_MAX_MB = 256
MEASURED = []          # (test, seconds, CPU seconds, peak MB, line printed), printed at the end

DELTA_1_2 = (
    "-- feedc delta format 1\n-- from version 1\n-- to version 2\n"
    "DELETE FROM stops WHERE stop_id IN ('s00007');\n"
    "UPDATE meta SET value = '2' WHERE key = 'version';\n"
    "UPDATE stops SET stop_name = 'Stop 3 (new)' WHERE stop_id = 's00003';\n"
    "INSERT INTO stops (stop_id, stop_name, lat, code) VALUES "
    + ",\n".join("('s%05d','Stop %d',%r,NULL)" % (n, n, 40 + n / 8) for n in range(50, 60)) + ";\n")
# What the writer emits for awkward values: TEXT holding NUL, a REAL written as a scaled integer
# (where a decimal would not read back exactly), negative and exponent literals, blobs.
DELTA_AWKWARD = (
    "-- feedc delta format 1\n"
    "UPDATE meta SET value = '2' WHERE key = 'version';\n"
    "UPDATE stops SET stop_name = CAST(X'610062' AS TEXT), lat = (CAST(4503599627370497 AS REAL)/1024), "
    "code = X'00ff' WHERE stop_id = 's00003';\n"
    "INSERT INTO stops (stop_id, stop_name, lat, code) VALUES ('s00099','it''s',-2.0,NULL),\n('s00100',NULL,1e-05,X'');\n")


FIXTURE = {}           # version -> (bundle bytes, content digest)


def setUpModule():
    """The good publication, made once: bundles 1 and 2, the delta 1 -> 2, each checked."""
    global SHARED
    SHARED = tempfile.mkdtemp(prefix="feedc-hostile-")
    v1 = fx.stop_rows(50)
    v2 = [r for r in fx.stop_rows(60, renamed={3}) if r[0] != "s00007"]
    awkward = [r for r in v1 if r[0] != "s00003"] + [
        ("s00003", "a\x00b", 4503599627370497 / 1024, b"\x00\xff"), ("s00099", "it's", -2.0, None),
        ("s00100", None, 1e-05, b"")]
    for version, number, rows in ((1, 1, v1), (2, 2, v2), ("awkward", 2, awkward)):
        path = os.path.join(SHARED, "%s.sqlite" % version)
        digest = fx.make_bundle(path, number, rows)
        with open(path, "rb") as f:
            FIXTURE[version] = (f.read(), digest)
    for sql, target in ((DELTA_1_2, 2), (DELTA_AWKWARD, "awkward")):
        path = os.path.join(SHARED, "check.sqlite")
        with open(path, "wb") as f:
            f.write(FIXTURE[1][0])
        conn = sqlite3.connect(path)
        conn.executescript(sql)
        assert content_digest(conn) == FIXTURE[target][1], "the fixture delta does not reach %s" % target
        conn.close()


def tearDownModule():
    shutil.rmtree(SHARED, ignore_errors=True)
    if MEASURED:
        print("\nmeasured (test, wall seconds, child CPU seconds, child peak MB, what it printed):", file=sys.stderr)
        for name, seconds, cpu, peak, line in MEASURED:
            print("  %-66s %5.2f s %5.2f s %6.1f MB  %s" % (name, seconds, cpu, peak, line[:150]), file=sys.stderr)


class Outcome:
    """What one pull did: exit status, standard output and error, wall seconds, CPU seconds
    (user and system), peak MB."""

    def __init__(self, status, out, err, seconds, peak_mb, cpu=0.0):
        self.status, self.out, self.err, self.seconds, self.peak_mb = status, out, err, seconds, peak_mb
        self.cpu = cpu

    def __repr__(self):
        return "exit %d in %.2f s (CPU %.2f s), %.0f MB: out %r err %r" % (
            self.status, self.seconds, self.cpu, self.peak_mb, self.out, self.err)


class ClientTest(unittest.TestCase):
    """A fresh folder and server per test, serving the good publication (version 2, delta 1->2).
    `client`: which client pulls, "python" (feedc_client.py) or "swift" (feedc pull)."""

    client = "python"

    def setUp(self):
        if self.client == "swift" and not os.access(FEEDC, os.X_OK):
            self.fail("no feedc binary at %s: build it (swift build -c release --product feedc) or set FEEDC_BINARY" % FEEDC)
        self.folder = tempfile.mkdtemp(prefix="case-", dir=SHARED)
        self.db = os.path.join(self.folder, "t.sqlite")
        self.server = fx.HostileServer()
        self.addCleanup(self.server.stop)
        self.bundle = {v: fx.gz(FIXTURE[v][0]) for v in (1, 2)}
        self.latest = fx.entry("bundles/2.sqlite.gz", self.bundle[2], 2, FIXTURE[2][1])
        self.delta_bytes = fx.gz(DELTA_1_2.encode())
        self.publish(deltas=[fx.entry("deltas/1-2.sql.gz", self.delta_bytes, **{"from": 1, "to": 2})])
        self.serve("bundles/1.sqlite.gz", fx.static(self.bundle[1]))
        self.serve("bundles/2.sqlite.gz", fx.static(self.bundle[2]))
        self.serve("deltas/1-2.sql.gz", fx.static(self.delta_bytes))

    def serve(self, path, handler):
        self.server.routes["/m/" + path] = handler

    def publish(self, latest=None, deltas=(), body=None):
        """manifest.json: `body` as is, else the manifest of `latest` (default version 2)."""
        body = body if body is not None else fx.manifest(latest or self.latest, deltas=deltas)
        self.serve("manifest.json", fx.static(body, etag='"%s"' % hashlib.sha256(body).hexdigest()[:16]))

    def install_v1(self):
        """The database as a pull of version 1 leaves it (WAL); returns its bytes."""
        with open(self.db, "wb") as f:
            f.write(FIXTURE[1][0])
        conn = sqlite3.connect(self.db)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.close()
        self.before_digest = self.digest()
        with open(self.db, "rb") as f:
            return f.read()

    def words(self, python, swift):
        """What the reason is called in this test's client's error: `python` or `swift`."""
        return swift if self.client == "swift" else python

    def pull(self, path="/m/manifest.json", timeout=TIMEOUT, public_key=None, file_size_limit=None, db=None):
        args = command(self.client, self.server.url(path), db or self.db, timeout)
        if public_key:
            args += ["--public-key", public_key]
        return run(args, file_size_limit, self.client)

    def measured(self, outcome):
        MEASURED.append((self.id().split(".", 1)[1], outcome.seconds, outcome.cpu, outcome.peak_mb,
                         (outcome.err.strip() or outcome.out.strip()).replace(SHARED, "")))
        self.assertLess(outcome.seconds, WALL_MAX, outcome)
        self.assertLessEqual(outcome.peak_mb, PEAK_MAX_MB, outcome)
        return outcome

    def assertIdleOnCPU(self, outcome):
        """A pull that waited on a slow or stalled server used little CPU: no busy waiting."""
        self.assertLess(outcome.cpu, CPU_MAX, outcome)

    def assertFailed(self, outcome, *words, before=None):
        """Exit 2, one line on standard error naming `words`, no traceback, in time and memory;
        the database's bytes as `before` (None: no database), no unpacked file left."""
        self.measured(outcome)
        self.assertEqual(outcome.status, 2, outcome)
        self.assertEqual(len(outcome.err.strip().splitlines()), 1, outcome)
        self.assertNotIn("Traceback", outcome.err)
        for word in words:
            self.assertIn(word, outcome.err)
        if before is None:
            self.assertFalse(os.path.exists(self.db), "a database was written")
        else:
            with open(self.db, "rb") as f:
                self.assertTrue(f.read() == before, "the database changed")
            self.assertEqual(self.digest(), self.before_digest)
        self.assertEqual([n for n in os.listdir(self.folder) if ".new-" in n], [])

    def assertAtVersion2(self, outcome, line):
        self.measured(outcome)
        self.assertEqual((outcome.status, outcome.out.strip(), outcome.err), (0, line, ""), outcome)
        self.assertEqual(self.digest(), FIXTURE[2][1])
        self.assertEqual(self.meta("version"), "2")
        conn = sqlite3.connect(self.db)
        self.assertEqual(conn.execute("PRAGMA integrity_check").fetchone()[0], "ok")
        conn.close()

    def digest(self):
        conn = sqlite3.connect("file:%s?mode=ro" % self.db, uri=True)
        try:
            return content_digest(conn)
        finally:
            conn.close()

    def meta(self, key):
        conn = sqlite3.connect(self.db)
        try:
            return conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()[0]
        finally:
            conn.close()

    def full_line(self, latest=None):
        return "downloaded full bundle (version 2), %d bytes" % (latest or self.latest)["bytes"]


def command(client, url, db, timeout):
    """The command line of a pull by `client` ("python" or "swift")."""
    program = [FEEDC] if client == "swift" else [sys.executable, CLIENT]
    return program + ["pull", url, "--db", db, "--timeout", str(timeout)]


# Runs the client as its child and writes the child's peak memory (ru_maxrss, KiB) and CPU time
# (user and system, seconds) to argv[1]. A child's ru_maxrss starts from what its parent held when
# it forked (Linux keeps it across exec), so the client is started from this small process, not
# from the test's.
_MEASURE = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as f:
    f.write("%d %f" % (usage.ru_maxrss, usage.ru_utime + usage.ru_stime))
sys.exit(os.waitstatus_to_exitcode(status))
"""


def run(args, file_size_limit=None, client="python"):
    """Runs a client: its exit status, output, wall time, peak memory in MB and CPU time."""
    def limit():
        if file_size_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    if client == "swift":
        env.pop("LD_LIBRARY_PATH", None)  # the core SQLite is the Python client's; feedc keeps its own
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r") as peak:
        start = time.monotonic()
        child = subprocess.Popen([sys.executable, "-S", "-c", _MEASURE, peak.name] + args,
                                 stdout=out, stderr=err, env=env, preexec_fn=limit)
        try:
            status = child.wait(60)
        except subprocess.TimeoutExpired:
            child.kill()
            status = child.wait()
        seconds = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        kib, cpu = (peak.read().split() + ["0", "0"])[:2]
        return Outcome(status, out.read().decode(), err.read().decode(), seconds, int(kib) / 1024, float(cpu))

class GoodPathTests(ClientTest):
    def test_fresh_install_then_up_to_date(self):
        self.assertAtVersion2(self.pull(), self.full_line())
        self.assertAtVersion2(self.pull(), "up to date (version 2)")
        self.assertEqual(self.server.requests.count("/m/manifest.json"), 2)

    def test_delta(self):
        self.install_v1()
        self.assertAtVersion2(self.pull(), "applied delta 1\u21922, %d bytes" % len(self.delta_bytes))
        self.assertNotIn("/m/bundles/2.sqlite.gz", self.server.requests)

    def test_delta_with_awkward_values_passes_the_statement_check(self):
        data = fx.gz(DELTA_AWKWARD.encode())
        latest = dict(self.latest, digest=FIXTURE["awkward"][1])
        self.publish(latest, [fx.entry("deltas/1-2.sql.gz", data, unpacked_bytes=len(DELTA_AWKWARD), **{"from": 1, "to": 2})])
        self.serve("deltas/1-2.sql.gz", fx.static(data))
        self.install_v1()
        outcome = self.measured(self.pull())
        self.assertEqual((outcome.status, outcome.out.strip()), (0, "applied delta 1\u21922, %d bytes" % len(data)), outcome)
        self.assertEqual(self.digest(), FIXTURE["awkward"][1])

    def test_signed_manifest(self):
        body = fx.manifest(self.latest)
        public, signature = fx.sign(b"k" * 32, body)
        key = base64.b64encode(public).decode()
        self.publish(body=body)
        self.serve("manifest.json.sig", fx.static(base64.b64encode(signature) + b"\n"))
        self.assertAtVersion2(self.pull(public_key=key), self.full_line())
        os.remove(self.db)
        self.publish(body=body + b" ")
        self.assertFailed(self.pull(public_key=key), "does not verify", before=None)

    def test_cut_download_resumes_with_range(self):
        self.serve("bundles/2.sqlite.gz", fx.cut(self.bundle[2], 1000))
        self.assertFailed(self.pull(), "connection closed after 1000 of", before=None)
        self.serve("bundles/2.sqlite.gz", fx.static(self.bundle[2]))
        self.assertAtVersion2(self.pull(), self.full_line())
        self.assertIn("Range: bytes=1000-", self.server.requests)

    def test_unpacked_bytes_when_given_is_the_exact_size(self):
        latest = dict(self.latest, unpacked_bytes=len(FIXTURE[2][0]))
        self.publish(latest)
        self.assertAtVersion2(self.pull(), self.full_line())
        os.remove(self.db)
        self.publish(dict(self.latest, unpacked_bytes=len(FIXTURE[2][0]) - 1))
        self.assertFailed(self.pull(), "unpacks to more than", before=None)


class ManifestAttackTests(ClientTest):
    def setUp(self):
        super().setUp()
        self.before = self.install_v1()

    def test_3_gb_manifest(self):
        self.serve("manifest.json", fx.endless(b'{"format": 2, "x": "'))
        self.assertFailed(self.pull(), "manifest.json is larger than 1 MiB", before=self.before)

    def test_3_gb_manifest_announced(self):
        self.serve("manifest.json", fx.endless(content_length=fx.GB3))
        self.assertFailed(self.pull(), "manifest.json is larger than 1 MiB", before=self.before)

    def test_3_gb_signature(self):
        self.serve("manifest.json.sig", fx.endless())
        key = "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="
        self.assertFailed(self.pull(public_key=key), "manifest.json.sig is larger than 1 KiB", before=self.before)

    def test_duplicated_key(self):
        body = fx.manifest(self.latest).replace(b'"format": 2,', b'"format": 2, "format": 2,')
        self.publish(body=body)
        self.assertFailed(self.pull(), self.words("`format` occurs twice", "`format` appears twice"), before=self.before)
        nested = fx.manifest(self.latest).replace(b'"version": 2', b'"version": 2, "version": 999999')
        self.publish(body=nested)
        self.assertFailed(self.pull(), self.words("`version` occurs twice", "`version` appears twice"), before=self.before)

    def test_integers_out_of_range(self):
        for bad in (2 ** 53, -1, 2.0, True, "2"):
            self.publish(dict(self.latest, version=bad))
            # The Swift client's words for a JSON integer out of range name no field (its own
            # tests pin them); for a value not written as an integer, they do.
            swift = "an integer is outside 0\u20262^53 \u2212 1" if isinstance(bad, int) and not isinstance(bad, bool) \
                else "latest: `version` is not a JSON integer"
            self.assertFailed(self.pull(), self.words("`version` missing or not an integer", swift), before=self.before)

    def test_unpacked_bytes_beyond_the_ratio(self):
        self.publish(dict(self.latest, unpacked_bytes=100 * self.latest["bytes"] + 1))
        self.assertFailed(self.pull(), "`unpacked_bytes`", before=self.before)

    def test_files_off_the_manifests_server(self):
        other = "http://127.0.0.2:%d/m/bundles/2.sqlite.gz" % self.server.server_address[1]
        for file in ("file:///dev/zero", other, "ftp://127.0.0.1/x", "//example.invalid/x"):
            self.publish(dict(self.latest, file=file))
            self.assertFailed(self.pull(), "is not on the manifest's server", before=self.before)
        self.assertNotIn("/m/bundles/2.sqlite.gz", self.server.requests)

    def test_manifest_at_1_byte_a_second(self):
        self.serve("manifest.json", fx.dripping(fx.manifest(self.latest)))
        outcome = self.pull()
        self.assertFailed(outcome, "timed out after 5 s", before=self.before)
        self.assertGreater(outcome.seconds, TIMEOUT - 0.5)
        self.assertIdleOnCPU(outcome)

    def test_response_head_at_1_byte_a_second(self):
        self.serve("manifest.json", fx.dripping(fx.manifest(self.latest), headers_too=True))
        outcome = self.pull()
        self.assertFailed(outcome, "timed out after 5 s", before=self.before)
        self.assertIdleOnCPU(outcome)

    def test_manifest_stalled(self):
        body = fx.manifest(self.latest)
        self.serve("manifest.json", fx.stalled(body, len(body) // 2))
        outcome = self.pull()
        self.assertFailed(outcome, "timed out after 5 s", before=self.before)
        self.assertIdleOnCPU(outcome)


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
        self.assertAtVersion2(self.pull(), self.full_line())

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
        self.assertAtVersion2(self.pull(), self.full_line())

    def test_disk_full_is_a_local_error(self):
        os.remove(self.db)
        outcome = self.pull(file_size_limit=1000)
        self.assertFailed(outcome, "cannot write", "File too large", before=None)
        self.assertNotIn("no connection", outcome.err)


class ConcurrencyTests(ClientTest):
    def pulls_at_once(self, clients, in_order=False):
        """Pulls by the two `clients` into one database at once, while the full bundle takes a
        second to start: one downloads it, the other waits for the lock and finds the database up
        to date. `in_order`: the second starts once the first holds the lock (it asks for the
        manifest only then)."""
        self.serve("bundles/2.sqlite.gz", fx.delayed(1, fx.static(self.bundle[2])))
        outcomes = [None] * len(clients)

        def one(n):
            outcomes[n] = run(command(clients[n], self.server.url("/m/manifest.json"), self.db, TIMEOUT), client=clients[n])
        threads = [threading.Thread(target=one, args=(n,)) for n in range(len(clients))]
        for n, thread in enumerate(threads):
            thread.start()
            give_up = time.monotonic() + 5
            while in_order and n == 0 and "/m/manifest.json" not in self.server.requests and time.monotonic() < give_up:
                time.sleep(0.01)
        for thread in threads:
            thread.join()
        lines = sorted(o.out.strip() for o in outcomes)
        for outcome in outcomes:
            self.measured(outcome)
            self.assertEqual((outcome.status, outcome.err), (0, ""), outcome)
        self.assertEqual(lines, sorted([self.full_line(), "up to date (version 2)"]))
        self.assertAtVersion2(self.pull(), "up to date (version 2)")
        return outcomes

    def test_two_pulls_into_one_database(self):
        self.pulls_at_once([self.client, self.client])

    def test_a_pull_by_each_client_at_once(self):
        # This test's client takes the lock first; the other client waits for it.
        other = "python" if self.client == "swift" else "swift"
        if other == "swift" and not os.access(FEEDC, os.X_OK):
            self.fail("no feedc binary at %s" % FEEDC)
        first, second = self.pulls_at_once([self.client, other], in_order=True)
        self.assertEqual(first.out.strip(), self.full_line(), first)
        self.assertEqual(second.out.strip(), "up to date (version 2)", second)

    def test_waits_for_the_lock_then_gives_up(self):
        with open(self.db + ".lock", "a") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            outcome = self.pull(timeout=1)
        self.assertFailed(outcome, "another update of", "is under way", before=None)
        self.assertGreater(outcome.seconds, 0.9)
        self.assertIdleOnCPU(outcome)
        self.assertEqual(self.server.requests, [])


class SwiftGoodPathTests(GoodPathTests):
    client = "swift"


class SwiftManifestAttackTests(ManifestAttackTests):
    client = "swift"


class SwiftDeltaAttackTests(DeltaAttackTests):
    client = "swift"


class SwiftFullBundleAttackTests(FullBundleAttackTests):
    client = "swift"


class SwiftConcurrencyTests(ConcurrencyTests):
    client = "swift"


if __name__ == "__main__":
    unittest.main()
