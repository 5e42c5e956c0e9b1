import Foundation
import TestSupport

/// Programs the tests run: the feedc binary built beside the tests, and headless Chromium.
enum Tools {
    /// The `feedc` executable of this build.
    static var feedc: URL? { FeedcBinary.url }

    /// Debian's `chromium`, when installed.
    static var chromium: URL? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].map(URL.init(fileURLWithPath:))
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    struct Run {
        var status: Int32
        var output: String
    }

    /// Runs a program to its end (killed after `timeout` seconds) and returns its exit status and
    /// standard output.
    static func run(_ program: URL, _ arguments: [String], timeout: TimeInterval = 120) throws -> Run {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        let box = OutputBox()
        let reader = Thread { box.data = out.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        while !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        return Run(status: process.terminationStatus, output: String(decoding: box.data, as: UTF8.self))
    }
}

/// The reader thread's output, read by the test once the thread has finished.
private final class OutputBox: @unchecked Sendable {
    var data = Data()
}
