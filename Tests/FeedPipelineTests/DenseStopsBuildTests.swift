import BundleFormat
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// Issue 41: a build of stops packed into one square, and of a line with a thousand patterns of
/// its own stops, costs what its rows cost. Before, N stops of each of two sources in a 200 m
/// square made the network stage, the opposite stops (a score for every pair of a line's two
/// directions) and the directions (every pattern measured against a list of all the line's
/// stops) quadratic: N = 5,000 took 22 s of CPU, N = 50,000 4.4 GB without the network stage.
/// Bounds on feedc's own peak memory and CPU time, not on wall time.
@Suite struct DenseStopsBuildTests {
    /// `count` stops in a 200 m square, the second source shifted half a cell (as
    /// scripts/bench-dense-network.py), every stop served by a trip of ten.
    private func square(_ prefix: String, _ count: Int, shift: Double) -> [String: String] {
        var files = TinyFeed.files
        let side = Int(Double(count).squareRoot()) + 1
        var stops = "stop_id,stop_name,stop_lat,stop_lon\n"
        for i in 0..<count {
            let north: Double = Double(i / side) * 200 / Double(side) + shift * 100 / Double(side)
            let east: Double = Double(i % side) * 200 / Double(side) + shift * 100 / Double(side)
            stops += "\(prefix)\(i),Plaza \(i % 7)," + String(format: "%.7f,%.7f\n", 53.1 + north / 111_195, 18.0 + east / 66_800)
        }
        files["stops.txt"] = stops
        files["trips.txt"] = "route_id,service_id,trip_id\n" + (0..<(count / 10)).map { "R1,WK,T\($0)\n" }.joined()
        var times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for i in 0..<count {
            let clock = String(format: "08:%02d:00", i % 10)
            times += "T\(i / 10),\(clock),\(clock),\(prefix)\(i),\(i % 10 + 1)\n"
        }
        files["stop_times.txt"] = times
        files["frequencies.txt"] = nil
        return files
    }

    /// One line of `patterns` trips, each through 40 stops of its own along a street.
    private func manyPatterns(_ patterns: Int) -> [String: String] {
        var files = TinyFeed.files
        var stops = "stop_id,stop_name,stop_lat,stop_lon\n"
        for i in 0..<(patterns * 40) {
            stops += "L\(i),Street \(i)," + String(format: "%.7f,18.1\n", 53.2 + Double(i) * 0.000_05)
        }
        files["stops.txt"] = stops
        files["trips.txt"] = "route_id,service_id,trip_id\n" + (0..<patterns).map { "R1,WK,P\($0)\n" }.joined()
        var times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for i in 0..<(patterns * 40) {
            let clock = String(format: "09:%02d:00", i % 40)
            times += "P\(i / 40),\(clock),\(clock),L\(i),\(i % 40 + 1)\n"
        }
        files["stop_times.txt"] = times
        files["frequencies.txt"] = nil
        return files
    }

    @Test func aCrowdedSquareAndAThousandPatternsCostTheirRows() throws {
        let workspace = Workspace()
        _ = try workspace.config(sources: [
            ("a", workspace.folder.feed("a", square("a", 2500, shift: 0))),
            ("b", workspace.folder.feed("b", square("b", 2500, shift: 1))),
            ("long", workspace.folder.feed("long", manyPatterns(1000))),
        ])
        let run = try HostileSourceTests.measure(["build", "--json"], directory: workspace.folder.url)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.peakMB <= 400 && run.cpuSeconds <= 20, "\(run.peakMB) MB, \(run.cpuSeconds) s of CPU")
        print(
            "2 × 2,500 stops in 200 m and 1,000 patterns of 40 stops: \(String(format: "%.0f", run.peakMB)) MB, \(String(format: "%.2f", run.cpuSeconds)) s CPU"
        )
        // Each cut is a notice: places and walks (the network's), opposite stops (a sample
        // names its field), and the long line's directions.
        for code in ["dense_network_capped", "stop_opposites", "directions_work_capped"] {
            #expect(run.output.contains("\"\(code)\""), "\(code)")
        }
        let packed = try workspace.latestBundle()
        let sqlite = workspace.folder.url.appendingPathComponent("dense.sqlite")
        try Data(Gzip.decompress([UInt8](try Data(contentsOf: packed)))).write(to: sqlite)
        let db = try Database(path: sqlite.path, mode: .readOnly)
        func most(_ sql: String) throws -> Int { try db.scalar(sql)?.int ?? -1 }
        #expect(try most("SELECT max(n) FROM (SELECT count(*) AS n FROM same_places GROUP BY stop_id)") <= 48)
        // At most 48 walks and 48 changes within a place a stop (a pair one place is a change,
        // not a walk), and in the square every stop has both.
        #expect(try most("SELECT max(n) FROM (SELECT count(*) AS n FROM stop_transfers WHERE kind = 'walk' GROUP BY from_stop_id)") <= 48)
        #expect(try most("SELECT max(n) FROM (SELECT count(*) AS n FROM stop_transfers WHERE kind = 'station' GROUP BY from_stop_id)") <= 48)
        #expect(try most("SELECT min(n) FROM (SELECT count(*) AS n FROM stop_transfers WHERE from_stop_id LIKE 'a:%' GROUP BY from_stop_id)") >= 48)
        #expect(try most("SELECT count(*) FROM same_places") > 0 && most("SELECT count(*) FROM stop_opposites") > 0)
        // The long line still has its directions, and every one of its trips one of them.
        #expect(try most("SELECT count(*) FROM directions WHERE route_id = 'long:R1'") >= 1)
    }
}
