package org.feedc.client.live;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/// The live answers as JSON text (docs/live.md, section 6): objects are `Map`s whose keys keep
/// their order (`LinkedHashMap`), arrays `List`s, numbers `Long`, `Integer` or `Double` (written
/// without an exponent: `0.0001`, never `1.0E-4`), strings (UTF-8, `"` `\` and control characters
/// escaped), `Boolean`, and null.
public final class LiveJson {
    private LiveJson() {
    }

    /// `value` as one line of JSON.
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    /// `text` as a JSON string.
    public static String quote(String text) {
        StringBuilder out = new StringBuilder();
        quote(text, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String) {
            quote((String) value, out);
        } else if (value instanceof Boolean || value instanceof Long || value instanceof Integer) {
            out.append(value);
        } else if (value instanceof Double) {
            out.append(number((Double) value));
        } else if (value instanceof Map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
                if (!first) {
                    out.append(", ");
                }
                first = false;
                quote(String.valueOf(entry.getKey()), out);
                out.append(": ");
                write(entry.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof List) {
            out.append('[');
            boolean first = true;
            for (Object item : (List<?>) value) {
                if (!first) {
                    out.append(", ");
                }
                first = false;
                write(item, out);
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("no JSON for " + value.getClass().getName());
        }
    }

    private static String number(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "null";
        }
        double magnitude = Math.abs(value);
        if (magnitude == 0 || (magnitude >= 1e-3 && magnitude < 1e7)) {
            return Double.toString(value);
        }
        String plain = new BigDecimal(Double.toString(value)).toPlainString();
        return plain.contains(".") ? plain : plain + ".0";
    }

    private static void quote(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }
}
