/// Why a source's dump could not be fetched. The previous cached dump and everything published
/// stay as they were.
public enum FetchError: Error, Sendable, CustomStringConvertible {
    case http(url: String, status: Int)
    case network(url: String, reason: String)
    case io(path: String, reason: String)

    /// The location and the reason, in one line.
    public var description: String {
        switch self {
        case .http(let url, let status): "\(url): the server answered HTTP \(status)"
        case .network(let url, let reason): "\(url): download failed (\(reason))"
        case .io(let path, let reason): "\(path): \(reason)"
        }
    }
}
