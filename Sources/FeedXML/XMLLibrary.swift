internal import CFeedXML2
import Foundation

/// What libxml2 reported: the first fatal error, and schema violations.
struct RecordedError {
    var code: Int32
    var line: Int
    var column: Int
    var message: String
}

/// Receives libxml2's structured errors through a C callback (context pointer to this box).
final class ErrorBox {
    let limits: XMLLimits
    var reader: xmlTextReaderPtr?
    var memory: UnsafeMutablePointer<CChar>?
    var memoryCount = 0
    private(set) var fatal: RecordedError?
    private(set) var issues: [XMLIssue] = []
    private(set) var issueCount = 0

    init(limits: XMLLimits) {
        self.limits = limits
    }

    func record(_ error: xmlError) {
        let message =
            error.message.map { String(cString: $0) }?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "error \(error.code)"
        var line = Int(error.line)
        if line <= 0, let node = error.node {
            line = Int(xmlGetLineNo(node.assumingMemoryBound(to: xmlNode.self)))
        }
        if line <= 0, let reader { line = Int(xmlTextReaderGetParserLineNumber(reader)) }
        let column = Int(error.int2)
        if error.domain == Int32(XML_FROM_SCHEMASV.rawValue) || error.domain == Int32(XML_FROM_VALID.rawValue) {
            guard error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            issueCount += 1
            if issues.count < limits.storedIssues {
                issues.append(XMLIssue(line: line, column: column, message: message))
            }
            return
        }
        guard error.level.rawValue >= XML_ERR_ERROR.rawValue, fatal == nil else { return }
        fatal = RecordedError(code: error.code, line: line, column: column, message: message)
    }
}

/// libxml2's process-wide set-up and the parser options every reader uses.
enum XMLLibrary {
    private static let setUp: Void = { xmlInitParser() }()

    static func initialize() { _ = setUp }

    /// No network, CDATA as text, line numbers past 65,535. Deliberately absent: NOENT (entity
    /// substitution), DTDLOAD, DTDATTR, DTDVALID, XINCLUDE and HUGE.
    static let options: Int32 = Int32(
        bitPattern: XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue
            | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_COMPACT.rawValue)
}
