#!/usr/bin/env python3
"""Runs the documented app queries (`-- query: NAME` blocks of docs/bundle-format.md, kept word
for word in feedc_queries.py) on a bundle with Python's sqlite3, that is with whatever
libsqlite3 it loads: run it under LD_LIBRARY_PATH=.build/core-sqlite/lib to check that a query
needs no optional module. Installed as `feedc-query`; `python3 clients/python/feedc_query.py`
from a checkout.

    feedc-query BUNDLE.sqlite NAME [PARAM=VALUE ...] [--fold PARAM=TEXT]
        prints the rows as JSON objects; VALUE is read as an integer, else a real, else text;
        --fold binds PARAM to the rider's TEXT folded as apps fold it (fold_query).
    feedc-query --list
        the query names, one a line, each with the parameters it takes (in the order it uses them).
    feedc-query --batch REQUESTS.json      (or - for standard input)
        {"bundle": PATH, "docs": PATH, "requests": [{"name": N, "params": {P: V}, "fold": {P: TEXT},
        "binding": B}]}, B one of "named" (the default), "text" (every value bound as its text, as
        Android binds), "positional" and "positional_text" (docs/positional-queries.json's `?` form)
        with typed values ({"i": "12"}, {"r": "0.5"}, {"t": "text"}, {"b": "hex"}, null); prints
        {"sqlite_version", "compile_options", "results": [{"rows": [[V, …]], "folded": {P: Q}}
        or {"error": MESSAGE}]} with values typed the same way (reals as repr, which reads back
        to the same double). "docs" is optional: the queries of that bundle-format.md (and the
        positional-queries.json beside it) instead of the ones this module carries.

Exit status: 0 with the rows printed, 2 for a bad command line, an unknown query or an SQL error.
"""
import json
import os
import sqlite3
import sys
import urllib.parse

from feedc_client import fold_query
from feedc_queries import POSITIONAL, QUERIES


def queries(docs):
    """{name: sql} of the ```sql blocks starting `-- query: name`."""
    with open(docs, encoding="utf-8") as f:
        text = f.read()
    out = {}
    for block in text.split("```sql\n")[1:]:
        sql = block.split("\n```", 1)[0]
        if sql.startswith("-- query: "):
            out[sql[len("-- query: "):].split("\n", 1)[0]] = sql
    return out


def connect(bundle):
    return sqlite3.connect("file:%s?mode=ro" % urllib.parse.quote(os.path.abspath(bundle)), uri=True)


def typed(value):
    if value is None:
        return None
    if isinstance(value, int):
        return {"i": str(value)}
    if isinstance(value, float):
        return {"r": repr(value)}
    if isinstance(value, bytes):
        return {"b": value.hex()}
    return {"t": value}


def untyped(value):
    if value is None:
        return None
    (kind, text), = value.items()
    return {"i": int, "r": float, "t": str, "b": bytes.fromhex}[kind](text)


def as_text(value):
    """A value as Android's rawQuery(sql, String[]) binds it: a number as its decimal text."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    return str(value) if isinstance(value, int) else repr(value)


def run(conn, sql, params, fold, binding="named", form=None):
    bound = dict(params)
    for name, text in fold.items():
        bound[name] = fold_query(text)
    values = {k: as_text(v) for k, v in bound.items()} if binding.endswith("text") else bound
    if binding.startswith("positional"):
        rows = conn.execute(form["sql"], [values.get(n) for n in form["parameters"]]).fetchall()
    else:
        rows = conn.execute(sql, values).fetchall()
    return rows, {name: bound[name] for name in fold}


def batch(path):
    if path == "-":
        request = json.load(sys.stdin)
    else:
        with open(path, encoding="utf-8") as f:
            request = json.load(f)
    docs = request.get("docs")
    known, forms = QUERIES, POSITIONAL
    if docs:
        known = queries(docs)
        with open(os.path.join(os.path.dirname(docs), "positional-queries.json"), encoding="utf-8") as f:
            forms = json.load(f)["queries"]
    conn = connect(request["bundle"])
    results = []
    for item in request["requests"]:
        try:
            params = {k: untyped(v) for k, v in item.get("params", {}).items()}
            rows, folded = run(conn, known[item["name"]], params, item.get("fold", {}),
                               item.get("binding", "named"), forms.get(item["name"]))
            results.append({"rows": [[typed(v) for v in row] for row in rows], "folded": folded})
        except (sqlite3.Error, KeyError) as error:
            results.append({"error": "%s: %s" % (type(error).__name__, error)})
    options = [row[0] for row in conn.execute("PRAGMA compile_options")]
    json.dump({"sqlite_version": sqlite3.sqlite_version, "compile_options": options, "results": results}, sys.stdout)


def parse(text):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if argv == ["--list"]:
        for name in sorted(QUERIES):
            print(" ".join([name] + list(dict.fromkeys(POSITIONAL[name]["parameters"]))))
        return 0
    if argv[:1] == ["--batch"] and len(argv) == 2:
        return batch(argv[1])
    if len(argv) < 2 or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    bundle, name, params, fold = argv[0], argv[1], {}, {}
    rest = iter(argv[2:])
    for arg in rest:
        target = params
        if arg == "--fold":
            target, arg = fold, next(rest, "")
        key, _, value = arg.partition("=")
        target[key] = value if target is fold else parse(value)
    if name not in QUERIES:
        print("feedc-query: no documented query `%s` (feedc-query --list names them)" % name, file=sys.stderr)
        return 2
    if not os.path.isfile(bundle):
        print("feedc-query: no bundle file at %s" % bundle, file=sys.stderr)
        return 2
    try:
        conn = connect(bundle)
        cursor = conn.execute(QUERIES[name], dict(params, **{k: fold_query(v) for k, v in fold.items()}))
    except sqlite3.Error as error:
        print("feedc-query: %s: %s: %s" % (bundle, type(error).__name__, error), file=sys.stderr)
        return 2
    columns = [d[0] for d in cursor.description]
    json.dump([dict(zip(columns, row)) for row in cursor], sys.stdout, ensure_ascii=False, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
