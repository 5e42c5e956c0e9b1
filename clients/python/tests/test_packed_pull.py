"""Whole pulls of packed bundles (docs/packed-bundle.md) against the hostile-server harness
(hostile_case.py): the manifest lists the plain bundle and a `packed-gzip` encoding; the client
downloads the packed file, installs it and checks it as a plain bundle. A spoiled packed file
ends in exit 2, "the packed bundle does not install: …", the database as it was and the partial
download deleted; an unknown or invalid encoding entry means the plain file. The JVM client runs
the same cases (test_hostile_jvm.py) and must print the same lines.

    python3 -m unittest discover -s clients/python/tests -p 'test_packed_*.py' -v   (from the repository's root)

PackedRealBundleTests pulls a real bundle compiled by `feedc build` from ../shared/data
(skipped without it).
"""
import os
import unittest

import hostile_fixtures as fx
import packed_cases as cases
import packed_fixture as pf
from hostile_case import FEEDC, ClientTest, setUpModule, tearDownModule  # noqa: F401
from test_packed_install import SHARED_GTFS, build_real_bundles

PACKED_FILE = "bundles/2.packed.sqlite.gz"
REAL_ZIP = "small/cdmx_2018_tlib.zip"


class PackedPullTests(ClientTest):
    """The rich bundle of packed_cases.py as version 2, plain and packed; the database at version 1."""

    def setUp(self):
        super().setUp()
        self.plain = os.path.join(self.folder, "rich.sqlite")
        self.rich_digest = cases.make_rich_bundle(self.plain)
        with open(self.plain, "rb") as f:
            self.rich = f.read()
        self.before = self.install_v1()

    def publish_packed(self, spoil=None, **fields):
        """Publishes the rich bundle plain and packed (spoiled by `spoil`); returns the packed
        entry of the manifest, with `fields` replaced."""
        packed = os.path.join(self.folder, "rich.packed")
        pf.pack(self.plain, packed)
        if spoil is not None:
            spoil(packed)
        with open(packed, "rb") as f:
            unpacked = f.read()
        os.remove(packed)
        data = self.packed_data = fx.gz(unpacked)
        entry = dict(fx.entry(PACKED_FILE, data, encoding="packed-gzip", unpacked_bytes=len(unpacked)), **fields)
        plain = fx.gz(self.rich)
        self.latest = fx.entry("bundles/2.sqlite.gz", plain, 2, self.rich_digest, unpacked_bytes=len(self.rich),
                               encodings=[entry])
        self.publish(self.latest)
        self.serve("bundles/2.sqlite.gz", fx.static(plain))
        self.serve(PACKED_FILE, fx.static(data))
        return entry

    def assertInstalled(self, outcome, downloaded):
        self.measured(outcome)
        line = "downloaded full bundle (version 2), %d bytes; no delta from version 1 is published" % downloaded["bytes"]
        self.assertEqual((outcome.status, outcome.out.strip(), outcome.err), (0, line, ""), outcome)
        self.assertEqual(self.digest(), self.rich_digest)
        self.assertEqual(self.meta("version"), "2")
        self.assertEqual([n for n in os.listdir(self.folder) if n.startswith(".")], [])

    def test_the_packed_file_is_taken_and_installed(self):
        entry = self.publish_packed()
        self.assertInstalled(self.pull(), entry)
        self.assertIn("/m/" + PACKED_FILE, self.server.requests)
        self.assertNotIn("/m/bundles/2.sqlite.gz", self.server.requests)

    def test_unknown_or_invalid_encodings_mean_the_plain_file(self):
        for change in ({"encoding": "packed-zstd"}, {"sha256": "A" * 64}, {"unpacked_bytes": None}, {"bytes": 1}):
            with self.subTest(change=change):
                self.install_v1()
                self.publish_packed(**change)
                self.server.requests.clear()
                self.assertInstalled(self.pull(), self.latest)
                self.assertNotIn("/m/" + PACKED_FILE, self.server.requests)

    def test_no_packed_file_without_the_plain_bundles_unpacked_bytes(self):
        """The install is always capped by the plain bundle's size: a version that does not give it
        is downloaded plain."""
        self.publish_packed()
        del self.latest["unpacked_bytes"]
        self.publish(self.latest)
        self.server.requests.clear()
        self.assertInstalled(self.pull(), self.latest)
        self.assertNotIn("/m/" + PACKED_FILE, self.server.requests)

    def test_spoiled_packed_files_are_refused(self):
        for name, spoil, words in cases.SPOILED:
            with self.subTest(name):
                self.publish_packed(spoil)
                outcome = self.pull()
                self.assertFailed(outcome, PACKED_FILE + ": " + cases.failure(words, self.client), before=self.before)
                self.assertEqual([n for n in os.listdir(self.folder) if n.startswith(".")], [])

    def test_a_packed_file_of_other_content_fails_the_digest(self):
        other = os.path.join(self.folder, "other.sqlite")
        fx.make_bundle(other, 2, fx.stop_rows(60, renamed={3}))
        self.publish_packed(lambda packed: pf.pack(other, packed))
        self.assertFailed(self.pull(), PACKED_FILE + ": content digest sha256:", "the manifest says " + self.rich_digest,
                          before=self.before)

    def test_a_packed_file_beyond_twice_the_plain_size_is_refused(self):
        pf.execute(self.plain, "UPDATE stops SET code = randomblob(1500000) WHERE stop_id = 's3'")
        self.publish_packed()
        self.latest["unpacked_bytes"] = 4096  # the cap: (2 x 4096 + 1 MiB) / 4096 pages
        self.publish(self.latest)
        self.assertFailed(self.pull(), PACKED_FILE + ": the packed bundle does not install: table stops: ",
                          "bytes of data, more than the installed bundle's cap of 1056768", before=self.before)

    def test_a_cut_packed_download_resumes(self):
        entry = self.publish_packed()
        self.serve(PACKED_FILE, fx.cut(self.packed_data, 1000))
        self.assertFailed(self.pull(), "connection closed after 1000 of", before=self.before)
        self.serve(PACKED_FILE, fx.static(self.packed_data))
        self.assertInstalled(self.pull(), entry)
        self.assertIn("Range: bytes=1000-", self.server.requests)


_REAL = {}  # hostile_case.SHARED -> (plain bundle bytes, its digest), compiled once per module


class PackedRealBundleTests(ClientTest):
    """A real bundle (Mexico City's 2018 feed, by `feedc build`, packed by the Swift writer) pulled
    packed into a fresh database."""

    def setUp(self):
        if not os.path.exists(os.path.join(SHARED_GTFS, REAL_ZIP)):
            self.skipTest("needs ../shared/data (%s)" % os.path.join(SHARED_GTFS, REAL_ZIP))
        if not os.access(FEEDC, os.X_OK):
            self.skipTest("needs the feedc binary ($FEEDC_BINARY or %s)" % FEEDC)
        super().setUp()

    def test_a_real_bundle_installs_packed(self):
        import hostile_case
        if hostile_case.SHARED not in _REAL:
            folder = os.path.join(hostile_case.SHARED, "real")
            os.mkdir(folder)
            plain, packed, digest = build_real_bundles(folder, [REAL_ZIP])  # packed by the Swift writer
            with open(plain, "rb") as a, open(packed, "rb") as b:
                _REAL[hostile_case.SHARED] = (a.read(), b.read(), digest)
        plain, packed, digest = _REAL[hostile_case.SHARED]
        entry = fx.entry("bundles/1.packed.sqlite.gz", fx.gz(packed), encoding="packed-gzip", unpacked_bytes=len(packed))
        latest = fx.entry("bundles/1.sqlite.gz", fx.gz(plain), 1, digest, unpacked_bytes=len(plain), encodings=[entry])
        self.serve("manifest.json", fx.static(fx.manifest(latest, bundle="b")))
        self.serve("bundles/1.packed.sqlite.gz", fx.static(fx.gz(packed)))
        outcome = self.measured(self.pull())
        line = "downloaded full bundle (version 1), %d bytes; first download" % entry["bytes"]
        self.assertEqual((outcome.status, outcome.out.strip(), outcome.err), (0, line, ""), outcome)
        self.assertEqual(self.digest(), digest)


if __name__ == "__main__":
    unittest.main()
