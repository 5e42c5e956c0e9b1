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

    typealias Run = Subprocess.Result

    /// Runs a program to its end (killed after `timeout` seconds) and returns its exit status and
    /// standard output.
    static func run(_ program: URL, _ arguments: [String], timeout: TimeInterval = 120) throws -> Run {
        try Subprocess.run(program, arguments, timeout: timeout)
    }
}
