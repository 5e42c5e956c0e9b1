import ArgumentParser
import BundleFormat
import FeedSQLite
import Foundation

struct Apply: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply a delta file to a local bundle database, as the client does, and time it.",
        discussion: """
            One transaction: the delta's SQL, the derived indexes rebuilt, the content digest checked \
            against --digest (the target version's, from the manifest); rolled back on any mismatch.
            """)

    @Argument(help: "The local bundle database (.sqlite), changed in place.")
    var database: String

    @Argument(help: "The delta (.sql.gz or .sql).")
    var delta: String

    @Option(help: "The target version's content digest (sha256:…).")
    var digest: String

    func run() throws {
        guard let data = FileManager.default.contents(atPath: delta) else { Terminal.fail("\(delta): no such file") }
        let start = Date()
        do {
            let bytes = [UInt8](data)
            let sql = bytes.starts(with: [0x1F, 0x8B]) ? try Gzip.decompress(bytes) : bytes
            try DeltaApplier.apply(String(decoding: sql, as: UTF8.self), to: Database(path: database, mode: .readWrite), expectedDigest: digest)
        } catch {
            Terminal.fail("\(error); \(database) is unchanged")
        }
        print("applied \(delta) in \(String(format: "%.3f", Date().timeIntervalSince(start))) s")
    }
}
