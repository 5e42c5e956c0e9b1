package org.feedc.client;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/// A strict JSON reader for manifest.json, reading it as Python's `json.loads` with the duplicate
/// check of the reference client does: objects as `Map<String, Object>` (a key twice in one
/// object, at any level, is refused), arrays as `List<Object>`, integers (no fraction, no
/// exponent) as `BigInteger`, other numbers as `Double` (`NaN` and `Infinity` too, as Python
/// reads them), strings, `Boolean`, and `Json.NULL`.
public final class Json {
    /// JSON's `null`.
    public static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    private static final int MAX_DEPTH = 900;

    private final String text;
    private int at;
    private int depth;

    private Json(String text) {
        this.text = text;
    }

    /// The value `text` holds; IllegalArgumentException (with Python's words where it has them)
    /// when it is not exactly one JSON value.
    public static Object parse(String text) {
        Json reader = new Json(text);
        reader.space();
        Object value = reader.value();
        reader.space();
        if (reader.at != text.length()) {
            throw reader.error("Extra data");
        }
        return value;
    }

    private IllegalArgumentException error(String what) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < at && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new IllegalArgumentException(
                String.format("%s: line %d column %d (char %d)", what, line, at - lineStart + 1, at));
    }

    private void space() {
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            at++;
        }
    }

    private boolean literal(String word) {
        if (text.startsWith(word, at)) {
            at += word.length();
            return true;
        }
        return false;
    }

    private Object value() {
        if (at >= text.length()) {
            throw error("Expecting value");
        }
        char c = text.charAt(at);
        if (c == '{' || c == '[') {
            if (++depth > MAX_DEPTH) {
                throw new IllegalArgumentException("maximum recursion depth exceeded while decoding a JSON document");
            }
            Object nested = c == '{' ? object() : array();
            depth--;
            return nested;
        }
        if (c == '"') {
            return string();
        }
        if (literal("null")) {
            return NULL;
        }
        if (literal("true")) {
            return Boolean.TRUE;
        }
        if (literal("false")) {
            return Boolean.FALSE;
        }
        if (literal("NaN")) {
            return Double.NaN;
        }
        if (literal("Infinity")) {
            return Double.POSITIVE_INFINITY;
        }
        if (literal("-Infinity")) {
            return Double.NEGATIVE_INFINITY;
        }
        return number();
    }

    private Object number() {
        int start = at;
        if (at < text.length() && text.charAt(at) == '-') {
            at++;
        }
        int digits = at;
        if (at < text.length() && text.charAt(at) == '0') {
            at++;
        } else {
            skipDigits();
        }
        if (at == digits) {
            at = start;
            throw error("Expecting value");
        }
        boolean integer = true;
        if (at + 1 < text.length() && text.charAt(at) == '.' && isDigit(text.charAt(at + 1))) {
            at++;
            skipDigits();
            integer = false;
        }
        if (at < text.length() && (text.charAt(at) == 'e' || text.charAt(at) == 'E')) {
            int mark = at++;
            if (at < text.length() && (text.charAt(at) == '+' || text.charAt(at) == '-')) {
                at++;
            }
            int exponent = at;
            skipDigits();
            if (at == exponent) {
                at = mark;  // not an exponent: the number ends before the `e`
            } else {
                integer = false;
            }
        }
        String number = text.substring(start, at);
        return integer ? new BigInteger(number) : (Object) Double.parseDouble(number);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private void skipDigits() {
        while (at < text.length() && isDigit(text.charAt(at))) {
            at++;
        }
    }

    private String string() {
        int start = at++;
        StringBuilder out = new StringBuilder();
        while (true) {
            if (at >= text.length()) {
                at = start;
                throw error("Unterminated string starting at");
            }
            char c = text.charAt(at);
            if (c == '"') {
                at++;
                return out.toString();
            }
            if (c < 0x20) {
                throw error("Invalid control character at");
            }
            if (c != '\\') {
                out.append(c);
                at++;
                continue;
            }
            if (at + 1 >= text.length()) {
                at = start;
                throw error("Unterminated string starting at");
            }
            char escape = text.charAt(at + 1);
            switch (escape) {
                case '"': out.append('"'); break;
                case '\\': out.append('\\'); break;
                case '/': out.append('/'); break;
                case 'b': out.append('\b'); break;
                case 'f': out.append('\f'); break;
                case 'n': out.append('\n'); break;
                case 'r': out.append('\r'); break;
                case 't': out.append('\t'); break;
                case 'u':
                    if (at + 6 > text.length() || !text.substring(at + 2, at + 6).matches("[0-9a-fA-F]{4}")) {
                        at++;
                        throw error("Invalid \\uXXXX escape");
                    }
                    out.append((char) Integer.parseInt(text.substring(at + 2, at + 6), 16));
                    at += 4;
                    break;
                default:
                    throw error("Invalid \\escape");
            }
            at += 2;
        }
    }

    private List<Object> array() {
        at++;
        List<Object> items = new ArrayList<>();
        space();
        if (at < text.length() && text.charAt(at) == ']') {
            at++;
            return items;
        }
        while (true) {
            space();
            items.add(value());
            space();
            if (at < text.length() && text.charAt(at) == ']') {
                at++;
                return items;
            }
            if (at >= text.length() || text.charAt(at) != ',') {
                throw error("Expecting ',' delimiter");
            }
            at++;
        }
    }

    private Map<String, Object> object() {
        at++;
        List<String> keys = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        space();
        if (at < text.length() && text.charAt(at) == '}') {
            at++;
            return pairs(keys, values);
        }
        while (true) {
            space();
            if (at >= text.length() || text.charAt(at) != '"') {
                throw error("Expecting property name enclosed in double quotes");
            }
            keys.add(string());
            space();
            if (at >= text.length() || text.charAt(at) != ':') {
                throw error("Expecting ':' delimiter");
            }
            at++;
            space();
            values.add(value());
            space();
            if (at < text.length() && text.charAt(at) == '}') {
                at++;
                return pairs(keys, values);
            }
            if (at >= text.length() || text.charAt(at) != ',') {
                throw error("Expecting ',' delimiter");
            }
            at++;
        }
    }

    /// The object of these pairs, once it is read whole (as Python's `object_pairs_hook`: an
    /// inner object's repeated key is found before its outer object's).
    private static Map<String, Object> pairs(List<String> keys, List<Object> values) {
        Map<String, Object> result = new LinkedHashMap<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < keys.size(); i++) {
            if (!seen.add(keys.get(i))) {
                throw new IllegalArgumentException("the key `" + keys.get(i) + "` occurs twice in one object");
            }
            result.put(keys.get(i), values.get(i));
        }
        return result;
    }
}
