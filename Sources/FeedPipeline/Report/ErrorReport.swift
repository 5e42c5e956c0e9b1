import FeedModel
import Foundation

/// What a `--json` caller reads on standard output when a command fails, instead of nothing:
/// `{"error": {"code": …, "message": …, "file": …, "line": …, "column": …}}` (absent location
/// fields are `null`). The exit status is the one the command has without `--json`.
public struct ErrorReport: Codable, Sendable, Equatable {
    /// The failure itself.
    public struct Detail: Codable, Sendable, Equatable {
        /// A stable snake_case code: `file_not_found`, `config_error`, `usage_error`, `tool_error`.
        public var code: String
        /// The message the text output prints after `error:`.
        public var message: String
        /// The file the failure is about, when one is.
        public var file: String?
        /// 1-based line and column within `file`, when known.
        public var line: Int?
        /// 1-based column within `file`, when known.
        public var column: Int?

        enum CodingKeys: String, CodingKey { case code, message, file, line, column }

        /// Encodes every key, absent ones as `null`, so callers can rely on the shape.
        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(code, forKey: .code)
            try c.encode(message, forKey: .message)
            try c.encode(file, forKey: .file)
            try c.encode(line, forKey: .line)
            try c.encode(column, forKey: .column)
        }
    }

    /// The failure: `{"error": …}` in the JSON.
    public var error: Detail

    /// A failure of `kind`, one of ``NoticeKind``'s failure codes (`.usageError`, …).
    public init(_ kind: NoticeKind, message: String, file: String? = nil, line: Int? = nil, column: Int? = nil) {
        error = Detail(code: kind.code, message: message, file: file, line: line, column: column)
    }

    /// The report of a thrown error: a `ConfigError` keeps its file, line and column; anything
    /// else is a `tool_error` with its description.
    public init(_ error: any Error, file: String? = nil) {
        if let config = error as? ConfigError {
            self.init(
                .configError, message: config.description, file: config.file,
                line: config.line, column: config.column)
        } else {
            self.init(.toolError, message: "\(error)", file: file)
        }
    }
}
