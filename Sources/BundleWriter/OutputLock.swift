#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// An exclusive, non-blocking lock on an output folder (`flock` on `<folder>/.lock`), so two
/// builds never publish into one folder at once. Released when the value is released.
public final class OutputLock {
    private let descriptor: Int32

    public init(folder: URL) throws(PublishError) {
        let path = folder.appendingPathComponent(".lock").path
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .io(path: folder.path, reason: "cannot create the output folder: \(error.localizedDescription)")
        }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw .locked(path: folder.path)
        }
        descriptor = fd
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

/// Writes a file atomically: the bytes go to a temporary file (in `scratch`, `<output>/.tmp/`,
/// when given, else beside the target), are flushed to disk, and the temporary file is renamed
/// over the target. Readers see the old file or the new one, never a part.
public func writeAtomically(_ data: Data, to url: URL, scratch: ScratchFolder? = nil) throws(PublishError) {
    let temporary = try scratch?.file("-" + url.lastPathComponent) ?? url.deletingLastPathComponent()
        .appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)")
    do {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw PublishError.io(path: temporary.path, reason: "cannot create file")
        }
        let handle = try FileHandle(forWritingTo: temporary)
        defer { try? handle.close() }
        try handle.write(contentsOf: data)
        try handle.synchronize()
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            if code == EXDEV, scratch != nil {
                // The output folder spans file systems: write beside the target instead.
                try? FileManager.default.removeItem(at: temporary)
                return try writeAtomically(data, to: url, scratch: nil)
            }
            throw PublishError.io(path: url.path, reason: String(cString: strerror(code)))
        }
        // Make the rename itself durable before anything that depends on it (the manifest).
        let folder = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    } catch let error as PublishError {
        try? FileManager.default.removeItem(at: temporary)
        throw error
    } catch {
        try? FileManager.default.removeItem(at: temporary)
        throw .io(path: url.path, reason: error.localizedDescription)
    }
}
