/// An unordered pair of stop ids: (a, b) and (b, a) are one key. Opposite stops and shared
/// places are both links that hold both ways.
struct UnorderedPair: Hashable {
    let first: String
    let second: String

    init(_ a: String, _ b: String) {
        (first, second) = a < b ? (a, b) : (b, a)
    }
}
