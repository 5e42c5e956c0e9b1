/// The shell of feedc's self-contained HTML reports (`feedc diff --html`, `feedc validate --html`):
/// the document with its inline style sheet, tables, and escaping. Pages built on it have no
/// script and fetch nothing, so they open offline and can be attached to a CI run.
///
/// Every text given to ``table(_:_:caption:limit:overflowNote:)`` and ``document(title:css:body:)``'s
/// title is escaped here; a caller that writes markup itself escapes feed text with ``escape(_:)``.
package enum HTMLPage {
    /// Text made safe inside HTML and SVG, in element content and in quoted attribute values.
    package static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    /// The style every report shares: type, headings, tables.
    package static let baseCSS = """
        body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1100px; padding: 0 16px; color: #222; background: #fff; }
        h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 28px; border-bottom: 1px solid #ddd; }
        table { border-collapse: collapse; margin: 12px 0; width: 100%; }
        caption { text-align: left; font-weight: 600; padding: 4px 0; }
        th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
        th { background: #f0f0ea; } tbody tr:nth-child(even) { background: #fafaf7; }
        td.more { font-style: italic; color: #555; }
        """

    /// A whole page: `title` is escaped; `css` is added after ``baseCSS``; `body` is markup.
    package static func document(title: String, css: String = "", body: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>
        \(baseCSS)
        \(css)
        </style>
        </head>
        <body>
        \(body)</body>
        </html>

        """
    }

    /// A table of text cells (all escaped), at most `limit` rows, then a row saying how many
    /// more there are (followed by `overflowNote`, such as "(see the JSON)"). `total` is how many
    /// rows there are in all when `rows` holds only some of them. The caption, when given, is
    /// followed by that count. A head of empty cells is left out (a table of names and values).
    package static func table(
        _ head: [String], _ rows: [[String]], caption: String? = nil,
        limit: Int = .max, total: Int? = nil, overflowNote: String = ""
    ) -> String {
        let total = max(total ?? rows.count, rows.count)
        var out = "<table>"
        if let caption { out += "<caption>\(escape(caption)) (\(total))</caption>" }
        if head.contains(where: { !$0.isEmpty }) {
            out += "<thead><tr>" + head.map { "<th>\(escape($0))</th>" }.joined() + "</tr></thead>"
        }
        out += "<tbody>\n"
        for row in rows.prefix(limit) {
            out += "<tr>" + row.map { "<td>\(escape($0))</td>" }.joined() + "</tr>\n"
        }
        let shown = min(rows.count, limit)
        if total > shown {
            let note = overflowNote.isEmpty ? "" : " " + overflowNote
            out += "<tr><td class=\"more\" colspan=\"\(head.count)\">… and \(total - shown) more\(escape(note))</td></tr>\n"
        }
        return out + "</tbody></table>\n"
    }
}
