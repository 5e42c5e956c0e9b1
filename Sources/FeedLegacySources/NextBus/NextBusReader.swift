import FeedModel
import FeedXML
import Foundation

/// Reads a folder of saved NextBus XML feed responses (or one response file) into a GTFS-shaped
/// ``Feed``.
///
/// Each file is recognised by its content, never its name: root `body` holding `route`
/// elements with stops, directions and paths (routeConfig, one or many routes), `route` elements
/// with `scheduleClass` (schedule), bare `route` elements (routeList) or `agency` elements
/// (agencyList). Every response is validated against the project's NextBus XSD
/// (``NextBusSchema``). Files that are not XML are ignored with a notice; a file that is
/// malformed, hostile or not a NextBus response refuses the whole source.
package struct NextBusReader {
    package let url: URL
    package let options: LegacyReadOptions

    package init(url: URL, options: LegacyReadOptions = LegacyReadOptions()) {
        self.url = url
        self.options = options
    }

    /// The documents of the source, in file-name order, or nil when one cannot be read.
    func documents(into sink: NoticeSink) -> [NextBusDocument]? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            sink.add(
                Notice(
                    .ioError, file: url.lastPathComponent,
                    message: "\(url.path): no such file or folder", blocksPublication: true))
            return nil
        }
        var files = [url]
        if isDirectory.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            files = names.filter { !$0.hasPrefix(".") }.sorted().map { url.appendingPathComponent($0) }
                .filter { file in
                    var folder: ObjCBool = false
                    return FileManager.default.fileExists(atPath: file.path, isDirectory: &folder) && !folder.boolValue
                }
        }
        guard let schema = NextBusSchema.shared else {
            sink.add(
                Notice(
                    .xmlInvalidSchema, file: "nextbus.xsd",
                    message: "The built-in NextBus schema does not compile.", blocksPublication: true))
            return nil
        }
        var documents: [NextBusDocument] = []
        for file in files {
            guard LegacyFormat.firstByteIsMarkup(file) else {
                sink.add(
                    Notice(
                        .unknownFile, file: file.lastPathComponent,
                        message: "The file is not an XML response; it is not compiled."))
                continue
            }
            do throws(XMLError) {
                let reader = try XMLStreamReader(url: file, schema: schema)
                let document = try NextBusDocument.read(reader)
                XMLNotices.violations(of: reader, schema: schema.name, sink: sink)
                report(document, sink: sink)
                documents.append(document)
            } catch {
                XMLNotices.refused(error, sink: sink)
                return nil
            }
        }
        return documents
    }

    /// The feed, or nil when the source cannot be read (the sink says why).
    package func read(into sink: NoticeSink) -> Feed? {
        guard let documents = documents(into: sink) else { return nil }
        var builder = NextBusFeedBuilder(sink: sink, timezone: options.timezone)
        for document in documents { builder.add(document) }
        return builder.feed()
    }

    private func report(_ document: NextBusDocument, sink: NoticeSink) {
        if let error = document.errorText {
            sink.add(
                Notice(
                    .nextbusErrorResponse, file: document.file, value: error,
                    message: "The saved response is a NextBus error, not data.", repair: "file ignored"))
        }
        for (name, count) in document.unknownElements.sorted(by: { $0.key < $1.key }) {
            sink.add(
                Notice(
                    .nextbusElementNotCompiled, file: document.file, field: name,
                    value: String(count), message: "This response element is not compiled."))
        }
    }
}
