/// Stop names, codes and rider text folded into search words: the writer fills `stop_tokens`
/// with them, and every client folds the rider's text the same way before `stops_named`.
///
/// Folding (docs/bundle-format.md states it for other platforms): lower case (full Unicode
/// mapping, and final sigma `ς` read as `σ`), then compatibility decomposition (NFKD), then
/// nonspacing marks (category Mn: accents) dropped; `&` is the word "and"; words are runs of
/// letters, marks and digits (categories L, M, N), everything else separates them. So "Café &
/// Bäckerei-Nord" gives `cafe and backerei nord`; a name in a script without spaces ("甲府駅")
/// is one word.
public enum SearchText {
    /// The folded words of `text`, in order.
    public static func words(_ text: String) -> [String] {
        let folded = text.lowercased().decomposedStringWithCompatibilityMapping
        var words: [String] = []
        var current = String.UnicodeScalarView()
        func flush() {
            if !current.isEmpty { words.append(String(current)) }
            current = String.UnicodeScalarView()
        }
        for scalar in folded.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark:
                continue
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
                current.append(scalar == "ς" ? "σ" : scalar)
            default:
                flush()
                if scalar == "&" { words.append("and") }
            }
        }
        flush()
        return words
    }

    /// The `:query` parameter of `stops_named`: the folded words joined by single spaces. Empty
    /// (for an empty or punctuation-only text, or "&" with nothing but "and" beside it) means no
    /// results: run no query. A typed "and" alone stays: it finds names starting with it
    /// ("Anderson").
    public static func query(_ text: String) -> String {
        let words = words(text)
        if text.contains("&") && words.allSatisfy({ $0 == "and" }) { return "" }
        return words.joined(separator: " ")
    }

    /// The `:match` parameter of `stops_named_fts5` (bundles with the optional FTS5 index): each
    /// folded word as a quoted prefix, `"college"* "broadway"*`, so no rider text is read as FTS5
    /// syntax. Empty when the text folds to nothing: run no query.
    public static func fts5Match(_ text: String) -> String {
        words(text).map { "\"\($0)\"*" }.joined(separator: " ")
    }

    /// What the writer indexes for one stop name or code: each folded word, plus the other forms
    /// of a street word ("st" also as "street", "avenue" also as "ave"), so either form in a
    /// query finds the stop.
    public static func indexTokens(_ text: String) -> Set<String> {
        var tokens: Set<String> = []
        for word in words(text) {
            tokens.insert(word)
            if let group = aliasGroup[word] { tokens.formUnion(group) }
        }
        return tokens
    }

    /// Street words that mean the same; each finds the others.
    static let aliases: [[String]] = [
        ["street", "st", "str", "saint"], ["avenue", "ave", "av"], ["road", "rd"], ["boulevard", "blvd"],
        ["drive", "dr"], ["lane", "ln"], ["place", "pl"], ["square", "sq"], ["station", "stn", "sta"],
        ["north", "n"], ["south", "s"], ["east", "e"], ["west", "w"], ["center", "centre", "ctr"],
        ["highway", "hwy"], ["parkway", "pkwy"], ["court", "ct"], ["mount", "mt"], ["fort", "ft"],
        ["junction", "jct"], ["terrace", "ter"], ["heights", "hts"], ["plaza", "plz"],
    ]

    private static let aliasGroup: [String: [String]] = {
        var map: [String: [String]] = [:]
        for group in aliases { for word in group { map[word, default: []] += group.filter { $0 != word } } }
        return map
    }()
}
