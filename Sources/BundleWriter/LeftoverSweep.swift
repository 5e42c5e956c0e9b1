import BundleFormat
import Foundation

/// What an interrupted build leaves in a bundle's folder, found and removed before the next one:
/// bundles, deltas and reports the manifest does not list (written before a manifest that never
/// came, or pruned from it without being deleted), and files written aside for a rename that
/// never happened. A file the manifest lists is never removed.
package enum LeftoverSweep {
    /// The folders whose files are published only through the manifest.
    static let listedFolders = ["bundles", "deltas", "reports"]

    /// Paths, relative to the bundle folder `folder`, of the files an interrupted build left.
    /// With no manifest (nothing published yet), every file of the listed folders is one.
    package static func leftovers(in folder: URL, manifest: Manifest?) -> [String] {
        let listed = manifest?.listedFiles ?? []
        var found: [String] = []
        for name in contents(of: folder) where isAsideFile(name) {
            found.append(name)
        }
        for sub in listedFolders {
            for name in contents(of: folder.appendingPathComponent(sub)) where !listed.contains("\(sub)/\(name)") {
                found.append("\(sub)/\(name)")
            }
        }
        return found.sorted()
    }

    /// Removes ``leftovers(in:manifest:)`` and returns what was removed. Call it only while
    /// holding the output folder's lock.
    @discardableResult
    package static func sweep(_ folder: URL, manifest: Manifest?) -> [String] {
        leftovers(in: folder, manifest: manifest).filter { path in
            (try? FileManager.default.removeItem(at: folder.appendingPathComponent(path))) != nil
        }
    }

    /// A file `writeAtomically` wrote beside its target (`.NAME.tmp-PID`), as feedc did before
    /// temporary files moved to ``ScratchFolder``.
    static func isAsideFile(_ name: String) -> Bool {
        name.hasPrefix(".") && name.contains(".tmp-")
    }

    private static func contents(of folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder) && !isFolder.boolValue
        }
    }
}
