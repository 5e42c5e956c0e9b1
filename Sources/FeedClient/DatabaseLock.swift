import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock` on `<database>.lock`, held for a whole update, so that two processes
/// updating one database (two app processes, `feedc pull`, the Python client, which takes the
/// same lock) take turns instead of losing each other's work or sweeping each other's files.
final class DatabaseLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Waits up to `seconds` for the lock, trying every 100 ms (no thread blocked meanwhile).
    static func acquire(for database: URL, waiting seconds: TimeInterval) async throws(ClientError) -> DatabaseLock {
        let path = database.path + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .local(path: path, reason: "cannot open the lock file: \(String(cString: strerror(errno)))") }
        let deadline = ContinuousClock.now + .seconds(seconds)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw .local(path: path, reason: "cannot lock: \(reason)")
            }
            guard ContinuousClock.now < deadline, !Task.isCancelled else {
                close(descriptor)
                if Task.isCancelled { throw .cancelled }
                throw .busy(path: database.path)
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return DatabaseLock(descriptor: descriptor)
    }

    /// Releases the lock (closing the descriptor releases it too, should the process die).
    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
