"""Every hostile-server test again with the Swift client, `feedc pull` ($FEEDC_BINARY, else
.build/release/feedc; hostile_case.py): the test classes of test_hostile_good_path.py,
test_hostile_manifest.py, test_hostile_delta.py, test_hostile_full_bundle.py and
test_hostile_concurrency.py with `client = "swift"`.

    python3 -m unittest discover -s clients/python/tests -v      (from the repository's root)
"""
import unittest

# Modules, not their classes: a class imported here would run here a second time.
import test_hostile_concurrency as concurrency
import test_hostile_delta as delta
import test_hostile_full_bundle as full_bundle
import test_hostile_good_path as good_path
import test_hostile_manifest as manifest
from hostile_case import setUpModule, tearDownModule  # noqa: F401


class SwiftGoodPathTests(good_path.GoodPathTests):
    client = "swift"


class SwiftManifestAttackTests(manifest.ManifestAttackTests):
    client = "swift"


class SwiftDeltaAttackTests(delta.DeltaAttackTests):
    client = "swift"


class SwiftFullBundleAttackTests(full_bundle.FullBundleAttackTests):
    client = "swift"


class SwiftConcurrencyTests(concurrency.ConcurrencyTests):
    client = "swift"


if __name__ == "__main__":
    unittest.main()
