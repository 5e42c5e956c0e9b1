import FeedModel
import Foundation

/// Reads a GTFS dump (zip or folder) into a ``Feed``, one schema table at a time.
///
/// Everything wrong with the dump becomes a notice in the sink; only a dump that cannot be
/// opened at all yields no feed. Missing required files are reported as blocking; deciding what
/// else blocks publication is the validator's job.
public struct GTFSReader {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// The feed, or nil when the dump could not be opened (the sink says why).
    public func read(into sink: NoticeSink) -> Feed? {
        let archive: DumpArchive
        do {
            archive = try DumpArchive(url: url, sink: sink)
        } catch {
            sink.add(Notice(code: "unreadable_archive", severity: .error, file: url.lastPathComponent,
                            message: error.description, blocksPublication: true))
            return nil
        }
        var tables: [String: Table] = [:]
        for schema in GTFSSchema.tables {
            let bytes: [UInt8]?
            do {
                bytes = try archive.read(schema.fileName)
            } catch {
                sink.add(Notice(code: "unreadable_archive", severity: .error, file: schema.fileName,
                                message: error.description, blocksPublication: true))
                return nil
            }
            guard let bytes else {
                tables[schema.name] = .missing(schema)
                continue
            }
            tables[schema.name] = TableLoader(schema: schema, sink: sink).load(bytes) ?? .missing(schema)
        }
        let known = Set(GTFSSchema.tables.map(\.fileName)).union(GTFSSchema.recognisedButNotCompiled)
        for name in archive.files.keys.sorted() where !known.contains(name) {
            sink.add(Notice(code: "unknown_file", severity: .info, file: name,
                            message: "The file is not part of GTFS; it is not compiled."))
        }
        return Feed(tables: tables)
    }
}
