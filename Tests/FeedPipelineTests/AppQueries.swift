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
}
