package org.feedc.client;

import java.math.BigDecimal;
import java.math.RoundingMode;

/// Text as the Python reference client writes it in its messages (`%r`, `%.0f`, its one-line
/// escaping), so that both clients word an error alike.
public final class PyText {
    private PyText() {
    }

    /// Python's `str.isprintable` for one code point: not a control, format, surrogate, private,
    /// unassigned or separator character (the ASCII space excepted).
    static boolean isPrintable(int codePoint) {
        if (codePoint == ' ') {
            return true;
        }
        switch (Character.getType(codePoint)) {
            case Character.CONTROL:
            case Character.FORMAT:
            case Character.SURROGATE:
            case Character.PRIVATE_USE:
            case Character.UNASSIGNED:
            case Character.LINE_SEPARATOR:
            case Character.PARAGRAPH_SEPARATOR:
            case Character.SPACE_SEPARATOR:
                return false;
            default:
                return true;
        }
    }

    /// A code point escaped as Python's `ascii()` escapes it: `\n`, `\x1b`, `\u2028`, `\U0001f600`.
    private static String escaped(int codePoint) {
        switch (codePoint) {
            case '\t':
                return "\\t";
            case '\n':
                return "\\n";
            case '\r':
                return "\\r";
            default:
                if (codePoint < 0x100) {
                    return String.format("\\x%02x", codePoint);
                }
                if (codePoint < 0x10000) {
                    return String.format("\\u%04x", codePoint);
                }
                return String.format("\\U%08x", codePoint);
        }
    }

    /// `text` with non-printable characters escaped: one line, whatever a server sent.
    public static String oneLine(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            if (isPrintable(c)) {
                out.appendCodePoint(c);
            } else {
                out.append(escaped(c));
            }
        });
        return out.toString();
    }

    /// Python's `repr` of a string: `'abc'`, `"it's"`, `'a\nb'`.
    public static String repr(String text) {
        char quote = text.indexOf('\'') >= 0 && text.indexOf('"') < 0 ? '"' : '\'';
        StringBuilder out = new StringBuilder().append(quote);
        text.codePoints().forEach(c -> {
            if (c == '\\' || c == quote) {
                out.append('\\').appendCodePoint(c);
            } else if (isPrintable(c)) {
                out.appendCodePoint(c);
            } else {
                out.append(escaped(c));
            }
        });
        return out.append(quote).toString();
    }

    /// Python's `repr` of bytes: `b'a\x00b'`.
    public static String repr(byte[] bytes) {
        boolean single = false;
        boolean dbl = false;
        for (byte b : bytes) {
            single |= b == '\'';
            dbl |= b == '"';
        }
        char quote = single && !dbl ? '"' : '\'';
        StringBuilder out = new StringBuilder("b").append(quote);
        for (byte b : bytes) {
            int c = b & 0xff;
            if (c == '\\' || c == quote) {
                out.append('\\').append((char) c);
            } else if (c == '\t' || c == '\n' || c == '\r') {
                out.append(escaped(c));
            } else if (c >= 0x20 && c < 0x7f) {
                out.append((char) c);
            } else {
                out.append(String.format("\\x%02x", c));
            }
        }
        return out.append(quote).toString();
    }

    /// Python's `repr` of a float: `2.0`, `1e+16`, `1.5e-05`, `inf`, `nan`.
    public static String repr(double value) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        if (value == 0) {
            return 1 / value < 0 ? "-0.0" : "0.0";
        }
        BigDecimal exact = new BigDecimal(Double.toString(Math.abs(value))).stripTrailingZeros();
        String digits = exact.unscaledValue().toString();
        int exponent = digits.length() - 1 - exact.scale();  // of the first digit
        String sign = value < 0 ? "-" : "";
        if (exponent < -4 || exponent >= 16) {
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            return String.format("%s%se%s%02d", sign, mantissa, exponent < 0 ? "-" : "+", Math.abs(exponent));
        }
        String plain = exact.toPlainString();
        return sign + (plain.contains(".") ? plain : plain + ".0");
    }

    /// Python's `"%.0f" % value`: rounded half to even from the exact binary value.
    public static String format0(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return repr(value);
        }
        return new BigDecimal(value).setScale(0, RoundingMode.HALF_EVEN).toPlainString();
    }
}
