/// How a direction's name and headsign summary are worded from its place names, once for the
/// directions stage and for the same texts in other languages (the words themselves stay
/// feedc's English: "to", "loop from").
package enum DirectionWording {
    /// "to <first terminal>".
    package static func name(toward terminals: [String]) -> String { "to \(terminals.first ?? "")" }

    /// "to <terminal> / <terminal>", each name once.
    package static func headsign(toward terminals: [String]) -> String {
        var seen: Set<String> = []
        return "to " + terminals.filter { seen.insert($0).inserted }.joined(separator: " / ")
    }

    /// "loop from <stop>".
    package static func loop(from start: String) -> String { "loop from \(start)" }
}
