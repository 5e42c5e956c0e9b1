import Foundation
import Testing

@testable import FeedPipeline

/// The size sources are started by (largest first): a file's bytes; a folder's files together,
/// in subfolders too and through links, the folders themselves not counted.
@Suite struct SourceSizeTests {
    private func source(_ url: URL) -> FetchedSource {
        FetchedSource(config: SourceConfig(id: "s", format: .gtfs, location: .path(url), prefix: ""), local: url, fingerprint: "")
    }

    @Test func countsFilesSubfoldersAndLinks() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("feedc-size-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let dump = root.appendingPathComponent("dump"), inner = dump.appendingPathComponent("gtfs")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        try Data(count: 1_000).write(to: dump.appendingPathComponent("agency.txt"))
        try Data(count: 20_000).write(to: inner.appendingPathComponent("stop_times.txt"))
        let elsewhere = root.appendingPathComponent("trips.txt")
        try Data(count: 300).write(to: elsewhere)
        try FileManager.default.createSymbolicLink(at: dump.appendingPathComponent("trips.txt"), withDestinationURL: elsewhere)
        #expect(source(dump).bytes == 21_300)
        #expect(source(elsewhere).bytes == 300)
        // A link to the whole dump counts what it points to.
        let link = root.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: dump)
        #expect(source(link).bytes == 21_300)
        #expect(source(root.appendingPathComponent("missing")).bytes == 0)
    }
}
