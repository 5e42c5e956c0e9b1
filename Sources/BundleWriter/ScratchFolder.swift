import Foundation

/// `<output>/.tmp/`: where a build keeps its temporary files (the written bundle before it is
/// gzipped, old versions unpacked to compute deltas, files written aside before their rename),
/// instead of the system's temporary folder, where nobody would remove what a killed build left.
///
/// Used only while the output folder's lock (``OutputLock``) is held, so whatever is found in it
/// when a run starts was left by an interrupted one and can go: ``clear()``.
package struct ScratchFolder: Sendable {
    package let url: URL

    package init(output: URL) {
        url = output.appendingPathComponent(".tmp")
    }

    /// A new path in the folder (created when missing), ending in `suffix`.
    package func file(_ suffix: String) throws(PublishError) -> URL {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw .io(path: url.path, reason: "cannot create the temporary folder: \(error.localizedDescription)")
        }
        return url.appendingPathComponent("\(UUID().uuidString)\(suffix)")
    }

    /// Removes the folder and everything in it.
    package func clear() {
        try? FileManager.default.removeItem(at: url)
    }
}
