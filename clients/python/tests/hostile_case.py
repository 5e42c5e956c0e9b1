"""The harness of the hostile-server tests, test_hostile_*.py (docs/update-protocol.md, "Limits"):
both clients against a hostile server, where each attack ends in exit status 2 with one readable
line (or, for a delta, in the full bundle), the database as it was, within the deadline, and in
bounded memory. The limits' building blocks on their own: test_building_blocks.py.

    python3 -m unittest discover -s clients/python/tests -v      (from the repository's root)

Each pull runs a client as a child process: the Python one, `feedc_client.py pull URL --db PATH
--timeout 5`, in the test classes, the Swift one, `feedc pull URL --db PATH --timeout 5`,
in their `Swift…` subclasses (test_hostile_swift.py: the same cases; where the clients word a
reason differently, `words` gives each its own), and the JVM one, `java -cp
.build/jvm/feedc-jvm.jar:/usr/share/java/sqlite-jdbc.jar org.feedc.client.Main pull …`, in their
`JVM…` subclasses (test_hostile_jvm.py; it words errors as the Python client does). The Swift
binary is $FEEDC_BINARY, else .build/release/feedc (`swift build -c release --product feedc`);
without it those tests fail. The JVM client's jar is $FEEDC_JVM_JAR (missing: those tests fail),
else built once per run by clients/jvm/build.sh; without java, javac or the SQLite JDBC driver
($SQLITE_JDBC_JAR, else /usr/share/java/sqlite-jdbc.jar) those tests are skipped, and so they are
under `swift test`'s PythonHostileServerTests (FEEDC_BINARY set, FEEDC_JVM_JAR not): there
JVMClientTests runs them, once.
A pull's wall time (at most 10 s, plus four times its own CPU time: what a loaded machine adds)
and peak memory (at most 256 MB: ru_maxrss of that process
alone, `run`) are checked, and its CPU time where it waits on a slow server (at most 2 s), and
printed at the end of each test module with what the pull printed. About 3 minutes in all.

A test module takes `setUpModule` and `tearDownModule` from here: the good publication is made in
a fresh folder for each module, and the module's measurements are printed when it ends.
"""
import hashlib
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest

import hostile_fixtures as fx
from feedc_bundle import content_digest

CLIENT = os.path.join(fx.CLIENT_FOLDER, "feedc_client.py")
ROOT = os.path.normpath(os.path.join(fx.CLIENT_FOLDER, os.pardir, os.pardir))
FEEDC = os.environ.get("FEEDC_BINARY") or os.path.join(ROOT, ".build", "release", "feedc")
# Options of every JVM a test starts: a pull or a live answer runs for about a second, in which the
# optimising compiler (C2) and the parallel collector's threads cost more CPU than they save
# (WMATA's live report: 1.25 s of CPU by default, 0.72 s with these; same answers).
JVM_OPTIONS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-XX:-UsePerfData"]
JVM_JAR = os.environ.get("FEEDC_JVM_JAR") or os.path.join(ROOT, ".build", "jvm", "feedc-jvm.jar")
SQLITE_JDBC_JAR = os.environ.get("SQLITE_JDBC_JAR") or "/usr/share/java/sqlite-jdbc.jar"
PROTOBUF_JAR = os.environ.get("PROTOBUF_JAR") or "/usr/share/java/protobuf.jar"  # build.sh compiles the live layer with it
JVM_BUILT = []         # what clients/jvm/build.sh did, once it has run in this process
TIMEOUT = 5            # --timeout of every pull
WALL_MAX = 10.0        # seconds: the deadline of a small request, with room to spare, plus
CPU_SHARE = 0.05       # the pull's own CPU time over this share of a core: a hang's bound, not a
                       # speed test. Two cores shared by the test run's jobs (twelve unittest
                       # processes, their clients, the Swift tests, two `yes` beside) gave a JVM pull
                       # 15% of a core in CI (4.2 s of CPU in 27 s); a twentieth still catches a
                       # client that waits out a 40 s stall or drips 1 byte a second to the end
CPU_MAX = 2.0          # seconds of CPU while a pull waits on a slow server: it must not spin
PEAK_MAX_MB = 256
MEASURED = []          # (test, seconds, CPU seconds, peak MB, line printed), printed as a module ends

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
        MEASURED.clear()  # the next module prints its own


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
        if self.client == "jvm":
            self.require_jvm_client()
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

    def require_jvm_client(self):
        """Skips the test without java or the JDBC driver, or when run by `swift test`'s
        PythonHostileServerTests; builds the jar unless FEEDC_JVM_JAR names it."""
        if shutil.which("java") is None or not os.path.exists(SQLITE_JDBC_JAR):
            self.skipTest("needs java and the SQLite JDBC driver at %s (Debian: openjdk-17-jdk-headless, "
                          "libxerial-sqlite-jdbc-java)" % SQLITE_JDBC_JAR)
        if "FEEDC_JVM_JAR" in os.environ:
            if not os.path.exists(JVM_JAR):
                self.fail("no JVM client at %s: run clients/jvm/build.sh" % JVM_JAR)
            return
        if "FEEDC_BINARY" in os.environ:
            self.skipTest("the JVM client's cases run in JVMClientTests under swift test (FEEDC_JVM_JAR unset)")
        if shutil.which("javac") is None or not os.path.exists(PROTOBUF_JAR):
            self.skipTest("needs javac and protobuf.jar to build the JVM client (Debian: openjdk-17-jdk-headless, "
                          "libprotobuf-java)")
        if not JVM_BUILT:
            JVM_BUILT.append(subprocess.run(["bash", os.path.join(ROOT, "clients", "jvm", "build.sh")],
                                            capture_output=True, text=True))
        if JVM_BUILT[0].returncode != 0:
            self.fail("clients/jvm/build.sh failed: %s" % JVM_BUILT[0].stderr[-2000:])

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
        """What the reason is called in this test's client's error: `python` or `swift` (the JVM
        client words its errors as the Python client does)."""
        return swift if self.client == "swift" else python

    def pull(self, path="/m/manifest.json", timeout=TIMEOUT, public_key=None, file_size_limit=None, db=None):
        args = command(self.client, self.server.url(path), db or self.db, timeout)
        if public_key:
            args += ["--public-key", public_key]
        return run(args, file_size_limit, self.client)

    def measured(self, outcome):
        MEASURED.append((self.id().split(".", 1)[1], outcome.seconds, outcome.cpu, outcome.peak_mb,
                         (outcome.err.strip() or outcome.out.strip()).replace(SHARED, "")))
        # Waiting ends at the client's deadline whatever the load; computing takes longer on a
        # busy machine: the bound allows for the pull's own CPU time at a twentieth of a core.
        self.assertLess(outcome.seconds, WALL_MAX + outcome.cpu / CPU_SHARE, outcome)
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

    def full_line(self, latest=None, reason="first download"):
        """What both clients print after installing the full bundle: its size, and why no delta
        was used (`first download`, `no delta from version N is published`, or `the delta from
        version N was not used: ERROR`)."""
        return "downloaded full bundle (version 2), %d bytes; %s" % ((latest or self.latest)["bytes"], reason)


def command(client, url, db, timeout):
    """The command line of a pull by `client` ("python", "swift" or "jvm")."""
    if client == "jvm":
        program = [shutil.which("java") or "/usr/bin/java"] + JVM_OPTIONS + ["-cp", JVM_JAR + os.pathsep + SQLITE_JDBC_JAR,
                   "org.feedc.client.Main"]
    else:
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
    if client in ("swift", "jvm"):
        # The core SQLite is the Python client's; feedc keeps its own, and the JDBC driver's JNI
        # library needs the system's (the core build lacks the column metadata it links to).
        env.pop("LD_LIBRARY_PATH", None)
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
