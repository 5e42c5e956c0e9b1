import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A report page written for people (`feedc validate --html`, `feedc diff --html`): all or
/// nothing. The text goes to a temporary file beside the destination, which is then renamed over
/// it, so a reader (or a CI step attaching it) never sees half a page.
public enum ReportFile {
    /// Why the file could not be written, in the system's words.
    public struct WriteError: Error, CustomStringConvertible, Equatable {
        /// The file that could not be written.
        public var path: String
        /// The system's reason.
        public var reason: String

        /// "cannot write path: reason".
        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// Writes `text` (UTF-8) to `path`, replacing the file whole or not at all.
    public static func write(_ text: String, to path: String) throws(WriteError) {
        let url = URL(fileURLWithPath: path)
        let temp = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp").path
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(path) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let error = failure(path)
                close(fd)
                unlink(temp)
                throw error
            }
            bytes = bytes.dropFirst(written)
        }
        guard close(fd) == 0, rename(temp, path) == 0 else {
            let error = failure(path)
            unlink(temp)
            throw error
        }
    }

    private static func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(fd, buffer, count)
        #else
            Darwin.write(fd, buffer, count)
        #endif
    }

    private static func failure(_ path: String) -> WriteError {
        WriteError(path: path, reason: String(cString: strerror(errno)))
    }
}
