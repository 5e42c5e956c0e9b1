internal import CFeedXML2
import Foundation

/// A compiled XSD, the only owner of its libxml2 `xmlSchema` (freed on release).
///
/// `@unchecked Sendable`: a compiled schema is read-only; each ``XMLStreamReader`` validating
/// against it has its own validation context, so one schema can serve several readers, also on
/// several threads.
package final class XMLSchema: @unchecked Sendable {
    let handle: xmlSchemaPtr
    /// The schema's file name, for messages.
    package let name: String

    /// Compiles the XSD at `url`.
    package convenience init(contentsOf url: URL) throws(XMLError) {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw XMLError(.invalidSchema, file: url.lastPathComponent, "cannot read the schema at \(url.path)")
        }
        try self.init(bytes: [UInt8](data), name: url.lastPathComponent)
    }

    /// Compiles an XSD held in memory (the NextBus schema is embedded in the program).
    package init(bytes: [UInt8], name: String) throws(XMLError) {
        XMLLibrary.initialize()
        let box = ErrorBox(limits: .standard)
        let compiled: xmlSchemaPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                guard let parser = xmlSchemaNewMemParserCtxt(chars.baseAddress, Int32(clamping: chars.count)) else { return nil }
                defer { xmlSchemaFreeParserCtxt(parser) }
                let context = Unmanaged.passUnretained(box).toOpaque()
                xmlSchemaSetParserStructuredErrors(
                    parser,
                    { context, error in
                        guard let context, let error else { return }
                        Unmanaged<ErrorBox>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
                    }, context)
                return xmlSchemaParse(parser)
            }
        }
        guard let compiled else {
            let error = box.fatal
            throw XMLError(
                .invalidSchema, file: name, line: error?.line ?? 0, column: error?.column ?? 0,
                "the schema does not compile: \(error?.message ?? "unknown error")")
        }
        handle = compiled
        self.name = name
    }

    deinit {
        xmlSchemaFree(handle)
    }
}
