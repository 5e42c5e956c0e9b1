"""Every hostile-server test again with the Swift client, `feedc pull` ($FEEDC_BINARY, else
.build/release/feedc; hostile_case.py): the test classes of test_hostile_good_path.py,
test_hostile_manifest.py, test_hostile_delta.py, test_hostile_full_bundle.py,
test_hostile_concurrency.py and test_packed_pull.py's spoiled and hostile packed files with
`client = "swift"` (for a packed file, the outcome: exit 2, one line naming the file, the
database unchanged, in time and memory; Swift words its reasons in its own terms).

    python3 -m unittest discover -s clients/python/tests -v      (from the repository's root)
"""
import unittest

# Modules, not their classes: a class imported here would run here a second time.
import test_hostile_concurrency as concurrency
import test_hostile_delta as delta
import test_hostile_full_bundle as full_bundle
import test_hostile_good_path as good_path
import test_hostile_manifest as manifest
import test_packed_pull as packed
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


class SwiftPackedPullTests(packed.PackedPullTests):
    client = "swift"


if __name__ == "__main__":
    unittest.main()
