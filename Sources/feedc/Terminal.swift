import ArgumentParser
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

    /// Prints `error: message` on standard error and exits with status 2.
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        Foundation.exit(2)
    }

    static func printJSON(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { fail("cannot encode JSON") }
        FileHandle.standardOutput.write(data)
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
}
