/// Numbers for texts, in order of first appearance: 0 for the first text seen, 1 for the next
/// new one, and so on. Compilers key their dictionaries by these numbers instead of hashing the
/// same id texts again and again.
public struct Interner {
    private var numbers: [String: Int] = [:]

    /// An empty interner.
    public init() {}

    /// The number of `text`, given it now if it has none yet.
    public subscript(_ text: String) -> Int {
        mutating get {
            if let known = numbers[text] { return known }
            let number = numbers.count
            numbers[text] = number
            return number
        }
    }

    /// How many distinct texts have numbers.
    public var count: Int { numbers.count }
}
