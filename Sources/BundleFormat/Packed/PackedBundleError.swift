/// Why a packed bundle could not be written or installed.
public enum PackedBundleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The packed file is not what docs/packed-bundle.md describes (a download to refuse).
    case corrupt(String)
    /// A local file could not be read or written (the bundle, the packed file, the installed one:
    /// a full disk, permissions), as SQLite reported it.
    case local(path: String, reason: String)

    /// One line for people.
    public var description: String {
        switch self {
        case .corrupt(let reason): "packed bundle: \(reason)"
        case .local(let path, let reason): "\(path): \(reason)"
        }
    }
}
