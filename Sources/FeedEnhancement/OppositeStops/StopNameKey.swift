import Foundation

/// Stop names reduced to comparable words: NFKC-normalised, lower case, "&" and "/" read as "and", common street
/// abbreviations folded ("Av", "Avenue" → "ave"), bay and platform letters dropped, word order
/// ignored. "College Ave & Broadway" and "College Ave and Broadway" compare equal, and so do
/// "Shattuck Av / 40th St" and "40th St & Shattuck Ave".
struct StopNameKey {
    let words: Set<String>

    private static let folds: [String: String] = [
        "avenue": "ave", "av": "ave", "street": "st", "str": "st", "road": "rd", "boulevard": "blvd",
        "drive": "dr", "lane": "ln", "place": "pl", "square": "sq", "station": "stn", "north": "n", "south": "s",
        "east": "e", "west": "w", "northbound": "", "southbound": "", "eastbound": "", "westbound": "",
        "nb": "", "sb": "", "eb": "", "wb": "", "ib": "", "ob": "", "inbound": "", "outbound": "",
        "and": "", "at": "", "the": "", "bay": "", "platform": "", "stand": "", "gate": "", "track": "",
    ]

    init(_ name: String) {
        var words: Set<String> = []
        var current = ""
        func flush() {
            defer { current = "" }
            guard !current.isEmpty else { return }
            let folded = Self.folds[current] ?? current
            // Single letters and bare numbers are bay or platform marks ("Bay C", "Platform 2").
            if folded.isEmpty || (folded.count == 1 && !folded.first!.isNumber) || folded.allSatisfy(\.isNumber) && folded.count <= 2 { return }
            words.insert(folded)
        }
        for character in name.precomposedStringWithCompatibilityMapping.lowercased() {
            if character.isLetter || character.isNumber { current.append(character) } else { flush() }
        }
        flush()
        self.words = words
    }

    /// Jaccard similarity of the words, 0–1; 0 when either name is empty.
    func similarity(_ other: StopNameKey) -> Double {
        guard !words.isEmpty, !other.words.isEmpty else { return 0 }
        return Double(words.intersection(other.words).count) / Double(words.union(other.words).count)
    }
}
