import Foundation

/// A place's name reduced for matching places across agencies, which name one station in their
/// own ways ("34 St-Herald Sq", "Newark Penn Station", "Dublin-Pleasanton Amtrak Station"):
/// NFKC-normalised and lower case (full-width "Ｍｉｌｌｂｒａｅ" is "millbrae"), words split at
/// anything but letters and digits, street words folded ("Street" →
/// "st", "Square" → "sq", "Pennsylvania" → "penn"), ordinals read as numbers ("23rd" → "23"),
/// and words that name an agency or a kind of station dropped ("station", "amtrak", "metro").
///
/// Two names share a *distinctive* word when they have a word in common that is neither a
/// number, nor a street or direction word, nor shorter than three letters: "Coliseum", "Penn",
/// "Millbrae". Numbers repeat along every avenue ("23 St"), so they never make a place alone.
package struct PlaceNameKey: Sendable, Equatable {
    package let words: Set<String>

    private static let folds: [String: String] = [
        "street": "st", "str": "st", "avenue": "ave", "av": "ave", "square": "sq", "road": "rd", "boulevard": "blvd",
        "pennsylvania": "penn", "avs": "ave", "aves": "ave", "place": "pl", "sts": "st", "center": "ctr", "centre": "ctr", "saint": "st", "mount": "mt",
        "fort": "ft",
        "north": "n", "south": "s", "east": "e", "west": "w", "and": "", "at": "", "the": "", "of": "",
        "station": "", "stn": "", "sta": "", "amtrak": "", "caltrain": "", "bart": "", "metro": "", "metrorail": "",
        "subway": "", "rail": "", "railway": "", "train": "", "transit": "", "terminal": "", "platform": "", "ny": "",
        "nj": "", "ca": "", "dc": "", "md": "", "va": "",
    ]
    /// Words that are not distinctive: street kinds, directions, generic place words.
    private static let generic: Set<String> = [
        "st", "ave", "sq", "rd", "blvd", "ctr", "mt", "ft", "n", "s", "e", "w", "pl", "dr", "ln", "hall", "hwy",
        "city", "park", "plaza", "airport", "downtown", "union", "main", "new", "old", "town", "bay", "hill", "lake",
        "san", "santa", "los", "las", "del", "de", "la", "el", "port",
    ]

    package init(_ name: String) {
        var words: Set<String> = []
        var current = ""
        func flush() {
            defer { current = "" }
            guard !current.isEmpty else { return }
            var word = Self.folds[current] ?? current
            // "23rd", "1st", "42nd", "4th": the number.
            if let first = word.first, first.isNumber, ["st", "nd", "rd", "th"].contains(String(word.suffix(2))),
                word.dropLast(2).allSatisfy(\.isNumber), word.count > 2
            {
                word = String(word.dropLast(2))
            }
            if !word.isEmpty { words.insert(word) }
        }
        for character in name.precomposedStringWithCompatibilityMapping.lowercased() {
            if character.isLetter || character.isNumber { current.append(character) } else { flush() }
        }
        flush()
        self.words = words
    }

    /// The distinctive words both names hold, sorted.
    package func sharedDistinctive(_ other: PlaceNameKey) -> [String] {
        words.intersection(other.words).filter { word in
            word.count >= 3 && !word.allSatisfy(\.isNumber) && !Self.generic.contains(word)
        }.sorted()
    }

    /// Jaccard similarity of the words, 0–1; 0 when either is empty.
    package func similarity(_ other: PlaceNameKey) -> Double {
        guard !words.isEmpty, !other.words.isEmpty else { return 0 }
        return Double(words.intersection(other.words).count) / Double(words.union(other.words).count)
    }
}
