import ArgumentParser
import BundleFormat
import FeedPipeline
import FeedSQLite
import Foundation

struct Unpack: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Install a packed bundle into a SQLite file, as a client does, and time it.",
        discussion: """
            Reads a packed bundle (bundles/<version>-<digest>.packed.sqlite.gz, docs/packed-bundle.md), \
            gunzips it, installs its tables, rows, indexes and view into OUTPUT (which must not exist), \
            and prints the content digest and the time of each step: what an app does after the \
            download. Exit status: 0 installed; 1 the file is not a packed bundle or is damaged \
            (nothing is left at OUTPUT); 2 a usage or local error.
            """)

    @Argument(help: "The packed bundle (.packed.sqlite.gz, or the unpacked .packed file).")
    var packed: String

    @Option(name: .shortAndLong, help: "The SQLite file to write.")
    var output: String

    @Flag(help: "Print the result as JSON.")
    var json = false

    struct Result: Encodable {
        var digest: String
        var bytes: Int
        var gunzipSeconds: Double
        var installSeconds: Double
        var digestSeconds: Double

        enum CodingKeys: String, CodingKey {
            case digest, bytes
            case gunzipSeconds = "gunzip_s"
            case installSeconds = "install_s"
            case digestSeconds = "digest_s"
        }
    }

    func run() throws {
        guard FileManager.default.fileExists(atPath: packed) else { Terminal.fail("\(packed): no such file", code: .fileNotFound, file: packed) }
        guard !FileManager.default.fileExists(atPath: output) else { Terminal.fail("\(output) exists; give a new file", file: output) }
        let scratch = output + ".packed-\(ProcessInfo.processInfo.processIdentifier)"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        /// Ends the command (`exit`, so no `defer` runs): the scratch file and any output first.
        func fail(_ message: String, status: Int32) -> Never {
            try? FileManager.default.removeItem(atPath: scratch)
            try? FileManager.default.removeItem(atPath: output)
            Terminal.fail(ErrorReport(.toolError, message: message, file: packed), status: status)
        }
        var clock = Date()
        func lap() -> Double {
            defer { clock = Date() }
            return Date().timeIntervalSince(clock)
        }
        var source = packed
        do {
            let head = FileHandle(forReadingAtPath: packed).flatMap { try? $0.read(upToCount: 2) }
            if head == Data([0x1F, 0x8B]) {
                let size = (try FileManager.default.attributesOfItem(atPath: packed)[.size] as? Int) ?? 0
                _ = try Gzip.decompress(
                    file: packed, to: scratch, limit: UpdateLimits.inflateLimit(bytes: size, unpacked: nil, ceiling: UpdateLimits.bundleBytes))
                source = scratch
            }
        } catch {
            fail("\(packed): \(error)", status: 1)
        }
        let gunzip = lap()
        do {
            try PackedBundleInstaller.install(packedAt: source, to: output)
        } catch {
            fail("\(packed): \(error)", status: error.isLocal ? 2 : 1)
        }
        let install = lap()
        let digest = try ContentDigest.compute(Database(path: output))
        let result = Result(
            digest: digest, bytes: (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0,
            gunzipSeconds: gunzip, installSeconds: install, digestSeconds: lap())
        if json {
            Terminal.printJSON(result)
        } else {
            print(
                "installed \(output): \(result.digest), \(result.bytes) bytes; gunzip \(String(format: "%.3f", gunzip)) s, install \(String(format: "%.3f", install)) s, digest \(String(format: "%.3f", result.digestSeconds)) s"
            )
        }
    }
}

extension PackedBundleError {
    /// A local failure (a full disk), not the file's.
    fileprivate var isLocal: Bool {
        if case .local = self { return true }
        return false
    }
}
