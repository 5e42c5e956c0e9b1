/// How a packed column codes its present values (docs/packed-bundle.md, "A column's bytes").
enum PackedEncoding: Equatable, Sendable {
    /// `i`: INTEGERs, each the zigzag varint of its difference to the previous one.
    case integers
    /// `r0` … `r9`: REALs that are each an integer divided by 10^k, the integers coded as `i`.
    case scaled(Int)
    /// `f`: REALs, 8 bytes each.
    case reals
    /// `t`: TEXT, each followed by a 0x00 byte.
    case texts
    /// `k`: a row position in an earlier table's column, coded as `i`.
    case reference
    /// `v`: any type, each value behind a tag byte.
    case tagged

    /// The largest scale: 10^9 and smaller powers of ten are exact doubles.
    static let largestScale = 9
    /// 10^0 … 10^9 as doubles (exact).
    static let powersOfTen: [Double] = (0...largestScale).map { k in (0..<k).reduce(1.0) { p, _ in p * 10 } }
    /// The largest integer a scaled REAL codes: beyond 2^53 a double is no longer exact.
    static let largestScaled: Int64 = 1 << 53

    /// The encoding named `name` in a packed file; nil for a name this reader does not know.
    init?(name: String) {
        switch name {
        case "i": self = .integers
        case "f": self = .reals
        case "t": self = .texts
        case "k": self = .reference
        case "v": self = .tagged
        default:
            guard name.utf8.count == 2, name.first == "r", let k = Int(name.dropFirst()), (0...Self.largestScale).contains(k) else {
                return nil
            }
            self = .scaled(k)
        }
    }

    /// The name written in `packed_columns.encoding`.
    var name: String {
        switch self {
        case .integers: "i"
        case .scaled(let k): "r\(k)"
        case .reals: "f"
        case .texts: "t"
        case .reference: "k"
        case .tagged: "v"
        }
    }

    /// The integer `value` is `n` / 10^k for, when it is exactly that; else nil.
    static func scaledInteger(_ value: Double, scale k: Int) -> Int64? {
        let product = (value * powersOfTen[k]).rounded()
        guard abs(product) <= Double(largestScaled) else { return nil }
        let n = Int64(product)
        return (Double(n) / powersOfTen[k]).bitPattern == value.bitPattern ? n : nil
    }
}
