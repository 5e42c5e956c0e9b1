"""Every hostile-server test again with the JVM client, clients/jvm (`java -cp
.build/jvm/feedc-jvm.jar:/usr/share/java/sqlite-jdbc.jar org.feedc.client.Main pull …`;
hostile_case.py builds the jar with clients/jvm/build.sh, or takes $FEEDC_JVM_JAR): the test
classes of test_hostile_good_path.py, test_hostile_manifest.py, test_hostile_delta.py,
test_hostile_full_bundle.py, test_hostile_concurrency.py and test_packed_pull.py (packed bundles;
the real one only where ../shared/data is) with `client = "jvm"`. Skipped without java or the
SQLite JDBC driver.

    python3 -m unittest discover -s clients/python/tests -p 'test_hostile_jvm.py' -v   (from the repository's root)
"""
import os
import unittest

# Modules, not their classes: a class imported here would run here a second time.
import test_hostile_concurrency as concurrency
import test_hostile_delta as delta
import test_hostile_full_bundle as full_bundle
import test_hostile_good_path as good_path
import test_hostile_manifest as manifest
import test_packed_pull as packed
from hostile_case import setUpModule, tearDownModule  # noqa: F401


class JVMGoodPathTests(good_path.GoodPathTests):
    client = "jvm"


class JVMManifestAttackTests(manifest.ManifestAttackTests):
    client = "jvm"


class JVMDeltaAttackTests(delta.DeltaAttackTests):
    client = "jvm"

    def assertRefused(self, outcome, reason):
        """As `feedc pull` does, the JVM client names why the delta was not used in its error
        line (in the Python client's words), so the reason is checked there."""
        self.assertFailed(outcome, "bundles/2.sqlite.gz: HTTP 404", "the delta was not used: ", reason, before=self.before)
        self.assertIn("/m/deltas/1-2.sql.gz", self.server.requests)


class JVMFullBundleAttackTests(full_bundle.FullBundleAttackTests):
    client = "jvm"


class JVMConcurrencyTests(concurrency.ConcurrencyTests):
    client = "jvm"


class JVMPackedPullTests(packed.PackedPullTests):
    client = "jvm"


# Defined only where the data is: JVMClientTests requires that nothing here is skipped.
if os.path.exists(os.path.join(packed.SHARED_GTFS, packed.REAL_ZIP)):
    class JVMPackedRealBundleTests(packed.PackedRealBundleTests):
        client = "jvm"


if __name__ == "__main__":
    unittest.main()
