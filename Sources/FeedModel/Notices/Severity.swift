/// How serious a notice is, as MobilityData's gtfs-validator grades it.
///
/// Severity says what the problem *is*; whether it stops publication is a separate
/// matter, decided by ``Notice/blocksPublication`` and the bundle's strictness.
public enum Severity: String, Codable, Sendable, Comparable, CaseIterable {
    case info
    case warning
    case error

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }

    /// info < warning < error.
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}
