"""Attacks through manifest.json and its signature (hostile_case.py): 3 GB bodies, duplicated
keys, integers out of range, files off the manifest's server, dripping and stalled responses.
The same with `feedc pull`: test_hostile_swift.py.

    python3 -m unittest discover -s clients/python/tests -v      (from the repository's root)
"""
import unittest

import hostile_fixtures as fx
from hostile_case import TIMEOUT, ClientTest, setUpModule, tearDownModule  # noqa: F401


class ManifestAttackTests(ClientTest):
    def setUp(self):
        super().setUp()
        self.before = self.install_v1()

    def test_3_gb_manifest(self):
        self.serve("manifest.json", fx.endless(b'{"format": 3, "x": "'))
        self.assertFailed(self.pull(), "manifest.json is larger than 1 MiB", before=self.before)

    def test_3_gb_manifest_announced(self):
        self.serve("manifest.json", fx.endless(content_length=fx.GB3))
        self.assertFailed(self.pull(), "manifest.json is larger than 1 MiB", before=self.before)

    def test_3_gb_signature(self):
        self.serve("manifest.json.sig", fx.endless())
        key = "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="
        self.assertFailed(self.pull(public_key=key), "manifest.json.sig is larger than 1 KiB", before=self.before)

    def test_duplicated_key(self):
        body = fx.manifest(self.latest).replace(b'"format": 3,', b'"format": 3, "format": 3,')
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


if __name__ == "__main__":
    unittest.main()
