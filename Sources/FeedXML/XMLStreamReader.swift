internal import CFeedXML2
import Foundation

/// A streaming, hardened XML reader: libxml2's `xmlTextReader`, owned and freed here.
///
/// Memory stays bounded by the deepest open element, not the document: a dump far larger than
/// memory can be read. Hostile input is refused with an ``XMLError``:
///
/// - no network (`XML_PARSE_NONET`), no DTD loading and no entity substitution (neither
///   `XML_PARSE_DTDLOAD` nor `XML_PARSE_NOENT` is set), so no file or URL named by the document
///   is ever opened;
/// - a DTD that declares entities, and any entity reference, is refused outright;
/// - libxml2's limits stay on (no `XML_PARSE_HUGE`): entity amplification (billion laughs),
///   depth, name and text sizes; on top, ``XMLLimits/maximumValueBytes`` per value;
/// - invalid UTF-8 (or bytes invalid in the declared encoding), truncated and malformed
///   documents end the read with the line and column libxml2 reports.
///
/// With a schema, the document is validated while it streams; violations are collected as
/// ``XMLIssue``s (see ``issues``) and reading goes on.
package final class XMLStreamReader {
    /// The name used in errors (usually the file name).
    package let file: String
    package let limits: XMLLimits
    private let reader: xmlTextReaderPtr
    private let descriptor: Int32
    private let box: ErrorBox
    /// Element and attribute names come from libxml2's dictionary: one Swift String per name.
    private var names: [UnsafePointer<xmlChar>: String] = [:]
    private var pendingEnd: XMLNode?
    private var finished = false
    /// The root element's end has been read: anything after it is not truncation.
    private var rootClosed = false
    /// Keeps a schema alive while the reader validates against it.
    private let schema: XMLSchema?
    /// Where the bytes come from, to tell a cut-off document from a malformed one.
    private let path: String?

    /// Streams the file at `url`, validating against `schema` when given.
    package init(url: URL, schema: XMLSchema? = nil, limits: XMLLimits = .standard) throws(XMLError) {
        XMLLibrary.initialize()
        let name = url.lastPathComponent
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw XMLError(.unreadable, file: name, "cannot open the file (\(String(cString: strerror(errno))))")
        }
        guard let reader = xmlReaderForFd(fd, url.path, nil, XMLLibrary.options) else {
            close(fd)
            throw XMLError(.unreadable, file: name, "libxml2 could not create a reader")
        }
        self.file = name
        self.limits = limits
        self.reader = reader
        self.descriptor = fd
        self.box = ErrorBox(limits: limits)
        self.schema = schema
        self.path = url.path
        try setUp(schema)
    }

    /// Streams a document held in memory (tests, small responses).
    package init(bytes: [UInt8], name: String, schema: XMLSchema? = nil, limits: XMLLimits = .standard) throws(XMLError) {
        XMLLibrary.initialize()
        // The reader keeps pointing into the buffer, so it gets a copy it owns with the reader.
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
        bytes.withUnsafeBufferPointer { source in
            source.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress { buffer.update(from: base, count: bytes.count) }
            }
        }
        guard let reader = xmlReaderForMemory(buffer, Int32(clamping: bytes.count), name, nil, XMLLibrary.options) else {
            buffer.deallocate()
            throw XMLError(.unreadable, file: name, "libxml2 could not create a reader")
        }
        self.file = name
        self.limits = limits
        self.reader = reader
        self.descriptor = -1
        self.box = ErrorBox(limits: limits)
        self.box.memory = buffer
        self.box.memoryCount = bytes.count
        self.schema = schema
        self.path = nil
        try setUp(schema)
    }

    private func setUp(_ schema: XMLSchema?) throws(XMLError) {
        box.reader = reader
        let context = Unmanaged.passUnretained(box).toOpaque()
        xmlTextReaderSetStructuredErrorHandler(
            reader,
            { context, error in
                guard let context, let error else { return }
                Unmanaged<ErrorBox>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
            }, context)
        if let schema, xmlTextReaderSetSchema(reader, schema.handle) != 0 {
            throw XMLError(.invalidSchema, file: file, "the schema \(schema.name) could not be attached to the reader")
        }
    }

    deinit {
        xmlFreeTextReader(reader)
        if descriptor >= 0 { close(descriptor) }
        box.memory?.deallocate()
    }

    /// Schema violations found so far (at most ``XMLLimits/storedIssues``).
    package var issues: [XMLIssue] { box.issues }
    /// Every schema violation found so far, counted.
    package var issueCount: Int { box.issueCount }

    /// The next start, end or text event; nil at the end of a well-formed document.
    package func next() throws(XMLError) -> XMLNode? {
        if let end = pendingEnd {
            pendingEnd = nil
            if end.depth == 0 { rootClosed = true }
            return end
        }
        while !finished {
            let status = xmlTextReaderRead(reader)
            if status == 0 {
                finished = true
                if let error = box.fatal { throw classify(error) }
                return nil
            }
            guard status == 1 else {
                finished = true
                throw classify(
                    box.fatal
                        ?? RecordedError(
                            code: -1, line: parserLine, column: 0,
                            message: "the document is not well-formed"))
            }
            // After a fatal error libxml2 still hands out the nodes it built before it; the
            // error is thrown when reading stops (status -1), so the place is known.
            switch xmlTextReaderNodeType(reader) {
            case 1:  // element
                let node = try element()
                if xmlTextReaderIsEmptyElement(reader) == 1 {
                    pendingEnd = XMLNode(
                        kind: .end, name: node.name, depth: node.depth, line: node.line,
                        attributes: [], text: "")
                }
                return node
            case 15:  // end of element
                if xmlTextReaderDepth(reader) == 0 { rootClosed = true }
                return XMLNode(
                    kind: .end, name: name(xmlTextReaderConstName(reader)), depth: Int(xmlTextReaderDepth(reader)),
                    line: nodeLine, attributes: [], text: "")
            case 3, 4:  // text, CDATA
                return XMLNode(
                    kind: .text, name: "", depth: Int(xmlTextReaderDepth(reader)), line: nodeLine,
                    attributes: [], text: try value(xmlTextReaderConstValue(reader), what: "text"))
            case 5:  // entity reference left unexpanded
                finished = true
                throw XMLError(
                    .entityRefused, file: file, line: nodeLine,
                    "entity reference &\(name(xmlTextReaderConstName(reader)));: entities are not allowed in transit dumps")
            case 10:  // <!DOCTYPE …>
                try checkDoctype()
            default:  // comments, processing instructions, whitespace
                continue
            }
        }
        return nil
    }

    /// Skips the rest of the element whose start event was just returned (its end event is
    /// consumed too).
    package func skipElement(_ start: XMLNode) throws(XMLError) {
        guard start.kind == .start else { return }
        while let node = try next() {
            if node.kind == .end && node.depth == start.depth && node.name == start.name { return }
        }
    }

    // MARK: - Private

    private func element() throws(XMLError) -> XMLNode {
        let name = self.name(xmlTextReaderConstName(reader))
        let depth = Int(xmlTextReaderDepth(reader))
        let line = nodeLine
        var attributes: [(name: String, value: String)] = []
        if xmlTextReaderHasAttributes(reader) == 1 {
            var more = xmlTextReaderMoveToFirstAttribute(reader)
            while more == 1 {
                let attributeName = self.name(xmlTextReaderConstName(reader))
                attributes.append((attributeName, try value(xmlTextReaderConstValue(reader), what: "attribute \(attributeName)")))
                more = xmlTextReaderMoveToNextAttribute(reader)
            }
            xmlTextReaderMoveToElement(reader)
        }
        return XMLNode(kind: .start, name: name, depth: depth, line: line, attributes: attributes, text: "")
    }

    private func name(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        if let known = names[pointer] { return known }
        let text = String(cString: pointer)
        names[pointer] = text
        return text
    }

    private func value(_ pointer: UnsafePointer<xmlChar>?, what: String) throws(XMLError) -> String {
        guard let pointer else { return "" }
        let length = strlen(UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
        if length > limits.maximumValueBytes {
            finished = true
            throw XMLError(
                .valueTooLarge, file: file, line: nodeLine,
                "\(what) is \(length) bytes long; the limit is \(limits.maximumValueBytes)")
        }
        return String(cString: pointer)
    }

    /// A DTD is tolerated only without entity declarations; it is never loaded.
    private func checkDoctype() throws(XMLError) {
        guard let doc = xmlTextReaderCurrentDoc(reader) else { return }
        for dtd in [doc.pointee.intSubset, doc.pointee.extSubset] {
            guard let dtd else { continue }
            if dtd.pointee.entities != nil || dtd.pointee.pentities != nil {
                finished = true
                throw XMLError(
                    .entityRefused, file: file, line: nodeLine,
                    "the DOCTYPE declares entities; entities and DTDs are not allowed in transit dumps")
            }
        }
    }

    private var nodeLine: Int {
        if let node = xmlTextReaderCurrentNode(reader) {
            let line = xmlGetLineNo(node)
            if line > 0 { return Int(line) }
        }
        return parserLine
    }

    private var parserLine: Int { Int(xmlTextReaderGetParserLineNumber(reader)) }

    private func classify(_ error: RecordedError) -> XMLError {
        let kind: XMLError.Kind
        let lower = error.message.lowercased()
        let (lastLine, lastColumn, isEmpty) = inputShape()
        if isEmpty {
            return XMLError(.truncated, file: file, line: 1, column: 1, "the document is empty")
        }
        switch Int(error.code) {
        case 9, 31, 32, 81: kind = .invalidEncoding
        case 77, 4: kind = .truncated
        case 5:
            // "Extra content at the end of the document": libxml2's reader also says this when
            // the input stops early. Truncated when nothing but white space follows the error.
            kind = !rootClosed && (error.line, error.column) > (lastLine, lastColumn) ? .truncated : .malformed
        case 26, 27, 88, 89, 104: kind = .entityRefused
        default:
            if lower.contains("premature end") || lower.contains("end of data") {
                kind = .truncated
            } else if lower.contains("entit") {
                kind = .entityRefused
            }
            // A syntax error on the input's last line, root still open: the document was cut off there.
            else if error.line >= lastLine && !rootClosed {
                kind = .truncated
            } else if lower.contains("utf-8") || lower.contains("encoding") {
                kind = .invalidEncoding
            } else {
                kind = .malformed
            }
        }
        var message = error.message
        switch kind {
        case .truncated:
            message =
                error.code == 5
                ? "the document ends before its root element is closed (truncated?)"
                : "the document ends early (truncated?): " + message
        case .entityRefused: message = "entity refused: " + message
        case .invalidEncoding: message = "invalid encoding: " + message
        default: break
        }
        return XMLError(kind, file: file, line: error.line, column: error.column, message)
    }
}

extension XMLStreamReader {
    /// Line and column of the input's last byte that is not white space, and whether there is
    /// none. Read only when a document fails, to tell truncation from other syntax errors.
    fileprivate func inputShape() -> (lastLine: Int, lastColumn: Int, isEmpty: Bool) {
        var line = 1, column = 0, lastContent = 0, lastColumn = 0
        func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
            for byte in bytes {
                if byte == 0x0A {
                    line += 1
                    column = 0
                } else {
                    column += 1
                    if byte != 0x20 && byte != 0x09 && byte != 0x0D {
                        lastContent = line
                        lastColumn = column
                    }
                }
            }
        }
        if let path {
            guard let handle = FileHandle(forReadingAtPath: path) else { return (Int.max, Int.max, false) }
            defer { try? handle.close() }
            while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                chunk.withUnsafeBytes { scan($0.bindMemory(to: UInt8.self)) }
            }
        } else if let memory = box.memory {
            memory.withMemoryRebound(to: UInt8.self, capacity: box.memoryCount) {
                scan(UnsafeBufferPointer(start: $0, count: box.memoryCount))
            }
        }
        return (lastContent, lastColumn, lastContent == 0)
    }
}
