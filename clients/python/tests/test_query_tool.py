"""feedc_queries.py carries docs/bundle-format.md's queries word for word, and
docs/positional-queries.json's positional forms (scripts/sync-client-queries.py writes all
three); feedc-query runs them on a bundle.

    python3 -m unittest discover -s clients/python/tests -v -p test_query_tool.py
"""
import contextlib
import io
import json
import os
import sqlite3
import sys
import tempfile
import unittest

CLIENT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
DOCS = os.path.join(CLIENT, os.pardir, os.pardir, "docs")
sys.path.insert(0, CLIENT)

import feedc_query  # noqa: E402
from feedc_queries import POSITIONAL, QUERIES  # noqa: E402


class QueryToolTests(unittest.TestCase):
    def test_the_queries_are_the_docs(self):
        documented = feedc_query.queries(os.path.join(DOCS, "bundle-format.md"))
        self.assertGreaterEqual(len(documented), 20)
        stale = sorted(n for n in set(documented) | set(QUERIES) if documented.get(n) != QUERIES.get(n))
        self.assertEqual(stale, [], "run scripts/sync-client-queries.py")
        with open(os.path.join(DOCS, "positional-queries.json"), encoding="utf-8") as f:
            self.assertEqual(POSITIONAL, json.load(f)["queries"], "run scripts/sync-client-queries.py")

    def run_tool(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = feedc_query.main(list(args))
        return status, out.getvalue(), err.getvalue()

    def test_a_query_on_a_bundle(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "b.sqlite")
            conn = sqlite3.connect(path)
            conn.execute("CREATE TABLE stops (stop_id TEXT PRIMARY KEY, name TEXT)")
            conn.execute("INSERT INTO stops VALUES ('s1', 'One')")
            conn.commit()
            conn.close()
            # stop_by_id reads more columns than this table has: the SQL error is reported, status 2.
            status, out, err = self.run_tool(path, "stop_by_id", "stop_id=s1")
            self.assertEqual((status, out), (2, ""))
            self.assertIn("no such column", err)
            status, _, err = self.run_tool(path, "no_such_query")
            self.assertEqual(status, 2)
            self.assertIn("no documented query `no_such_query`", err)
            self.assertEqual(self.run_tool()[0], 2)
            self.assertEqual(self.run_tool("--help")[0], 0)


if __name__ == "__main__":
    unittest.main()
