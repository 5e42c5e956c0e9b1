import FeedSQLite
import Foundation
import TestSupport

/// The documented queries run by Python's sqlite3 on the core SQLite
/// (`clients/python/feedc_query.py --batch`): one process per bundle, values typed both ways
/// so an integer never passes for a real and a real reads back to the same double; requests
/// bound the four ways apps bind (by name or position, typed or all text), which must agree.
struct CoreQueryRunner {
    struct Request {
        var name: String
        var parameters: [String: SQLValue]
        /// Parameters bound to rider text folded as apps fold it (Python: `fold_query`).
        var fold: [String: String] = [:]
    }

    /// The core's answer to one request: rows, and the folded parameters; or its error.
    struct Answer {
        var rows: [[SQLValue]]?
        var folded: [String: String]
        var error: String?
    }

    struct Reply {
        var sqliteVersion: String
        var compileOptions: [String]
        var answers: [Answer]
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    let bundle: URL

    /// The ways an app binds a documented query (docs/bundle-format.md, "Binding"): the first
    /// ``boundEveryWay`` requests of each query on a bundle run all four, and any answer other than
    /// the typed named one's is a failure; the rest run by name only (the real-feed suites send
    /// hundreds of requests of some queries, and all four ways made them the slowest suite). Four
    /// a query and a bundle, on 46 bundles a run: 784 requests on a large bundle where 12 made
    /// 1,357 (the Python runner was the largest CPU user among the tests' subprocesses).
    static let bindings = ["named", "text", "positional", "positional_text"]
    static let boundEveryWay = 4

    func run(_ requests: [Request], scratch: URL) throws -> Reply {
        let docs = SharedData.projectRoot.appendingPathComponent("docs/bundle-format.md")
        var seen: [String: Int] = [:]
        let ways: [[String]] = requests.map { request in
            seen[request.name, default: 0] += 1
            return seen[request.name]! <= Self.boundEveryWay ? Self.bindings : ["named"]
        }
        let body: [String: Any] = [
            "bundle": bundle.path, "docs": docs.path,
            "requests": zip(requests, ways).flatMap { request, bindings in
                bindings.map {
                    ["name": request.name, "params": request.parameters.mapValues(Self.encode), "fold": request.fold, "binding": $0] as [String: Any]
                }
            },
        ]
        let file = scratch.appendingPathComponent("requests-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: body).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = CoreSQLite.pythonClientFolder.appendingPathComponent("feedc_query.py")
        let result = try CoreSQLite.python([script.path, "--batch", file.path], timeout: 600)
        let expected = ways.map(\.count).reduce(0, +)
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
            let answers = object["results"] as? [[String: Any]], answers.count == expected
        else {
            throw Failure(description: "feedc_query.py failed (\(result.status)): \(result.error.suffix(2000))")
        }
        let all = try answers.map { answer in
            Answer(
                rows: try (answer["rows"] as? [[Any]])?.map { try $0.map(Self.decode) },
                folded: answer["folded"] as? [String: String] ?? [:], error: answer["error"] as? String)
        }
        var named: [Answer] = []
        var start = 0
        for (request, bindings) in zip(requests, ways) {
            let got = Array(all[start..<start + bindings.count])
            start += bindings.count
            for (binding, answer) in zip(bindings, got).dropFirst() {
                let same = answer.error == got[0].error && AppQueries.same(answer.rows ?? [], got[0].rows ?? [])
                guard same else {
                    throw Failure(
                        description:
                            "\(request.name) bound \(binding) on the core SQLite: \(answer.error ?? "other rows") than bound by name (\(got[0].error ?? "\(got[0].rows?.count ?? 0) rows"))"
                    )
                }
            }
            named.append(got[0])
        }
        return Reply(
            sqliteVersion: object["sqlite_version"] as? String ?? "",
            compileOptions: object["compile_options"] as? [String] ?? [],
            answers: named)
    }

    static func encode(_ value: SQLValue) -> Any {
        switch value {
        case .null: NSNull()
        case .integer(let v): ["i": String(v)]
        case .real(let v): ["r": "\(v)"]
        case .text(let v): ["t": v]
        case .blob(let v): ["b": v.map { String(format: "%02x", $0) }.joined()]
        }
    }

    static func decode(_ value: Any) throws -> SQLValue {
        if value is NSNull { return .null }
        guard let typed = value as? [String: String], typed.count == 1, let (kind, text) = typed.first else {
            throw Failure(description: "not a typed value: \(value)")
        }
        switch kind {
        case "i": if let v = Int64(text) { return .integer(v) }
        case "r": if let v = Double(text) { return .real(v) }
        case "t": return .text(text)
        case "b":
            let digits = Array(text.utf8)
            return .blob(
                stride(from: 0, to: digits.count, by: 2).compactMap {
                    UInt8(String(decoding: digits[$0..<min($0 + 2, digits.count)], as: UTF8.self), radix: 16)
                })
        default: break
        }
        throw Failure(description: "not a typed value: \(value)")
    }
}
