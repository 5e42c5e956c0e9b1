import FeedPipeline
import Foundation
import TestSupport
import Testing

/// http(s) sources: conditional GET with a remembered ETag; an unchanged dump costs one 304 and is
/// not parsed again; a failed download changes nothing. Uses a local server on 127.0.0.1.
@Suite(.serialized) struct FetchTests {
    private func zipFolder(_ folder: URL, into zip: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c", "import shutil,sys; shutil.make_archive(sys.argv[1], 'zip', sys.argv[2])", zip.deletingPathExtension().path, folder.path,
        ]
        try process.run()
        process.waitUntilExit()
    }

    private func remoteConfig(_ workspace: Workspace, url: String) throws -> PipelineConfig {
        let yaml = "output: out\nbundles:\n  - name: b\n    sources:\n      - id: remote\n        url: \(url)\n"
        let file = workspace.folder.url.appendingPathComponent("pipeline.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        return try PipelineConfigParser().parse(contentsOf: file)
    }

    /// A workspace, and a server on 127.0.0.1 holding the tiny feed as `feed.zip`.
    private func servedTinyFeed() throws -> (Workspace, EtagServer) {
        let workspace = Workspace()
        let served = workspace.folder.url.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        try zipFolder(workspace.folder.feed("tiny", TinyFeed.files), into: served.appendingPathComponent("feed.zip"))
        return (workspace, try EtagServer(serving: served, log: workspace.folder.url.appendingPathComponent("server.log")))
    }

    @Test func conditionalGetSkipsAnUnchangedDump() throws {
        let (workspace, server) = try servedTinyFeed()
        let config = try remoteConfig(workspace, url: server.url("feed.zip").absoluteString)

        let first = try workspace.build(config)
        #expect(first.status == .published)
        let before = workspace.snapshot()
        let second = try workspace.build(config)
        #expect(second.status == .unchanged)
        #expect(second.reason?.contains("nothing parsed") == true)
        #expect(second.sources.isEmpty)
        #expect(workspace.snapshot() == before)

        // The server fails: the bundle fails as a tool error, and nothing published changes.
        let broken = try remoteConfig(workspace, url: server.url("status/500").absoluteString)
        let failed = try workspace.build(broken)
        #expect(failed.status == .failed)
        #expect(failed.reason?.contains("HTTP 500") == true)
        #expect(workspace.snapshot() == before)

        #expect(server.requests == ["GET /feed.zip 200", "GET /feed.zip 304", "GET /status/500 500"])
    }

    /// A dump behind a redirect to another host (a CDN) is followed: the build's fetch, unlike
    /// the client, takes redirects to any server.
    @Test func aRedirectToAnotherHostIsFollowed() throws {
        let (workspace, server) = try servedTinyFeed()
        let config = try remoteConfig(workspace, url: server.url("moved/feed.zip").absoluteString)
        let report = try workspace.build(config)
        #expect(report.status == .published, "\(report.reason ?? "")")
        #expect(server.requests == ["GET /moved/feed.zip 302", "GET /feed.zip 200"])
    }

    @Test func unreachableServerChangesNothing() throws {
        let workspace = Workspace()
        _ = try workspace.build(workspace.config(sources: [("remote", workspace.folder.feed("tiny", TinyFeed.files))]))
        let before = workspace.snapshot()
        // Port 9 (discard) on loopback: nothing listens there.
        let config = try remoteConfig(workspace, url: "http://127.0.0.1:9/feed.zip")
        let report = try workspace.build(config)
        #expect(report.status == .failed)
        #expect(report.reason?.contains("download failed") == true)
        #expect(workspace.snapshot() == before)
    }
}
