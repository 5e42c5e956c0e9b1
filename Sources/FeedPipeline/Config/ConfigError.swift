/// A problem with pipeline.yaml, located by line and column.
public struct ConfigError: Error, Sendable, CustomStringConvertible, Equatable {
    public var file: String
    public var line: Int?
    public var column: Int?
    public var message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        return "\(location): \(message)"
    }
}
