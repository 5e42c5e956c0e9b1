import FeedModel
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive, non-blocking lock on an output folder (`flock` on `<folder>/.lock`), so two
/// builds never publish into one folder at once. Released when the value is released.
package final class OutputLock {
    private let descriptor: Int32

    package init(folder: URL) throws(PublishError) {
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

/// As ``writeAtomically(_:to:scratch:)-(Data,_,_)``, `bytes` written where they are: a
/// bundle's gzipped bytes copied into a `Data` first were 59 MB more of a hostile square's
/// peak (issue 41).
package func writeAtomically(_ bytes: [UInt8], to url: URL, scratch: ScratchFolder? = nil) throws(PublishError) {
    try bytes.withUnsafeBytes { buffer in
        Result { () throws(PublishError) in
            let data = buffer.baseAddress.map { Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: buffer.count, deallocator: .none) } ?? Data()
            try writeAtomically(data, to: url, scratch: scratch)
        }
    }.get()
}

/// Writes a file atomically (``AtomicFile/write(_:to:via:)``), the temporary file in `scratch`
/// (`<output>/.tmp/`) when given, else beside the target. Readers see the old file or the new
/// one, never a part.
package func writeAtomically(_ data: Data, to url: URL, scratch: ScratchFolder? = nil) throws(PublishError) {
    let temporary = try scratch?.file("-" + url.lastPathComponent)
    do {
        try AtomicFile.write(data, to: url, via: temporary)
    } catch {
        throw .io(path: error.path, reason: error.reason)
    }
}
