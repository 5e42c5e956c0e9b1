package org.feedc.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/// The shape check of a delta's SQL (docs/update-protocol.md, "The statement check"), token for
/// token the Python client's feedc_delta_check.py, with its words: before a delta runs, every
/// statement must look like what the feedc writer emits, or the whole delta is refused (and
/// the client takes the full bundle). No `SELECT` (hence no join or subquery), no function
/// call, no keyword but the writer's, no quoted identifier.
///
/// Tokens, tried in this order at each position: white space (space, tab, LF, CR), a `--`
/// comment to the end of the line, a string `'…'` (`''` inside), a blob `X'…'` of an even
/// number of hex digits, a number `digits[.digits][e[+-]digits]`, a word
/// `[A-Za-z_][A-Za-z0-9_]*`, punctuation `( ) , = ; / -`; any other character refuses it.
public final class DeltaStatementCheck {
    /// Words a statement may hold besides its table's columns, exactly as written.
    public static final Set<String> KEYWORDS = Set.of("WHERE", "AND", "IN", "VALUES", "SET", "NULL", "CAST", "AS", "TEXT", "REAL");
    /// Keywords that may come right before "(": the others, and column names, would be calls.
    public static final Set<String> BEFORE_PARENTHESIS = Set.of("WHERE", "AND", "IN", "VALUES", "SET", "CAST");

    private enum Kind { SPACE, COMMENT, STRING, BLOB, NUMBER, WORD, PUNCT, OTHER }

    private final String sql;
    private int at;

    private DeltaStatementCheck(String sql) {
        this.sql = sql;
    }

    private static UpdateException refuse(String reason, String sql, int at) {
        int line = 1;
        for (int i = 0; i < at && i < sql.length(); i++) {
            if (sql.charAt(i) == '\n') {
                line++;
            }
        }
        return new UpdateException("the delta's SQL is refused: " + reason + " (line " + line + ")");
    }

    /// UpdateException unless every statement of `sql` has the writer's shape; `tables` maps
    /// each content table to its column names. Returns the statements, each from its first
    /// token to its `;`, to run one by one.
    public static List<String> check(String sql, Map<String, Set<String>> tables) throws UpdateException {
        int nul = sql.indexOf('\0');
        if (nul >= 0) {
            throw refuse("a NUL character", sql, nul);
        }
        return new DeltaStatementCheck(sql).statements(tables);
    }

    private List<String> statements(Map<String, Set<String>> tables) throws UpdateException {
        List<String> statements = new ArrayList<>();
        List<String> prefix = new ArrayList<>();
        Set<String> columns = null;
        Kind previousKind = null;
        String previous = null;
        int begin = 0;
        while (at < sql.length()) {
            int start = at;
            Kind kind = token();
            if (kind == Kind.SPACE || kind == Kind.COMMENT) {
                continue;
            }
            String text = sql.substring(start, at);
            if (kind == Kind.OTHER) {
                throw refuse("unexpected " + PyText.repr(text), sql, start);
            }
            if (columns == null) {
                // The statement's beginning: DELETE FROM t WHERE, UPDATE t SET or INSERT INTO t (.
                if (prefix.isEmpty()) {
                    begin = start;
                }
                prefix.add(text);
                String[] shape = shape(prefix.get(0));
                if (shape == null) {
                    throw refuse("a statement begins with " + PyText.repr(cut(text)), sql, start);
                }
                String expected = shape[prefix.size() - 1];
                if (expected.equals("t")) {
                    if (kind != Kind.WORD || !tables.containsKey(text)) {
                        throw refuse(PyText.repr(cut(text)) + " is not a content table", sql, start);
                    }
                } else if (!text.equals(expected)) {
                    throw refuse(PyText.repr(cut(text)) + " where " + expected + " was expected", sql, start);
                }
                if (prefix.size() == shape.length) {
                    columns = tables.get(prefix.get(shape[1].equals("t") ? 1 : 2));
                    prefix.clear();
                    previousKind = kind;
                    previous = text;
                }
                continue;
            }
            if (text.equals(";")) {
                statements.add(sql.substring(begin, at));
                columns = null;
                previous = null;
                previousKind = null;
                continue;
            }
            if (kind == Kind.WORD && !KEYWORDS.contains(text) && !columns.contains(text)) {
                throw refuse(PyText.repr(cut(text)) + " is neither a column of the table nor an allowed keyword", sql, start);
            }
            if (text.equals("(") && previousKind == Kind.WORD && !BEFORE_PARENTHESIS.contains(previous)) {
                throw refuse(PyText.repr(cut(previous)) + " followed by \"(\" (a function call)", sql, start);
            }
            previousKind = kind;
            previous = text;
        }
        if (columns != null || !prefix.isEmpty()) {
            throw refuse("the last statement does not end with \";\"", sql, sql.length());
        }
        return statements;
    }

    /// How a statement beginning with `first` goes on; "t" stands for a content table.
    private static String[] shape(String first) {
        switch (first) {
            case "DELETE":
                return new String[] {"DELETE", "FROM", "t", "WHERE"};
            case "UPDATE":
                return new String[] {"UPDATE", "t", "SET"};
            case "INSERT":
                return new String[] {"INSERT", "INTO", "t", "("};
            default:
                return null;
        }
    }

    /// At most the first 40 characters (code points) of `text`, as the messages show it.
    private static String cut(String text) {
        return text.codePointCount(0, text.length()) <= 40 ? text : text.substring(0, text.offsetByCodePoints(0, 40));
    }

    private char charAt(int i) {
        return i < sql.length() ? sql.charAt(i) : '\uffff';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHex(char c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static boolean isWordStart(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    }

    /// The kind of the token at `at`, moving `at` past it (the first alternative of the Python
    /// tokenizer's regular expression that matches).
    private Kind token() {
        char c = sql.charAt(at);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            while (at < sql.length() && " \t\n\r".indexOf(sql.charAt(at)) >= 0) {
                at++;
            }
            return Kind.SPACE;
        }
        if (c == '-' && charAt(at + 1) == '-') {
            int end = sql.indexOf('\n', at);
            at = end < 0 ? sql.length() : end;
            return Kind.COMMENT;
        }
        if (c == '\'') {
            int end = stringEnd(at);
            if (end > 0) {
                at = end;
                return Kind.STRING;
            }
        }
        if ((c == 'X' || c == 'x') && charAt(at + 1) == '\'') {
            int hex = at + 2;
            while (isHex(charAt(hex))) {
                hex++;
            }
            if ((hex - at - 2) % 2 == 0 && charAt(hex) == '\'') {
                at = hex + 1;
                return Kind.BLOB;
            }
        }
        if (isDigit(c)) {
            while (isDigit(charAt(at))) {
                at++;
            }
            if (charAt(at) == '.' && isDigit(charAt(at + 1))) {
                at++;
                while (isDigit(charAt(at))) {
                    at++;
                }
            }
            int sign = (charAt(at + 1) == '+' || charAt(at + 1) == '-') ? 1 : 0;
            if ((charAt(at) == 'e' || charAt(at) == 'E') && isDigit(charAt(at + 1 + sign))) {
                at += 1 + sign;
                while (isDigit(charAt(at))) {
                    at++;
                }
            }
            return Kind.NUMBER;
        }
        if (isWordStart(c)) {
            while (isWordStart(charAt(at)) || isDigit(charAt(at))) {
                at++;
            }
            return Kind.WORD;
        }
        if ("(),=;/-".indexOf(c) >= 0) {
            at++;
            return Kind.PUNCT;
        }
        at += Character.charCount(sql.codePointAt(at));
        return Kind.OTHER;
    }

    /// The end (past the closing quote) of the string starting at `start`, as the pattern
    /// `'[^']*(?:''[^']*)*'` matches it; -1 when none matches. Unclosed, the pattern backs off to
    /// the first quote of the last `''` pair.
    private int stringEnd(int start) {
        int i = start + 1;
        int lastPair = -1;
        while (true) {
            int quote = sql.indexOf('\'', i);
            if (quote < 0) {
                return lastPair < 0 ? -1 : lastPair + 1;
            }
            if (charAt(quote + 1) != '\'') {
                return quote + 1;
            }
            lastPair = quote;
            i = quote + 2;
        }
    }
}
