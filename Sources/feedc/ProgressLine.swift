import FeedModel
import Foundation

/// One line on standard error, rewritten in place as a long build moves on (stage, source, rows
/// per second), for a person watching a terminal; ended with a newline by ``finish()``. Safe to
/// call from several workers at once: whether a line is shown, and the writes to standard error,
/// are under one lock.
final class ProgressLine: Sendable {
    private let shown = Locked(false)

    /// Replaces the line with `text`, cut to the terminal's width.
    func show(_ text: String) {
        let width = Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? "") ?? 100
        let line = "· " + text
        let cut = line.count > width - 1 ? String(line.prefix(width - 2)) + "…" : line
        shown.withLock { shown in
            // Carriage return, then erase the line: the new text takes the old one's place.
            FileHandle.standardError.write(Data("\r\u{1B}[2K\(cut)".utf8))
            shown = true
        }
    }

    /// Ends the line, so what follows starts on a line of its own.
    func finish() {
        shown.withLock { shown in
            if shown { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
            shown = false
        }
    }
}
