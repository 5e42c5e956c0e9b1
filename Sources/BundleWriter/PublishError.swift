/// Why publication into the output folder failed. Nothing already published is changed when
/// one of these is thrown before the manifest is replaced.
package enum PublishError: Error, Sendable, CustomStringConvertible {
    case locked(path: String)
    case io(path: String, reason: String)
    case corruptManifest(path: String, reason: String)

    package var description: String {
        switch self {
        case .locked(let path): "\(path): another build holds the lock on this output folder"
        case .io(let path, let reason): "\(path): \(reason)"
        case .corruptManifest(let path, let reason): "\(path): unreadable manifest (\(reason)); refusing to overwrite it"
        }
    }
}
