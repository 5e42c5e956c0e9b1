import FeedSQLite

/// SQL literals for delta files: values written so SQLite reads back exactly the same value.
enum SQLLiteral {
    static func write(_ value: SQLValue, to out: inout String) {
        switch value {
        case .null: out += "NULL"
        case .integer(let v): out += String(v)
        case .real(let v):
            // Swift prints the shortest text that reads back as the same double; a whole number
            // gets ".0" so SQLite keeps it REAL.
            var text = "\(v)"
            if !text.contains(".") && !text.contains("e") && !text.contains("n") && !text.contains("i") { text += ".0" }
            out += text
        case .text(let v):
            if v.utf8.contains(0) {
                // A NUL cannot stand in a quoted literal: spell the bytes out.
                out += "CAST(X'" + v.utf8.map { String($0, radix: 16).leftPad2 }.joined() + "' AS TEXT)"
            } else {
                out += "'"
                for character in v.unicodeScalars {
                    if character == "'" { out += "''" } else { out.unicodeScalars.append(character) }
                }
                out += "'"
            }
        case .blob(let v): out += "X'" + v.map { String($0, radix: 16).leftPad2 }.joined() + "'"
        }
    }
}

extension String {
    var leftPad2: String { count == 1 ? "0" + self : self }
}
