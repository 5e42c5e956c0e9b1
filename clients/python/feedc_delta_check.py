"""The shape check of a delta's SQL (docs/update-protocol.md, "Applying a delta"): before a delta
runs, every statement must look like what the feedc writer emits, or the whole delta is refused
(and the client takes the full bundle).

The authorizer alone lets a delta read whatever it likes: a SELECT of a four-way cross join in a
DELETE's WHERE, or a function call per row, can keep SQLite busy for hours. The writer only ever
emits

    DELETE FROM t WHERE k IN ('a','b');
    DELETE FROM t WHERE k1 IN (3,4) AND (k1, k2) IN (VALUES (3,0),(4,1));
    UPDATE t SET c = 'X', d = 37.5 WHERE k = 'a';
    INSERT INTO t (k, c, d) VALUES ('a','A',1.5),
    ('b','B',-2.0);

with values such as NULL, -12, 1e-05, X'00ff', CAST(X'00ff' AS TEXT) and
(CAST(4503599627370497 AS REAL)/1024), so nothing else is let through: no SELECT (hence no join
or subquery), no function call, no other keyword, no quoted identifier.
"""
import re

from feedc_limits import UpdateError

# Tried in this order at each position; anything that matches none is refused.
_TOKEN = re.compile(r"""
    (?P<space>[ \t\n\r]+)
  | (?P<comment>--[^\n]*)
  | (?P<string>'[^']*(?:''[^']*)*')
  | (?P<blob>[Xx]'(?:[0-9A-Fa-f]{2})*')
  | (?P<number>[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>[(),=;/-])
  | (?P<other>.)
""", re.VERBOSE | re.DOTALL)

KEYWORDS = frozenset("WHERE AND IN VALUES SET NULL CAST AS TEXT REAL".split())
# Keywords that may come right before "(": the others, and column names, would be function calls.
BEFORE_PARENTHESIS = frozenset("WHERE AND IN VALUES SET CAST".split())
# How each statement begins; "t" stands for a content table.
_PREFIXES = {
    "DELETE": ("DELETE", "FROM", "t", "WHERE"),
    "UPDATE": ("UPDATE", "t", "SET"),
    "INSERT": ("INSERT", "INTO", "t", "("),
}


def _refuse(reason, sql, at):
    line = sql.count("\n", 0, at) + 1
    return UpdateError("the delta's SQL is refused: %s (line %d)" % (reason, line))


def check_delta_sql(sql, tables, ends=None):
    """Raises UpdateError unless every statement of `sql` has the writer's shape; `tables` maps
    each content table's name to the set of its column names. Returns the number of statements.
    One pass over the text, memory independent of its size. `ends`, when given (a list), gets
    the offset just past each statement's `;`, to run the statements one at a time."""
    if "\x00" in sql:
        raise _refuse("a NUL character", sql, sql.index("\x00"))
    count = 0
    prefix, columns, previous = [], None, None
    for match in _TOKEN.finditer(sql):
        kind = match.lastgroup
        if kind == "space" or kind == "comment":
            continue
        text, at = match.group(), match.start()
        if kind == "other":
            raise _refuse("unexpected %r" % text, sql, at)
        if columns is None:
            # The statement's beginning: DELETE FROM t WHERE, UPDATE t SET or INSERT INTO t (.
            prefix.append(text)
            shape = _PREFIXES.get(prefix[0])
            if shape is None:
                raise _refuse("a statement begins with %r" % text[:40], sql, at)
            expected = shape[len(prefix) - 1]
            if expected == "t":
                if kind != "word" or text not in tables:
                    raise _refuse("%r is not a content table" % text[:40], sql, at)
            elif text != expected:
                raise _refuse("%s where %s was expected" % (repr(text[:40]), expected), sql, at)
            if len(prefix) == len(shape):
                columns = tables[prefix[shape.index("t")]]
                prefix, previous = [], (kind, text)
            continue
        if text == ";":
            count += 1
            if ends is not None:
                ends.append(match.end())
            columns, previous = None, None
            continue
        if kind == "word" and text not in KEYWORDS and text not in columns:
            raise _refuse("%r is neither a column of the table nor an allowed keyword" % text[:40], sql, at)
        if text == "(" and previous is not None and previous[0] == "word" \
                and previous[1] not in BEFORE_PARENTHESIS:
            raise _refuse("%r followed by \"(\" (a function call)" % previous[1][:40], sql, at)
        previous = (kind, text)
    if columns is not None or prefix:
        raise _refuse("the last statement does not end with \";\"", sql, len(sql))
    return count
