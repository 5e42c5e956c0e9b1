/// One problem found in a feed: what, where, and what the compiler did about it.
///
/// Codes follow MobilityData's gtfs-validator where it has one (`foreign_key_violation`,
/// `duplicate_key`, `invalid_time`, …), each declared once as a ``NoticeKind``, through which
/// notices are raised: `Notice(.duplicateKey, file: …, message: …)`. Feed problems are recorded
/// as notices and work goes on; only notices marked ``blocksPublication`` stop a bundle from
/// being published.
public struct Notice: Codable, Sendable, Equatable {
    /// JSON keys are snake_case in every `--json` output and report (issue 15).
    enum CodingKeys: String, CodingKey {
        case code
        case severity
        case file
        case line
        case field
        case value
        case message
        case repair
        case blocksPublication = "blocks_publication"
    }

    /// The snake_case code of its ``NoticeKind`` (`duplicate_key`).
    public var code: String
    /// Error, warning or info: the kind's, unless the place raising it said otherwise.
    public var severity: Severity
    /// The file inside the dump (`stops.txt`), or the dump itself for archive-level problems.
    public var file: String?
    /// 1-based line in `file` (the header is line 1).
    public var line: Int?
    /// The column (`stop_id`), where the notice concerns one.
    public var field: String?
    /// The value found in `field`, as read.
    public var value: String?
    /// A sentence for people: what is wrong.
    public var message: String
    /// What the compiler did about it, when it repaired the feed ("row dropped", "value cleared").
    public var repair: String?
    /// True when the bundle would be wrong or unusable with this problem in it.
    public var blocksPublication: Bool

    /// A notice of `kind`, at the kind's severity unless `severity` says otherwise.
    public init(
        _ kind: NoticeKind, severity: Severity? = nil, file: String? = nil, line: Int? = nil,
        field: String? = nil, value: String? = nil, message: String,
        repair: String? = nil, blocksPublication: Bool = false
    ) {
        self.init(
            code: kind.code, severity: severity ?? kind.severity, file: file, line: line, field: field,
            value: value, message: message, repair: repair, blocksPublication: blocksPublication)
    }

    /// A notice of any code: notices read back from a report, and tests. The compiler raises
    /// registered kinds only (the initializer above).
    public init(
        code: String, severity: Severity, file: String? = nil, line: Int? = nil,
        field: String? = nil, value: String? = nil, message: String,
        repair: String? = nil, blocksPublication: Bool = false
    ) {
        self.code = code
        self.severity = severity
        self.file = file
        self.line = line
        self.field = field
        self.value = value
        self.message = message
        self.repair = repair
        self.blocksPublication = blocksPublication
    }

    /// The registered kind of ``code``, nil for a code feedc does not declare.
    public var kind: NoticeKind? { NoticeKind.named(code) }

    /// `stops.txt:12 stop_lat="abc": message`, the form printed to terminals.
    public var location: String {
        var out = file ?? "-"
        if let line { out += ":\(line)" }
        if let field {
            out += " \(field)"
            if let value { out += "=\"\(value.prefix(60))\"" }
        }
        return out
    }
}
