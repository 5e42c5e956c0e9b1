import Foundation
import TestSupport

/// Programs the tests run: the feedc binary built beside the tests (Chromium is TestSupport's).
enum Tools {
    /// The `feedc` executable of this build.
    static var feedc: URL? { FeedcBinary.url }

    typealias Run = Subprocess.Result

    /// Runs a program to its end (killed after `timeout` seconds) and returns its exit status and
    /// standard output.
    static func run(_ program: URL, _ arguments: [String], timeout: TimeInterval = 120) throws -> Run {
        try Subprocess.run(program, arguments, timeout: timeout)
    }
}
