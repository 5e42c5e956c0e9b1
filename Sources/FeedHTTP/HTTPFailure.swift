import Foundation

/// Why an ``HTTPTransfer`` ended without a whole response. Each caller words it for its users
/// (the client as a `ClientError`, the build's fetch as a `FetchError`).
package enum HTTPFailure: Error, Sendable, Equatable {
    /// The caller's task was cancelled.
    case cancelled
    /// The file the body goes to cannot be written (a full disk): `reason` in the system's words.
    case local(path: String, reason: String)
    /// More than `maxBytes` arrived, or the server declared more (`declared`, its
    /// `Content-Length`) and nothing was read.
    case overLimit(maxBytes: Int, declared: Int?)
    /// A redirect the policy does not follow (off the request's server, or more than 5).
    case refused(String)
    /// No byte for the idle timeout (`idle`), or not done by the overall deadline; `seconds` is
    /// the bound that ended it.
    case timedOut(seconds: TimeInterval, idle: Bool)
    /// The connection failed or was cut (a body shorter than its `Content-Length` included).
    case network(String)

    /// Whether the same request may succeed later: the network's trouble (a connection refused,
    /// cut or silent). Not a cancellation, a file that cannot be written, a limit or a refused
    /// redirect, which the same request meets again.
    package var isTransient: Bool {
        switch self {
        case .network, .timedOut: true
        case .cancelled, .local, .overLimit, .refused: false
        }
    }

    /// The words of a timeout, as both clients write them.
    package static func timeoutWords(seconds: TimeInterval, idle: Bool) -> String {
        "timed out after \(String(format: "%.0f", seconds)) s" + (idle ? " without data" : "")
    }
}

/// A response's status and head fields (by lower-case name); the body is in memory only for a
/// ``TransferSink`` without a file.
package struct HTTPResponse: Sendable {
    /// The status code.
    package var status: Int
    /// Head fields by lower-case name.
    package var headers: [String: String]
    /// The body, when the sink kept it in memory (empty otherwise).
    package var body: Data
}
