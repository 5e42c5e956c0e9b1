"""The good path against the hostile-server harness (hostile_case.py): a fresh install, then up
to date; a delta (with the writer's awkward values); a signed manifest; a cut download resumed
with a Range request; `unpacked_bytes` as the exact size. The same with `feedc pull`:
test_hostile_swift.py.

    python3 -m unittest discover -s clients/python/tests -v      (from the repository's root)
"""
import base64
import os
import unittest

import hostile_fixtures as fx
from hostile_case import DELTA_AWKWARD, FIXTURE, ClientTest, setUpModule, tearDownModule  # noqa: F401


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


if __name__ == "__main__":
    unittest.main()
