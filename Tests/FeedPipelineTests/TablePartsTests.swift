import BundleFormat
@testable import BundleWriter
import FeedModel
import FeedSQLite
import Foundation
import Testing
import TestSupport

/// The bundle's tables are written side by side into part files and copied into the bundle with
/// their indexes (`TableParts`): every table lands in exactly one part, and the bundle the copy
/// gives holds every declared table and index, each index agreeing with its table row for row.
@Suite struct TablePartsTests {
    @Test func everyTableGoesToExactlyOnePartCostliestFirst() {
        let costs = [5, 900, 0, 40, 40, 300, 7, 1, 250, 60]
        let groups = TableParts.assign(costs: costs, parts: 3)
        #expect(groups.flatMap { $0 }.sorted() == Array(costs.indices))
        #expect(groups.count == 3)
        #expect(groups.allSatisfy { $0 == $0.sorted() }, "tables in their declared order within a part")
        // 900 alone fills a part; the other parts share 300, 250, 60, 40, 40, 7, 5, 1 about evenly.
        #expect(groups.contains([1]))
        let loads = groups.filter { $0 != [1] }.map { $0.reduce(0) { $0 + costs[$1] } }
        #expect(abs(loads[0] - loads[1]) <= 60, "\(loads)")
        #expect(TableParts.assign(costs: costs, parts: 3) == groups, "the same costs give the same parts")
        #expect(TableParts.assign(costs: costs, parts: 50).count == costs.count, "no more parts than tables")
        #expect(TableParts.assign(costs: [3], parts: 8) == [[0]])
        #expect(TableParts.assign(costs: BundleSchema.tables.map { _ in 1 }).count <= 8, "SQLite attaches at most 10 databases")
    }

    /// On the sample feed, with the optional R-tree and FTS5: every table and index declared is in
    /// the file, SQLite's integrity check (which compares each index with its table) passes, and
    /// an index answers as a scan of its table does.
    @Test func theCopiedBundleHoldsEveryTableAndIndexIntact() throws {
        let workspace = Workspace()
        let report = try workspace.build(workspace.config(sources: [("metro", SharedData.sample("metro"))], extra: "    sqlite_modules: [rtree, fts5]\n"))
        try #require(report.status == .published, "\(report.reason ?? "")")
        let (database, cleanup) = try BundleFile.open(try workspace.latestBundle())
        defer { cleanup() }
        #expect(try database.rows("PRAGMA integrity_check") == [[.text("ok")]])
        let names = Set(try database.rows("SELECT name FROM sqlite_master WHERE type IN ('table', 'index', 'view')").compactMap { $0[0].string })
        for name in BundleSchema.tables.map(\.name) + BundleSchema.indexes.map(\.name) + ["stop_times"] {
            #expect(names.contains(name), "\(name) missing")
        }
        for index in BundleSchema.indexes {
            let columns = index.columns.joined(separator: ", ")
            let viaIndex = try database.rows("SELECT \(columns) FROM \(index.table) INDEXED BY \(index.name) WHERE \(index.columns[0]) IS NOT NULL OR \(index.columns[0]) IS NULL ORDER BY \(columns)")
            let viaTable = try database.rows("SELECT \(columns) FROM \(index.table) NOT INDEXED ORDER BY \(columns)")
            #expect(viaIndex == viaTable, "\(index.name)")
            #expect(try database.rows("SELECT count(*) FROM \(index.table)") == [[.integer(Int64(viaTable.count))]])
        }
        #expect(try database.rows("SELECT count(*) FROM stops").first?.first.flatMap(\.int) ?? 0 > 0)
    }

    /// The part files go once copied in: only the bundle is left in its folder (here an empty
    /// bundle, every table made from an empty part).
    @Test func noPartFileIsLeftBesideTheBundle() throws {
        let folder = TemporaryFolder()
        let path = folder.url.appendingPathComponent("b.sqlite").path
        _ = try BundleFileWriter.write(BundleContent(), to: path, workers: Workers(3))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["b.sqlite"])
        let database = try Database(path: path)
        #expect(try database.rows("PRAGMA integrity_check") == [[.text("ok")]])
        #expect(try database.rows("SELECT count(*) FROM sqlite_master WHERE type = 'table'") == [[.integer(Int64(BundleSchema.tables.count))]])
    }
}
