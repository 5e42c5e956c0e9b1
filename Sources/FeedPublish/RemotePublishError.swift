/// Why publishing to object storage failed. Messages never hold credentials: they are built
/// from status codes, S3 error codes and messages, and keys, then scrubbed (`Redactor`).
public struct RemotePublishError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for the report's `error_kind`.
    public enum Kind: String, Sendable, Codable {
        /// Missing or malformed settings (environment, target).
        case configuration
        /// A request failed after its retries.
        case request
        /// The store holds other content under a name this publication needs.
        case conflict
        /// Another publisher got there first: the live manifest is not the one this run started from.
        case lostRace = "lost_race"
        /// The local output folder is behind (or diverged from) the live manifest.
        case behind
        /// An uploaded file does not read back with the size and checksum sent.
        case verification
        /// The local output folder cannot be read or written.
        case local
    }

    /// What went wrong.
    public var kind: Kind
    /// The failure in words, scrubbed of credentials.
    public var message: String

    /// An error of `kind`; `message` must already be scrubbed.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }

    static func configuration(_ message: String) -> Self { Self(kind: .configuration, message: message) }
    static func request(_ message: String) -> Self { Self(kind: .request, message: message) }
    static func conflict(_ message: String) -> Self { Self(kind: .conflict, message: message) }
    static func lostRace(_ message: String) -> Self { Self(kind: .lostRace, message: message) }
    static func behind(_ message: String) -> Self { Self(kind: .behind, message: message) }
    static func verification(_ message: String) -> Self { Self(kind: .verification, message: message) }
    static func local(_ message: String) -> Self { Self(kind: .local, message: message) }

    func redacted(_ redactor: Redactor) -> Self { Self(kind: kind, message: redactor.scrub(message)) }
}
