"""Pulls at once into one database (hostile_case.py): two of one client, one of each client, and
a lock held elsewhere. The same with `feedc pull`: test_hostile_swift.py.

    python3 -m unittest discover -s clients/python/tests -v      (from the repository's root)
"""
import fcntl
import os
import threading
import time
import unittest

import hostile_fixtures as fx
from hostile_case import FEEDC, TIMEOUT, ClientTest, command, run, setUpModule, tearDownModule  # noqa: F401


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


if __name__ == "__main__":
    unittest.main()
