import Foundation

/// The virtual environment's python, where `.ci/run` installs gtfs-realtime-bindings (Google's
/// GTFS-Realtime classes: the reference decoder the live layer's oracles read messages with).
public enum RealtimePython {
    public static var url: URL? {
        let venv = SharedData.projectRoot.appendingPathComponent(".build/venv/bin/python")
        return FileManager.default.isExecutableFile(atPath: venv.path) ? venv : nil
    }
}
