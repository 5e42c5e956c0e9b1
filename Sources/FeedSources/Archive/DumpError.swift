/// Why a dump could not be opened or read at all.
package enum DumpError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No file or folder at the path.
    case notFound(path: String)
    /// The archive is not a readable zip (truncated, corrupt, not a zip).
    case unreadableArchive(path: String, reason: String)
    /// One member of the archive could not be extracted.
    case unreadableEntry(path: String, entry: String, reason: String)

    package var description: String {
        switch self {
        case .notFound(let path): "\(path): no such file or folder"
        case .unreadableArchive(let path, let reason): "\(path): not a readable zip archive (\(reason))"
        case .unreadableEntry(let path, let entry, let reason): "\(path): cannot read \(entry) (\(reason))"
        }
    }
}
