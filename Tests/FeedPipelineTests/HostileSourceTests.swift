import FeedPipeline
import Foundation
import TestSupport
import Testing

/// The build against a hostile server or file (issue 33): a `url:` dump that never ends, that
/// announces 10 GB or that drips a byte a second ends in a clear error within its bounds, in
/// bounded memory, with what was published intact; a zip followed by 1 GB of zeros is answered
/// at once; `--json` into a full disk exits 2. Run through the real binary, with its peak memory
/// measured by a small parent process (ru_maxrss of that one child).
@Suite(.serialized, .enabled(if: FeedcBinary.suitesRun, "needs the feedc binary of this build"))
struct HostileSourceTests {
    /// feedc run as the only child of a small python3 process: exit status, output, seconds and
    /// peak resident megabytes of feedc itself.
    struct Measured {
        var status: Int32
        var output: String
        var error: String
        var seconds: Double
        var peakMB: Double
        /// feedc's CPU time (user and system): what a bound on work compares, since wall time on
        /// a shared machine grows with whatever else runs.
        var cpuSeconds: Double
    }

    static func measure(_ arguments: [String], directory: URL) throws -> Measured {
        let feedc = try #require(FeedcBinary.url)
        let report = directory.appendingPathComponent("peak-\(UUID().uuidString)")
        let script = """
            import os, sys
            pid = os.fork()
            if pid == 0:
                os.execv(sys.argv[2], sys.argv[2:])
            _, status, usage = os.wait4(pid, 0)
            open(sys.argv[1], "w").write("%d %f" % (usage.ru_maxrss, usage.ru_utime + usage.ru_stime))
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        let python = try #require(Subprocess.python3)
        let start = Date()
        let result = try Subprocess.run(python, ["-c", script, report.path, feedc.path] + arguments, directory: directory, timeout: 120)
        let words = ((try? String(contentsOf: report, encoding: .utf8)) ?? "").split(separator: " ")
        let kilobytes = words.first.flatMap { Double($0) } ?? .infinity
        return Measured(
            status: result.status, output: result.output, error: result.error,
            seconds: Date().timeIntervalSince(start), peakMB: kilobytes / 1024,
            cpuSeconds: words.dropFirst().first.flatMap { Double($0) } ?? .infinity)
    }

    private func pipeline(_ folder: URL, url: String, extra: String = "") throws {
        let yaml = "output: out\nbundles:\n  - name: b\n    sources:\n      - id: remote\n        url: \(url)\n\(extra)"
        try yaml.write(to: folder.appendingPathComponent("pipeline.yaml"), atomically: true, encoding: .utf8)
    }

    /// First a good dump is published; then the same source's server turns hostile. Each attack
    /// fails the build (exit 2) naming its bound, and leaves the published folder as it was.
    @Test func hostileDownloadsEndWithinTheirBounds() throws {
        let folder = TemporaryFolder()
        let www = folder.url.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        let zip = Process()
        zip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        zip.arguments = [
            "python3", "-c", "import shutil,sys; shutil.make_archive(sys.argv[1], 'zip', sys.argv[2])",
            www.appendingPathComponent("feed").path, folder.feed("tiny", TinyFeed.files).path,
        ]
        try zip.run()
        zip.waitUntilExit()
        let server = try EtagServer(serving: www, log: folder.url.appendingPathComponent("server.log"))
        try pipeline(folder.url, url: server.url("feed.zip").absoluteString)
        let good = try Self.measure(["build"], directory: folder.url)
        try #require(good.status == 0, "\(good.error)")
        let manifest = folder.url.appendingPathComponent("out/b/manifest.json")
        let published = try Data(contentsOf: manifest)

        // Peak memory at most 256 MB, as issue 33 asks. Over URLSession on Linux the endless body
        // cost 432 MB to 1.6 GB (FoundationNetworking reads ahead of its delegate without bound);
        // plain http now goes through FeedHTTP's socket reader, as the clients' does. (https
        // still goes through URLSession, whose read-ahead remains: not tested here, no TLS server.)
        // Bounds on feedc's own CPU time, not on wall time (which grows with whatever else the
        // machine runs); the deadline itself is what the drip's error names, and a build that
        // ignored it would be stopped by `measure`'s 120 s and fail on its exit status.
        let cases: [(path: String, extra: String, words: String, cpuSeconds: Double, peakMB: Double)] = [
            // 3 GB without a Content-Length, against a cap of 64 MB.
            ("endless", "        max_download_mb: 64\n", "max_download_mb", 10, 256),
            // 10 GB announced: refused before the body.
            ("huge", "", "declares 10737418240 bytes", 5, 256),
            // One byte a second: never idle for 120 s, so the overall bound ends it, waiting
            // without spinning.
            ("drip", "        download_timeout: 3\n", "not done within 3 s", 2, 256),
        ]
        for attack in cases {
            try pipeline(folder.url, url: server.url(attack.path).absoluteString, extra: attack.extra)
            let run = try Self.measure(["build"], directory: folder.url)
            #expect(run.status == 2, "\(attack.path): \(run.output)\(run.error)")
            #expect((run.output + run.error).contains(attack.words), "\(attack.path): \(run.output)\(run.error)")
            #expect(run.cpuSeconds < attack.cpuSeconds, "\(attack.path): \(run.cpuSeconds) s of CPU")
            if attack.path == "drip" { #expect(run.seconds >= 3, "the drip ended before its deadline: \(run.seconds) s") }
            #expect(run.peakMB < attack.peakMB, "\(attack.path): \(run.peakMB) MB")
            #expect(try Data(contentsOf: manifest) == published, "\(attack.path) changed what was published")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("out/.cache/b").path)
            #expect(!leftovers.contains { $0.hasSuffix(".part") }, "\(attack.path): \(leftovers)")
            print(
                "hostile download \(attack.path): exit \(run.status) in \(String(format: "%.2f", run.seconds)) s (CPU \(String(format: "%.2f", run.cpuSeconds)) s), peak \(String(format: "%.0f", run.peakMB)) MB"
            )
        }
    }

    /// A zip followed by 1 GB of zeros (a sparse file: no disk used): ZIPFoundation's scan for the
    /// end record took about 10 system calls per trailing byte (51 s for 10 MB); now a clear
    /// answer within 2 s of CPU.
    @Test func aZipWithAGigabyteAfterItIsAnsweredAtOnce() throws {
        let folder = TemporaryFolder()
        let zipped = folder.url.appendingPathComponent("feed.zip")
        let zip = Process()
        zip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        zip.arguments = [
            "python3", "-c", "import shutil,sys; shutil.make_archive(sys.argv[1], 'zip', sys.argv[2])",
            zipped.deletingPathExtension().path, folder.feed("tiny", TinyFeed.files).path,
        ]
        try zip.run()
        zip.waitUntilExit()
        let handle = try FileHandle(forWritingTo: zipped)
        try handle.truncate(atOffset: try handle.seekToEnd() + (1 << 30))
        try handle.close()
        let run = try Self.measure(["validate", zipped.path], directory: folder.url)
        #expect(run.status == 2, "\(run.output)\(run.error)")
        // A notice of the report (i_o_error, blocking publication), naming the file.
        #expect(run.output.contains("no zip end record in its last 65,557 bytes"), "\(run.output)\(run.error)")
        #expect(run.output.contains(zipped.path))
        #expect(run.cpuSeconds < 2, "\(run.cpuSeconds) s of CPU (\(run.seconds) s)")
    }

    /// `feedc build --json > /dev/full`: exit status 2 and a message, not a trap (132).
    @Test func jsonIntoAFullDiskExits2() throws {
        let feedc = try #require(FeedcBinary.url)
        let folder = TemporaryFolder()
        try "output: out\nbundles:\n  - name: b\n    sources:\n      - id: s\n        path: \(SharedData.sample("metro").path)\n"
            .write(to: folder.url.appendingPathComponent("pipeline.yaml"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = feedc
        process.arguments = ["build", "--json"]
        process.currentDirectoryURL = folder.url
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let error = Pipe()
        process.standardError = error
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2, "\(message)")
        #expect(message.contains("cannot write to standard output"), "\(message)")
    }
}
