import FeedSQLite

/// SQL literals for delta files: values written so SQLite reads back exactly the same value.
///
/// A REAL is written as the shortest decimal that reads back as the same double in Swift; but
/// SQLite's own text-to-double conversion is not always correctly rounded (SQLite 3.40 reads
/// `47048.965193000004` as the neighbouring double). So each such literal is checked with the
/// writing SQLite, and where it would not read back exactly, the value is written as
/// `(CAST(m AS REAL)/2^k)`: an integer mantissa scaled by a power of two, exact on any SQLite.
struct SQLLiteral {
    private let check: Statement?

    /// `database`: a connection whose SQLite checks how REAL literals read back.
    init(checkingWith database: Database?) {
        check = try? database?.prepare("SELECT CAST(?1 AS REAL)")
    }

    func write(_ value: SQLValue, to out: inout String) {
        switch value {
        case .null: out += "NULL"
        case .integer(let v): out += String(v)
        case .real(let v): writeReal(v, to: &out)
        case .text(let v):
            if v.utf8.contains(0) {
                // A NUL cannot stand in a quoted literal: spell the bytes out.
                out += "CAST(X'" + hexString(v.utf8) + "' AS TEXT)"
            } else if !v.utf8.contains(UInt8(ascii: "'")) {
                out += "'"
                out += v
                out += "'"
            } else {
                // Appended in runs between quotes (split by byte: a quote followed by a combining
                // mark is still doubled), not scalar by scalar.
                out += "'"
                for (n, run) in v.utf8.split(separator: UInt8(ascii: "'"), omittingEmptySubsequences: false).enumerated() {
                    if n > 0 { out += "''" }
                    out += Substring(run)
                }
                out += "'"
            }
        case .blob(let v): out += "X'" + hexString(v) + "'"
        }
    }

    private func writeReal(_ v: Double, to out: inout String) {
        var text = "\(v)"
        // A whole number gets ".0" so SQLite keeps it REAL.
        if !text.contains(".") && !text.contains("e") && !text.contains("n") && !text.contains("i") { text += ".0" }
        if readsBackExactly(text, v) || !v.isFinite || v == 0 {
            out += text
            return
        }
        // v = m / 2^k with m an integer of at most 53 bits: both conversions and the division by
        // a power of two are exact.
        var m = Int64(v.significand * 4_503_599_627_370_496)  // |significand| × 2^52
        if v.sign == .minus { m = -m }
        var k = 52 - Int(v.exponent)
        while k < 0 && abs(m) < (1 << 61) {
            m <<= 1
            k += 1
        }
        guard k >= 0 else {
            out += text
            return
        }
        out += "(CAST(\(m) AS REAL)"
        while k > 62 {
            out += "/4611686018427387904"
            k -= 62
        }
        out += "/\(Int64(1) << k))"
    }

    private func readsBackExactly(_ text: String, _ v: Double) -> Bool {
        guard let check else { return false }
        guard (try? check.bind([.text(text)])) != nil, (try? check.step()) == true,
            case .real(let back) = check.value(at: 0)
        else { return false }
        return back.bitPattern == v.bitPattern
    }
}
