import FeedSQLite
import Foundation

/// What a bundle file holds: its meta, content digest and row counts. Reads `.sqlite` and
/// `.sqlite.gz` files alike.
public struct BundleInspection: Codable, Sendable {
    /// The path inspected, as given.
    public var file: String
    /// `meta.bundle`; nil when the file has none.
    public var bundle: String?
    /// `meta.version`; nil when the file has none.
    public var version: Int?
    /// `meta.format`, the bundle format version; nil when the file has none.
    public var format: Int?
    /// The content digest recomputed from the rows, `sha256:…`.
    public var digest: String
    /// `meta.service_start`, the first service date; nil when the file has none.
    public var serviceStart: String?
    /// `meta.service_end`, the last service date; nil when the file has none.
    public var serviceEnd: String?
    /// Row counts per content table.
    public var rows: [String: Int]

    enum CodingKeys: String, CodingKey {
        case file, bundle, version, format, digest, rows
        case serviceStart = "service_start"
        case serviceEnd = "service_end"
    }

    /// Reads the bundle at `url`; throws ``BundleFileError`` when it is no SQLite file.
    public init(file url: URL) throws {
        let (database, cleanup) = try BundleFile.open(url)
        defer { cleanup() }
        let meta = Dictionary(
            uniqueKeysWithValues: try database.rows("SELECT key, value FROM meta").compactMap { row -> (String, String)? in
                guard let k = row[0].string, let v = row[1].string else { return nil }
                return (k, v)
            })
        file = url.path
        bundle = meta["bundle"]
        version = meta["version"].flatMap(Int.init)
        format = meta["format"].flatMap(Int.init)
        serviceStart = meta["service_start"]
        serviceEnd = meta["service_end"]
        digest = try ContentDigest.compute(database)
        var rows: [String: Int] = [:]
        let present = Set(try database.rows("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").compactMap { $0[0].string })
        // A bundle written by an older feedc may lack newer tables: count what it has.
        for table in BundleSchema.tables where present.contains(table.name) {
            rows[table.name] = try database.scalar("SELECT count(*) FROM \(table.name)")?.int ?? 0
        }
        rows["stop_times"] = try database.scalar("SELECT count(*) FROM stop_times")?.int ?? 0
        self.rows = rows
    }
}

/// Opens bundle files for reading.
public enum BundleFile {
    /// Opens a `.sqlite` or `.sqlite.gz` bundle read-only. A gzipped one is unpacked as a
    /// stream to a temporary file (at most 100 times its size and 4 GiB, as a client would),
    /// removed by the returned cleanup, or at once when the file turns out not to be a bundle.
    /// A packed bundle (docs/packed-bundle.md) is installed into a temporary file first, as a
    /// client installs it. A bundle whose schema holds a trigger, or a view or virtual table the
    /// format does not define (which a count could run forever on), is refused as a client
    /// refuses it.
    public static func open(_ url: URL) throws -> (Database, () -> Void) {
        let (path, cleanup) = try materialize(url)
        do {
            return (try Database(path: path.path, mode: .readOnly), cleanup)
        } catch {
            cleanup()
            throw error
        }
    }

    /// The plain SQLite file of a `.sqlite`, `.sqlite.gz` or packed bundle, unpacked or
    /// installed into a temporary file as ``open(_:)`` does (the file itself when it is plain),
    /// and the cleanup that removes what was made; checked as ``open(_:)`` checks it.
    public static func materialize(_ url: URL) throws -> (URL, () -> Void) {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw BundleFileError.unreadable(path: url.path, reason: "no such file")
        }
        let head = (try? handle.read(upToCount: 2)) ?? Data()
        let size = (try? handle.seekToEnd()).map(Int.init) ?? 0
        try? handle.close()
        var temporaries: [URL] = []
        let cleanup = { for file in temporaries { try? FileManager.default.removeItem(at: file) } }
        do {
            var path = url.path
            if head == Data([0x1F, 0x8B]) {
                temporaries.append(FileManager.default.temporaryDirectory.appendingPathComponent("feedc-\(UUID().uuidString).sqlite"))
                let limit = UpdateLimits.inflateLimit(bytes: size, unpacked: nil, ceiling: UpdateLimits.bundleBytes)
                _ = try Gzip.decompress(file: url.path, to: temporaries[0].path, limit: limit)
                path = temporaries[0].path
            }
            if try isPacked(path) {
                let installed = FileManager.default.temporaryDirectory.appendingPathComponent("feedc-\(UUID().uuidString).sqlite")
                temporaries.append(installed)
                try PackedBundleInstaller.install(packedAt: path, to: installed.path)
                path = installed.path
            }
            _ = try checked(Database(path: path, mode: .readOnly), url)
            return (URL(fileURLWithPath: path), { cleanup() })
        } catch let error as GzipError {
            cleanup()
            throw BundleFileError.unreadable(path: url.path, reason: error.description)
        } catch let error as PackedBundleError {
            cleanup()
            throw BundleFileError.unreadable(path: url.path, reason: error.description)
        } catch {
            cleanup()
            throw error
        }
    }

    /// Whether the SQLite file at `path` is a packed bundle (it has `packed_meta`).
    private static func isPacked(_ path: String) throws -> Bool {
        guard let database = try? Database(path: path, mode: .readOnly) else { return false }
        return (try? database.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'packed_meta'")?.int) == 1
    }

    private static func checked(_ database: Database, _ url: URL) throws -> Database {
        do {
            _ = try database.scalar("SELECT count(*) FROM meta")
        } catch {
            throw BundleFileError.unreadable(path: url.path, reason: "not a feedc bundle (\(error))")
        }
        do {
            try InstalledBundleCheck.checkSchema(database)
        } catch {
            throw BundleFileError.unreadable(path: url.path, reason: "not a feedc bundle (\(error))")
        }
        return database
    }
}

/// Why a bundle file could not be opened.
public enum BundleFileError: Error, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)

    /// The path and the reason, in one line.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): \(reason)"
        }
    }
}
