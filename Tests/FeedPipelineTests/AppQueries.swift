import BundleFormat
import FeedModel
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

    /// The rows of the documented query `name`, bound by name with typed values. Every app
    /// binds some other way (Android: all text; JDBC and Android: positional `?` only), so a run
    /// also binds the query's four ways (by name or by position from
    /// docs/positional-queries.json; typed or all as text) and throws unless all give these rows:
    /// the first 40 runs of each query in a test process (the suites on real feeds run some
    /// queries thousands of times; `CoreQueryRunner` checks every run it makes, on the core SQLite).
    static func run(_ name: String, on database: Database, _ parameters: [String: SQLValue]) throws -> [[SQLValue]] {
        guard let sql = all[name] else { throw MissingQuery(name: name) }
        let rows = try rows(database, sql, named: parameters)
        guard
            checked.withLock({ counts in
                counts[name, default: 0] += 1
                return counts[name]! <= 40
            })
        else { return rows }
        let text = parameters.mapValues(asText)
        if !same(try Self.rows(database, sql, named: text), rows) {
            throw BindingDiffers(name: name, binding: "by name, all as text")
        }
        guard let form = positional[name] else { throw MissingQuery(name: name + " (positional)") }
        for (label, values) in [("by position", parameters), ("by position, all as text", text)] {
            let statement = try database.prepare(form.sql)
            try statement.bind(form.parameters.map { values[$0] ?? .null })
            var got: [[SQLValue]] = []
            while try statement.step() { got.append(statement.row()) }
            if !same(got, rows) { throw BindingDiffers(name: name, binding: label) }
        }
        return rows
    }

    /// How many runs of each query had their bindings checked.
    private static let checked = Locked<[String: Int]>([:])

    private static func rows(_ database: Database, _ sql: String, named parameters: [String: SQLValue]) throws -> [[SQLValue]] {
        let statement = try database.prepare(sql)
        try statement.bind(named: parameters)
        var rows: [[SQLValue]] = []
        while try statement.step() { rows.append(statement.row()) }
        return rows
    }

    /// The same rows in the same order. A real computed from a number bound as text may differ
    /// in its last bits (SQLite's own text-to-number conversion is not always the nearest
    /// double: `'-122.261307'`): reals agree to 1e-9 of their size.
    static func same(_ a: [[SQLValue]], _ b: [[SQLValue]]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy { x, y in
                x.count == y.count
                    && zip(x, y).allSatisfy { u, v in
                        if case .real(let p) = u, case .real(let q) = v { return abs(p - q) <= 1e-9 * max(1, abs(p)) }
                        return u == v
                    }
            }
    }

    /// A value as Android's `rawQuery(sql, String[])` binds it: numbers as their text.
    static func asText(_ value: SQLValue) -> SQLValue {
        switch value {
        case .integer(let v): .text(String(v))
        case .real(let v): .text("\(v)")
        default: value
        }
    }

    struct PositionalForm: Decodable {
        var sql: String
        var parameters: [String]
    }

    /// docs/positional-queries.json (scripts/sync-client-queries.py).
    static let positional: [String: PositionalForm] = {
        struct File: Decodable { var queries: [String: PositionalForm] }
        let url = SharedData.projectRoot.appendingPathComponent("docs/positional-queries.json")
        guard let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) else { return [:] }
        return file.queries
    }()

    struct BindingDiffers: Error, CustomStringConvertible {
        let name: String
        let binding: String
        var description: String { "\(name) bound \(binding) gives other rows than bound by name with typed values" }
    }

    struct MissingQuery: Error { let name: String }

    /// The parameters of `stops_near` (and `stops_near_rtree`): a square box of `delta` degrees
    /// of latitude, as wide on the ground in longitude.
    static func near(lat: Double, lon: Double, delta: Double, limit: Int = 20) -> [String: SQLValue] {
        let scale = cos(lat * .pi / 180)
        return [
            "lat": .real(lat), "lon": .real(lon), "dlat": .real(delta), "dlon": .real(min(180, delta / max(scale, 1e-9))),
            "lon_scale": .real(scale), "limit": .integer(Int64(limit)),
        ]
    }

    /// The parameters of `stops_named`: the rider's text folded as the docs say.
    static func named(_ text: String, limit: Int = 20) -> [String: SQLValue] {
        ["query": .text(SearchText.query(text)), "limit": .integer(Int64(limit))]
    }
}
