import Foundation

/// The `feedc` executable of this build: the tests run from the same products folder.
public enum FeedcBinary {
    public static var url: URL? {
        var folders = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let first = CommandLine.arguments.first {
            let url = URL(fileURLWithPath: first).deletingLastPathComponent()
            folders += [url, url.deletingLastPathComponent()]
        }
        return folders.map { $0.appendingPathComponent("feedc") }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Whether the suites that run the binary run: where it is, and always under `.ci/run`
    /// (`FEEDC_CI_RUN`), where a missing binary must fail them (`#require(FeedcBinary.url)`),
    /// never skip them.
    public static var suitesRun: Bool {
        url != nil || ProcessInfo.processInfo.environment["FEEDC_CI_RUN"] != nil
    }
}
