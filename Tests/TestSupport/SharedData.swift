import Foundation

/// Real feeds in `../shared/data`, beside the project's clone.
///
/// Tests that need them are enabled with `.enabled(if: SharedData.isAvailable)`: a user's clone
/// without `../shared` skips them, and CI (which always has it, and sets `CI=true`) runs them,
/// failing loudly if the folder is missing there.
public enum SharedData {
    /// The project's root folder.
    public static let projectRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    public static let root = projectRoot.deletingLastPathComponent().appendingPathComponent("shared/data")

    public static var isPresent: Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent("gtfs").path) }

    /// True when the data is here, and also on CI, where a missing folder must fail the tests
    /// rather than skip them.
    public static var isAvailable: Bool { isPresent || ProcessInfo.processInfo.environment["CI"] != nil }

    public static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// The zips of a folder under `gtfs/`, sorted by name.
    public static func zips(in folder: String) -> [URL] {
        let dir = root.appendingPathComponent("gtfs").appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".zip") }.sorted().map { dir.appendingPathComponent($0) }
    }

    /// The project's own sample feeds.
    public static func sample(_ name: String) -> URL {
        projectRoot.appendingPathComponent("Samples").appendingPathComponent(name)
    }
}

/// A fresh temporary folder, removed when the value is released.
public final class TemporaryFolder {
    public let url: URL

    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("feedc-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes text files (name → content) into a subfolder and returns its URL.
    @discardableResult
    public func feed(_ name: String, _ files: [String: String]) -> URL {
        let dir = url.appendingPathComponent(name)
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (file, content) in files {
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(file).path, contents: Data(content.utf8))
        }
        return dir
    }
}

/// A minimal valid GTFS feed as text files; tests change one file to make the case they need.
public enum TinyFeed {
    public static let files: [String: String] = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://example.org,Europe/Warsaw\n",
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,53.1,18.0\nS2,Two,53.2,18.1\nS3,Three,53.3,18.2\n",
        "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\n",
        "trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\nR1,WK,T2\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        T1,08:00:00,08:00:00,S1,1
        T1,08:05:00,08:05:00,S2,2
        T1,08:10:00,08:10:00,S3,3
        T2,09:00:00,09:00:00,S1,1
        T2,09:05:00,09:05:00,S2,2
        T2,09:10:00,09:10:00,S3,3

        """,
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260101,20261231\n",
    ]

    /// The tiny feed with some files replaced.
    public static func with(_ changes: [String: String]) -> [String: String] {
        files.merging(changes) { _, new in new }
    }
}
