import BundleFormat
import FeedPipeline
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `feedc build` killed with SIGKILL at random moments, over and over, on Wichita's versions (so
/// that bundles, reports, diffs and deltas are all being written when the kill lands): the
/// manifest is consistent after every kill, and after the next uninterrupted build no file the
/// manifest does not list remains, nor any temporary file, in `out/` or in the system's
/// temporary folder.
@Suite(.serialized, .enabled(if: SharedData.isAvailable && FeedcBinary.suitesRun, "needs ../shared/data and the feedc binary"))
struct CrashHygieneTests {
    @Test func buildsKilledAtRandomMomentsLeaveNothingBehind() throws {
        let feedc = try #require(FeedcBinary.url)
        let dumps = SharedData.zips(in: "versions/wichita")
        try #require(dumps.count > 8)
        let folder = TemporaryFolder()
        let tmp = folder.url.appendingPathComponent("system-tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let out = folder.url.appendingPathComponent("out")
        let current = folder.url.appendingPathComponent("wichita.zip")
        try "output: out\nkeep: 4\nbundles:\n  - name: w\n    max_delta_share: 1.0\n    sources:\n      - id: w\n        path: \(current.path)\n"
            .write(to: folder.url.appendingPathComponent("pipeline.yaml"), atomically: true, encoding: .utf8)
        func point(at dump: URL) throws {
            try? FileManager.default.removeItem(at: current)
            try FileManager.default.createSymbolicLink(at: current, withDestinationURL: dump)
        }
        func start() throws -> Process {
            let process = Process()
            process.executableURL = feedc
            process.arguments = ["build", "--config", folder.url.appendingPathComponent("pipeline.yaml").path]
            process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": tmp.path]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        func cleanBuild() throws {
            let process = try start()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }

        // Two versions published uninterrupted, timing the second: the kill window.
        try point(at: dumps[0])
        try cleanBuild()
        try point(at: dumps[1])
        let begun = Date()
        try cleanBuild()
        let window = Date().timeIntervalSince(begun) * 1.2

        var random = SplitMix(seed: UInt64(ProcessInfo.processInfo.environment["FEEDC_KILL_SEED"] ?? "") ?? 13)
        var killedRunning = 0
        var killsThatLeftDebris = 0
        for trial in 0..<24 {
            try point(at: dumps[2 + trial % (dumps.count - 2)])
            let process = try start()
            let moment = window * Double(random.next() % 1000) / 1000
            Thread.sleep(forTimeInterval: moment)
            if process.isRunning { killedRunning += 1 }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            // Whatever the moment, the published state is whole.
            try expectConsistent(out.appendingPathComponent("w"), "trial \(trial), killed after \(moment) s")
            if try !debris(out).isEmpty { killsThatLeftDebris += 1 }
            if trial % 4 == 3 {
                try cleanBuild()
                try expectNothingLeft(out, tmp, "after trial \(trial)")
            }
        }
        #expect(killedRunning >= 12, "most kills must land while the build runs (\(killedRunning) of 24)")
        // Else the cleanup was never put to work.
        #expect(killsThatLeftDebris > 0, "no kill left a temporary or unlisted file")
    }

    /// Every file the manifest lists exists with the listed size and SHA-256.
    private func expectConsistent(_ bundle: URL, _ context: String) throws {
        guard let data = FileManager.default.contents(atPath: bundle.appendingPathComponent("manifest.json").path) else { return }
        let manifest = try Manifest.decode(data)
        var sized: [(String, Int, String)] = (manifest.versions + [manifest.latest]).map { ($0.file, $0.bytes, $0.sha256) }
        sized += manifest.deltas.map { ($0.file, $0.bytes, $0.sha256) }
        for (path, bytes, sha) in sized {
            let file = FileManager.default.contents(atPath: bundle.appendingPathComponent(path).path)
            #expect(file?.count == bytes, "\(context): \(path) missing or of the wrong size")
            #expect(file.map(sha256Hex) == sha, "\(context): \(path) has another SHA-256")
        }
        for path in manifest.listedFiles {
            #expect(FileManager.default.fileExists(atPath: bundle.appendingPathComponent(path).path), "\(context): \(path) missing")
        }
    }

    /// Files of the bundle folder its manifest does not list, and files in `out/.tmp/`.
    private func debris(_ out: URL) throws -> [String] {
        let bundle = out.appendingPathComponent("w")
        let manifest = try FileManager.default.contents(atPath: bundle.appendingPathComponent("manifest.json").path).map(Manifest.decode)
        let files = Set(
            ((try? FileManager.default.subpathsOfDirectory(atPath: bundle.path)) ?? []).filter { path in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: bundle.appendingPathComponent(path).path, isDirectory: &isFolder) && !isFolder.boolValue
            })
        let unlisted = files.subtracting(manifest?.listedFiles ?? []).subtracting(["manifest.json"])
        let scratch = (try? FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent(".tmp").path)) ?? []
        return unlisted.sorted() + scratch.map { ".tmp/\($0)" }
    }

    /// After an uninterrupted build: a consistent manifest, no file it does not list, no
    /// temporary file in `out/` or in the system's temporary folder.
    private func expectNothingLeft(_ out: URL, _ tmp: URL, _ context: String) throws {
        try expectConsistent(out.appendingPathComponent("w"), context)
        let left = try debris(out)
        #expect(left.isEmpty, "\(context): files no manifest lists, or temporary files: \(left)")
        let system = try FileManager.default.contentsOfDirectory(atPath: tmp.path)
        #expect(system.isEmpty, "\(context): the system temporary folder holds \(system)")
    }
}
