import FeedModel
import Foundation

/// Reads a GTFS dump (zip or folder) into a ``Feed``, one schema table at a time.
///
/// Everything wrong with the dump becomes a notice in the sink; only a dump that cannot be
/// opened at all yields no feed (`i_o_error`, MobilityData's code for an archive it cannot read).
/// Missing required files are reported as blocking; deciding what else blocks publication is the
/// validator's job.
package struct GTFSReader: Sendable {
    package let url: URL
    /// What a zip member may unpack to.
    package let limits: ArchiveLimits

    package init(url: URL, limits: ArchiveLimits = .standard) {
        self.url = url
        self.limits = limits
    }

    /// The feed, or nil when the dump could not be opened (the sink says why).
    ///
    /// With more than one worker, the files are read side by side, the largest first, each from
    /// its own opening of the dump; their tables and notices are then taken in the schema's order,
    /// as one worker would give them.
    package func read(into sink: NoticeSink, workers: Workers = .fromEnvironment()) -> Feed? {
        let archive: DumpArchive
        do {
            archive = try DumpArchive(url: url, sink: sink, limits: limits)
        } catch {
            sink.add(
                Notice(
                    .ioError, file: url.lastPathComponent,
                    message: error.description, blocksPublication: true))
            return nil
        }
        let present = GTFSSchema.tables.filter { archive.files[$0.fileName] != nil }
        let loaded: [Result<Loaded, DumpError>]
        if workers.count == 1 || present.count < 2 {
            loaded = present.map { schema in Result { () throws(DumpError) -> Loaded in try load(schema, from: archive, sink) } }
        } else {
            // Each worker opens the dump again from its layout (an archive is not shared).
            let layout = archive.layout
            loaded = workers.map(present, largestFirst: { Int(clamping: archive.declaredSize($0.fileName)) }) { schema in
                Result { () throws(DumpError) -> Loaded in
                    try load(schema, from: DumpArchive(reopening: layout), sink, aheadOn: workers)
                }
            }
        }
        var tables: [String: Table] = [:]
        for schema in GTFSSchema.tables { tables[schema.name] = .missing(schema) }
        for (schema, result) in zip(present, loaded) {
            switch result {
            case .success(let file):
                sink.absorb(file.notices)
                tables[schema.name] = file.table ?? .missing(schema)
            case .failure(let error):
                sink.add(
                    Notice(
                        .ioError, file: schema.fileName,
                        message: error.description, blocksPublication: true))
                return nil
            }
        }
        if archive.files[GeoJSONLoader.fileName] != nil {
            // Read whole (the archive's cap bounds it) and checked; bundles never hold it.
            do {
                if let bytes = try archive.read(GeoJSONLoader.fileName),
                    let table = GeoJSONLoader(sink: sink).load(bytes)
                {
                    tables[GTFSSchema.locations.name] = table
                }
            } catch {
                sink.add(
                    Notice(
                        .ioError, file: GeoJSONLoader.fileName,
                        message: error.description, blocksPublication: true))
                return nil
            }
        }
        let known = Set(GTFSSchema.tables.map(\.fileName)).union(GTFSSchema.recognisedButNotCompiled)
        for name in archive.files.keys.sorted() where !known.contains(name) {
            sink.add(
                Notice(
                    .unknownFile, file: name,
                    message: "The file is not part of GTFS; it is not compiled."))
        }
        return Feed(tables: tables, dumpFiles: Set(archive.files.keys), subfolder: archive.subfolder)
    }

    /// One file's table (nil when it held nothing usable) and its notices.
    private struct Loaded: Sendable {
        var table: Table?
        var notices: NoticeSink
    }

    /// The file's notices stand only once the whole member has inflated and passed its checks
    /// (limits, CRC-32): parsed as it inflates, a refused member says nothing more.
    /// With `workers`, a large member inflates on one of their threads (when one is free) while
    /// this one parses it, and its records are converted in two halves at once
    /// (``TableLoader/sideBySide``).
    private func load(
        _ schema: TableSchema, from archive: DumpArchive, _ sink: NoticeSink,
        aheadOn workers: Workers? = nil
    ) throws(DumpError) -> Loaded {
        let notices = NoticeSink(samplesPerCode: sink.samplesPerCode)
        let large = workers != nil && archive.declaredSize(schema.fileName) >= Self.inflateAheadBytes
        var loader = TableLoader(
            schema: schema, sink: notices, sideBySide: large ? workers : nil,
            expectedBytes: Int(clamping: archive.declaredSize(schema.fileName)))
        let found =
            if large, let workers {
                try InflateAhead.stream(schema.fileName, of: archive, workers: workers) { loader.consume($0) }
            } else {
                try archive.stream(schema.fileName) { loader.consume($0) }
            }
        guard found else { return Loaded(table: nil, notices: notices) }
        return Loaded(table: loader.finish(), notices: notices)
    }

    /// Members from this size on inflate ahead of the parse (with more than one worker).
    static let inflateAheadBytes: UInt64 = 8 << 20
}
