import ArgumentParser
import FeedModel
import FeedPipeline
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Output helpers shared by the commands.
enum Terminal {
    static var isInteractive: Bool { isatty(STDERR_FILENO) != 0 }

    /// A progress line on standard error.
    static func status(_ line: String) {
        FileHandle.standardError.write(Data("· \(line)\n".utf8))
    }

    /// Whether the command line asked for JSON: then every failure is also a JSON
    /// `ErrorReport` on standard output (usage errors included, hence read from the arguments).
    static var wantsJSON: Bool { CommandLine.arguments.dropFirst().contains("--json") }

    /// Prints `error: message` on standard error (and, under `--json`, the `ErrorReport` on
    /// standard output) and exits with `status`.
    /// `text` replaces the standard-error line (a usage message prints as the parser words it).
    static func fail(_ report: ErrorReport, status: Int32 = 2, text: String? = nil) -> Never {
        FileHandle.standardError.write(Data(((text ?? "error: \(report.error.message)") + "\n").utf8))
        if wantsJSON { printJSON(report) }
        Foundation.exit(status)
    }

    /// A tool failure given as text: a `tool_error`.
    static func fail(_ message: String, code: NoticeKind = .toolError, file: String? = nil) -> Never {
        fail(ErrorReport(code, message: message, file: file))
    }

    /// A thrown error: its `ErrorReport` (a `ConfigError` keeps its location).
    static func fail(_ error: any Error, file: String? = nil) -> Never {
        fail(ErrorReport(error, file: file))
    }

    /// `value` as JSON on standard output: indented, or on one line (`line`, for JSON lines).
    static func printJSON(_ value: some Encodable, line: Bool = false) {
        let encoder = StableJSON.encoder(oneLine: line)
        guard let data = try? encoder.encode(value) else {
            FileHandle.standardError.write(Data("error: cannot encode JSON\n".utf8))
            Foundation.exit(2)
        }
        writeStandardOutput(data + Data("\n".utf8))
    }

    /// Writes `data` to standard output, or exits with status 2 and a message when it cannot be
    /// written (a full disk, `> /dev/full`): the plain `write(_:)` traps there.
    static func writeStandardOutput(_ data: Data) {
        do {
            try FileHandle.standardOutput.write(contentsOf: data)
        } catch {
            FileHandle.standardError.write(Data("error: cannot write to standard output: \(error.localizedDescription)\n".utf8))
            Foundation.exit(2)
        }
    }
}
