import BundleFormat
import FeedPipeline
import FeedSQLite
import Foundation
import TestSupport
import Testing

@testable import FeedClient

/// The async update as an app uses it, against nginx: progress, cancellation at random points,
/// concurrent calls, reading while a delta applies, and a database replaced under an open reader.
@Suite(.serialized, .enabled(if: Nginx.isInstalled, "needs nginx (.ci/run installs it)"))
struct AsyncUpdateTests {
    typealias Fixture = PullFaultTests.Fixture

    private func digest(_ db: URL) throws -> String { try ContentDigest.compute(Database(path: db.path)) }

    /// `updates()`: the progress of a delta as an AsyncSequence, in order, its download reported
    /// in bytes of the delta's size, and the result beside it.
    @Test func aDeltasProgressAsAnAsyncSequence() async throws {
        let f = try Fixture()
        let db = try f.clientAtVersion1()
        let delta = try #require(try f.manifest.deltas.first)
        let (progress, result) = f.client(db, manifest: "slow/m/manifest.json").updates()
        var all: [UpdateProgress] = []
        for await event in progress { all.append(event) }
        #expect(try await result.value == .appliedDelta(from: 1, to: 2, bytes: delta.bytes))
        let phases = all.map(\.phase).reduce(into: [UpdateProgress.Phase]()) { if $0.last != $1 { $0.append($1) } }
        #expect(phases == [.manifest, .download, .verify, .apply], "\(all)")
        let download = all.filter { $0.phase == .download }
        #expect(download.first?.received == 0 && download.last?.received == delta.bytes, "\(download)")
        #expect(download.allSatisfy { $0.expected == delta.bytes })
        // Applying: statements run of all of them, from 0 to the last, never going down.
        let apply = all.filter { $0.phase == .apply && $0.expected != nil }
        let statements = apply.map(\.received)
        #expect(statements.first == 0 && statements == statements.sorted() && statements.last == apply.last?.expected, "\(apply)")
        #expect((apply.last?.expected ?? 0) > 2 && apply.last?.fraction == 1, "\(apply)")
    }

    /// Progress events come in order: manifest, download (bytes never going down, ending at the
    /// bundle's size), verify, apply.
    @Test func progressIsMonotonicAndEndsAtTheFullSize() async throws {
        let f = try Fixture()
        let db = f.folder.url.appendingPathComponent("fresh.sqlite")
        let events = EventLog()
        let result = try await f.client(db, manifest: "slow/m/manifest.json").update { events.append($0) }
        let latest = try f.manifest.latest
        #expect(result == .downloadedFull(version: latest.version, bytes: latest.fullDownload.bytes))
        let all = events.all
        #expect(all.map(\.phase).first == .manifest)
        let phases = all.map(\.phase).reduce(into: [UpdateProgress.Phase]()) { if $0.last != $1 { $0.append($1) } }
        #expect(phases == [.manifest, .download, .verify, .apply])
        let bytes = all.filter { $0.phase == .download }.map(\.received)
        #expect(bytes == bytes.sorted(), "download progress went down: \(bytes)")
        #expect(bytes.count > 3, "a slow download reports as it goes: \(bytes)")
        #expect(bytes.last == latest.fullDownload.bytes)
        #expect(all.filter { $0.phase == .download }.allSatisfy { $0.expected == latest.fullDownload.bytes })
    }

    /// Cancelling at random moments never changes the database; a later update completes,
    /// resuming the partial download with a Range request.
    @Test func cancellingAtRandomPointsLeavesTheDatabaseAndResumes() async throws {
        let f = try Fixture()
        let db = try f.clientAtVersion1()
        let before = try digest(db)
        let latest = try f.manifest.latest
        // Only the full bundle: the delta would finish before any cancellation.
        try f.editManifest { $0.deltas = [] }
        var generator = SystemRandomNumberGenerator()
        var completed = false
        let client = f.client(db, manifest: "slow/m/manifest.json")
        // Each trial resumes what the earlier ones kept, so some trial may end the download.
        for trial in 0..<12 where !completed {
            let delay = UInt64.random(in: 0...1500, using: &generator)
            let task = Task { try await client.update() }
            try await Task.sleep(nanoseconds: delay * 1_000_000)
            task.cancel()
            switch await task.result {
            case .success(let result):
                #expect(
                    result == .downloadedFull(version: latest.version, bytes: latest.fullDownload.bytes, reason: .noDeltaPublished(from: 1)), "trial \(trial)")
                completed = true
            case .failure(let error):
                #expect(error as? ClientError == .cancelled, "trial \(trial): \(error)")
                #expect(try digest(db) == before, "trial \(trial): cancelled after \(delay) ms changed the database")
            }
        }
        if !completed {
            #expect(try await client.update() == .downloadedFull(version: latest.version, bytes: latest.fullDownload.bytes, reason: .noDeltaPublished(from: 1)))
        }
        #expect(try digest(db) == latest.digest)

        // The resume itself, without relying on random delays (on a loaded machine a trial can
        // be cancelled before its first byte): cancel once the partial file holds bytes, then
        // the next update asks for the rest and nginx answers 206.
        let second = try f.clientAtVersion1("resume")
        let partial = f.folder.url.appendingPathComponent(".resume.sqlite.download-\(latest.fullDownload.sha256.prefix(16))")
        let resumingClient = f.client(second, manifest: "slow/m/manifest.json")
        let task = Task { try await resumingClient.update() }
        // However long a loaded run takes to give the update a thread: the bound stops a hang.
        let deadline = Date().addingTimeInterval(600)
        while ((try? FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int) ?? 0) == 0 && Date() < deadline {
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        task.cancel()
        let result = await task.result
        // The download is slow (tens of seconds), so a cancel after its first bytes ends it.
        #expect((try? result.get()) == nil, "cancelled mid-download")
        if case .failure(let error) = result {
            #expect(error as? ClientError == .cancelled)
            #expect(try digest(second) == before, "a cancelled download changed the database")
            let kept = (try? FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int) ?? 0
            #expect(kept > 0, "a cancelled download keeps its partial file")
        }
        func resumed() -> Int { f.nginx.requests.filter { $0.hasPrefix("GET /slow/m/bundles/") && $0.hasSuffix(" 206") }.count }
        let resumedBefore = resumed()
        #expect(
            try await resumingClient.update() == .downloadedFull(version: latest.version, bytes: latest.fullDownload.bytes, reason: .noDeltaPublished(from: 1)))
        #expect(try digest(second) == latest.digest)
        // nginx writes its access log line as it finishes the request, which may come a moment
        // after the client has its last byte: wait for it rather than race it.
        let logged = Date().addingTimeInterval(120)
        while resumed() == resumedBefore && Date() < logged { try await Task.sleep(nanoseconds: 50_000_000) }
        #expect(resumed() > resumedBefore, "the update after a cancelled download resumed it: \(f.nginx.requests)")
    }

    /// Two updates of one database at once: one download, both end at the latest digest.
    @Test func concurrentUpdatesShareOneDownload() async throws {
        let f = try Fixture()
        let db = f.folder.url.appendingPathComponent("shared.sqlite")
        let client = f.client(db, manifest: "slow/m/manifest.json")
        async let first = client.update()
        async let second = client.update()
        let (a, b) = try await (first, second)
        let latest = try f.manifest.latest
        #expect(a == b && a == .downloadedFull(version: latest.version, bytes: latest.fullDownload.bytes))
        #expect(try digest(db) == latest.digest)
        #expect(f.nginx.requests.filter { $0.hasPrefix("GET /slow/m/bundles/") }.count == 1, "\(f.nginx.requests)")
    }

    /// An app reading (an open read transaction) does not stop a delta: it applies at once, the
    /// reader keeps its snapshot, and the next read sees the new version.
    @Test func aDeltaAppliesWhileAnAppReads() async throws {
        let f = try Fixture()
        let db = f.folder.url.appendingPathComponent("reader.sqlite")
        // Installed by the client at version 1 (WAL), as on an app's first launch.
        let manifestFile = f.bundleFolder.appendingPathComponent("manifest.json")
        let original = try Data(contentsOf: manifestFile)
        let v1 = try f.manifest.versions.first { $0.version == 1 }!
        try f.editManifest { m in
            m.latest = v1
            m.versions = [v1]
            m.deltas = []
        }
        _ = try await f.client(db).update()
        #expect(try Database(path: db.path).scalar("PRAGMA journal_mode")?.string == "wal")
        // Back to the real manifest (version 2, with its delta).
        try original.write(to: manifestFile)
        let reader = try Database(path: db.path, mode: .readOnly)
        try reader.execute("BEGIN")
        #expect(try reader.scalar("SELECT name FROM stops WHERE stop_id = 's101'")?.string == "Rockridge Station")
        let app = try FeedDatabase(path: db)
        #expect(try await app.version == 1)
        // The same delta onto a database nobody reads, timed just before: the reader's must not
        // cost a wait on SQLite's busy timeout (5 s). A ratio to this control, not a wall-time
        // bound: on a loaded machine both take longer.
        let control = try f.clientAtVersion1("control")
        let controlStarted = Date()
        _ = try await f.client(control).update()
        let controlSeconds = Date().timeIntervalSince(controlStarted)
        let started = Date()
        let result = try await f.client(db).update()
        let seconds = Date().timeIntervalSince(started)
        #expect(result == .appliedDelta(from: 1, to: 2, bytes: try f.manifest.deltas.first { $0.from == 1 }!.bytes))
        #expect(seconds < 3 * controlSeconds + 2, "the delta waited for the reader: \(seconds) s against \(controlSeconds) s unread")
        // The open transaction still sees its snapshot; the app's next query sees version 2.
        #expect(try reader.scalar("SELECT name FROM stops WHERE stop_id = 's101'")?.string == "Rockridge Station")
        try reader.execute("COMMIT")
        #expect(try await app.version == 2)
        #expect(try await app.searchStops("rockridge bart").map(\.id).contains("s101"))
    }

    /// A full bundle renamed over the file: an open FeedDatabase reopens on its next query.
    @Test func anOpenDatabaseFollowsAFullReplace() async throws {
        let f = try Fixture()
        let db = try f.clientAtVersion1()
        let app = try FeedDatabase(path: db)
        #expect(try await app.version == 1)
        try f.editManifest { $0.deltas = [] }
        #expect(
            try await f.client(db).update() == .downloadedFull(version: 2, bytes: try f.manifest.latest.fullDownload.bytes, reason: .noDeltaPublished(from: 1)))
        #expect(try await app.version == 2)
    }

    /// Offline and server-down are told apart, and say something a rider can read.
    @Test func errorsAnAppCanActOn() async throws {
        let f = try Fixture()
        let db = f.folder.url.appendingPathComponent("e.sqlite")
        let offline = FeedClient(manifest: URL(string: "http://127.0.0.1:9/m/manifest.json")!, database: db, timeout: 5)
        await #expect {
            try await offline.update()
        } throws: { error in
            guard case .offline = error as? ClientError else { return false }
            return (error as? ClientError)?.isTransient == true && (error as? LocalizedError)?.errorDescription?.contains("no connection") == true
        }
        await #expect {
            try await f.client(db, manifest: "broken/m/manifest.json").update()
        } throws: { error in
            guard case .server(_, 500) = error as? ClientError else { return false }
            return !((error as? LocalizedError)?.errorDescription ?? "").contains("FeedClient.ClientError")
        }
        #expect(!FileManager.default.fileExists(atPath: db.path))
    }
}

/// Progress events as they arrive, from the transfer's delegate queue.
final class EventLog: @unchecked Sendable {
    // @unchecked: every access holds the lock.
    private let lock = NSLock()
    private var events: [UpdateProgress] = []

    func append(_ event: UpdateProgress) { lock.withLock { events.append(event) } }
    var all: [UpdateProgress] { lock.withLock { events } }
}
