/// A problem with pipeline.yaml, located by line and column.
public struct ConfigError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The path of pipeline.yaml (or of the file it names that is wrong).
    public var file: String
    /// 1-based line in `file`, when known.
    public var line: Int?
    /// 1-based column in `file`, when known.
    public var column: Int?
    /// What is wrong, in one sentence.
    public var message: String

    /// A problem in `file`, at a line and column when known.
    public init(file: String, line: Int? = nil, column: Int? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`, as compilers print errors.
    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        return "\(location): \(message)"
    }
}
