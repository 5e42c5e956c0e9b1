import BundleFormat
import FeedSQLite
import Foundation
import TestSupport

/// The SQL an app runs, read from docs/bundle-format.md (`-- query: name` blocks), so the tests
/// run exactly what the documentation shows.
enum AppQueries {
    static let all: [String: String] = {
        let url = SharedData.projectRoot.appendingPathComponent("docs/bundle-format.md")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
        var out: [String: String] = [:]
        for block in text.components(separatedBy: "```sql\n").dropFirst() {
            guard let end = block.range(of: "\n```") else { continue }
            let sql = String(block[..<end.lowerBound])
            guard sql.hasPrefix("-- query: ") else { continue }
            let name = sql.dropFirst("-- query: ".count).prefix { $0 != "\n" }
            out[String(name)] = sql
        }
        return out
    }()

    static func run(_ name: String, on database: Database, _ parameters: [String: SQLValue]) throws -> [[SQLValue]] {
        guard let sql = all[name] else { throw MissingQuery(name: name) }
        let statement = try database.prepare(sql)
        try statement.bind(named: parameters)
        var rows: [[SQLValue]] = []
        while try statement.step() { rows.append(statement.row()) }
        return rows
    }

    struct MissingQuery: Error { let name: String }

    /// The parameters of `stops_near` (and `stops_near_rtree`): a square box of `delta` degrees
    /// of latitude, as wide on the ground in longitude.
    static func near(lat: Double, lon: Double, delta: Double, limit: Int = 20) -> [String: SQLValue] {
        let scale = cos(lat * .pi / 180)
        return ["lat": .real(lat), "lon": .real(lon), "dlat": .real(delta), "dlon": .real(min(180, delta / max(scale, 1e-9))),
                "lon_scale": .real(scale), "limit": .integer(Int64(limit))]
    }

    /// The parameters of `stops_named`: the rider's text folded as the docs say.
    static func named(_ text: String, limit: Int = 20) -> [String: SQLValue] {
        ["query": .text(SearchText.query(text)), "limit": .integer(Int64(limit))]
    }
}
