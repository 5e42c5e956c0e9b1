import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files written whole or not at all: the one atomic write of the package, shared by the build's
/// output folder (``BundleWriter``'s `writeAtomically`) and the publisher's restore.
package enum AtomicFile {
    /// Why a file could not be written: the path and the system's words.
    package struct WriteError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file that could not be written (the target, or the temporary file beside it).
        package var path: String
        /// What the system said.
        package var reason: String

        /// `path: reason`, as the build's and the publisher's messages show it.
        package var description: String { "\(path): \(reason)" }
    }

    /// Writes `data` to `url` atomically: the bytes go to `temporary` (a scratch folder's file;
    /// nil, or one on another file system than `url`: a `.NAME.tmp-PID` file beside it), are
    /// flushed to disk, and the temporary file is renamed over `url`, the rename itself made
    /// durable. Readers see the old file or the new one, never a part.
    package static func write(_ data: Data, to url: URL, via temporary: URL? = nil) throws(WriteError) {
        let staging =
            temporary
            ?? url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: staging.path, contents: nil) else {
                throw WriteError(path: staging.path, reason: "cannot create file")
            }
            let handle = try FileHandle(forWritingTo: staging)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
            guard rename(staging.path, url.path) == 0 else {
                let code = errno
                if code == EXDEV, temporary != nil {
                    // The scratch folder is on another file system: write beside the target instead.
                    try? FileManager.default.removeItem(at: staging)
                    return try write(data, to: url, via: nil)
                }
                throw WriteError(path: url.path, reason: String(cString: strerror(code)))
            }
            // Make the rename itself durable before anything that depends on it (the manifest).
            let folder = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY)
            if folder >= 0 {
                fsync(folder)
                close(folder)
            }
        } catch let error as WriteError {
            try? FileManager.default.removeItem(at: staging)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw WriteError(path: url.path, reason: error.localizedDescription)
        }
    }
}
