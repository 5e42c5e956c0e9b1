import FeedModel
import Foundation

/// Reads a GTFS dump (zip or folder) into a ``Feed``, one schema table at a time.
///
/// Everything wrong with the dump becomes a notice in the sink; only a dump that cannot be
/// opened at all yields no feed (`i_o_error`, MobilityData's code for an archive it cannot read).
/// Missing required files are reported as blocking; deciding what else blocks publication is the
/// validator's job.
public struct GTFSReader {
    public let url: URL
    /// What a zip member may unpack to.
    public let limits: ArchiveLimits

    public init(url: URL, limits: ArchiveLimits = .standard) {
        self.url = url
        self.limits = limits
    }

    /// The feed, or nil when the dump could not be opened (the sink says why).
    public func read(into sink: NoticeSink) -> Feed? {
        let archive: DumpArchive
        do {
            archive = try DumpArchive(url: url, sink: sink, limits: limits)
        } catch {
            sink.add(Notice(code: "i_o_error", severity: .error, file: url.lastPathComponent,
                            message: error.description, blocksPublication: true))
            return nil
        }
        var tables: [String: Table] = [:]
        for schema in GTFSSchema.tables {
            // The file's notices stand only once the whole member has inflated and passed its
            // checks (limits, CRC-32): parsed as it inflates, a refused member says nothing more.
            let notices = NoticeSink(samplesPerCode: sink.samplesPerCode)
            var loader = TableLoader(schema: schema, sink: notices)
            let present: Bool
            do {
                present = try archive.stream(schema.fileName) { loader.consume($0) }
            } catch {
                sink.add(Notice(code: "i_o_error", severity: .error, file: schema.fileName,
                                message: error.description, blocksPublication: true))
                return nil
            }
            let table = present ? loader.finish() ?? .missing(schema) : .missing(schema)
            sink.absorb(notices)
            tables[schema.name] = table
        }
        if archive.files[GeoJSONLoader.fileName] != nil {
            // Read whole (the archive's cap bounds it) and checked; bundles never hold it.
            do {
                if let bytes = try archive.read(GeoJSONLoader.fileName),
                   let table = GeoJSONLoader(sink: sink).load(bytes) {
                    tables[GTFSSchema.locations.name] = table
                }
            } catch {
                sink.add(Notice(code: "i_o_error", severity: .error, file: GeoJSONLoader.fileName,
                                message: error.description, blocksPublication: true))
                return nil
            }
        }
        let known = Set(GTFSSchema.tables.map(\.fileName)).union(GTFSSchema.recognisedButNotCompiled)
        for name in archive.files.keys.sorted() where !known.contains(name) {
            sink.add(Notice(code: "unknown_file", severity: .info, file: name,
                            message: "The file is not part of GTFS; it is not compiled."))
        }
        return Feed(tables: tables, dumpFiles: Set(archive.files.keys))
    }
}
