import Foundation

/// Tests/TestSupport/Fixtures/etag_server.py on 127.0.0.1: serves a folder with ETags and 304s,
/// `/status/N` answers N, `/cut/…` cuts files off halfway. Requests are logged to `log`. Stopped
/// when released, and by itself when the test process ends (its standard input, held open by
/// this object, reaches its end), however long the rest of the test run makes the test wait:
/// `lifetime` is only a last-resort bound, well past CI's 90 minutes.
public final class EtagServer {
    public let port: Int
    public let log: URL
    private let process = Process()
    /// The server's standard input: open while this object lives.
    private let lifeline = Pipe()

    public init(serving folder: URL, log: URL, lifetime: Int = 3 * 3600) throws {
        self.log = log
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = SharedData.projectRoot.appendingPathComponent("Tests/TestSupport/Fixtures/etag_server.py")
        process.arguments = ["python3", script.path, folder.path, String(lifetime), log.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = lifeline
        // Not the tests' own stderr: `swift test` waits for every holder of it to close it.
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw EtagServerError(output: String(decoding: line, as: UTF8.self))
        }
        self.port = port
    }

    deinit {
        try? lifeline.fileHandleForWriting.close()
        // SIGKILL: a child started from a pool thread has SIGTERM blocked.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(path)")! }

    /// Logged requests, "METHOD PATH STATUS".
    public var requests: [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}

public struct EtagServerError: Error {
    public let output: String
}
