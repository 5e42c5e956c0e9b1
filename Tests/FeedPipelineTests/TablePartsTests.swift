import BundleFormat
import FeedModel
import FeedSQLite
import Foundation
import TestSupport
import Testing

@testable import BundleWriter

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
            let viaIndex = try database.rows(
                "SELECT \(columns) FROM \(index.table) INDEXED BY \(index.name) WHERE \(index.columns[0]) IS NOT NULL OR \(index.columns[0]) IS NULL ORDER BY \(columns)"
            )
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

    /// Made-up rows for a few tables, out of key order: enough that the tables share out among
    /// several parts and `timing_stops` spans hundreds of pages.
    private static func content(nullRouteAt broken: Int? = nil) -> BundleContent {
        var content = BundleContent()
        for i in (0..<30_000).map({ ($0 * 7_919) % 30_000 }) {
            content.append(TimingStopRow(timingId: "timing \(i / 30)", stopIndex: i % 30, arrivalOffset: i * 60, departureOffset: i * 60 + 30))
        }
        for i in (0..<3_000).reversed() {
            content.append(
                TripRow(
                    tripId: "trip \(i)", routeId: i == broken ? nil : "route \(i % 7)", serviceId: "weekdays", patternId: "pattern \(i % 50)",
                    timingId: "timing \(i % 1_000)", startTime: i * 60, headsign: "Centrum", shortName: nil, directionId: i % 2, blockId: nil,
                    wheelchairAccessible: nil, bikesAllowed: nil))
        }
        for i in (0..<2_000).reversed() {
            content.append(
                StopRow(
                    stopId: "stop \(i)", code: nil, name: "Stop \(i)", description: nil, lat: 53.1 + Double(i) / 10_000,
                    lon: 18.0 + Double(i) / 7_000, locationType: nil, parentStation: i % 10 == 0 ? nil : "stop \(i / 10 * 10)",
                    platformCode: nil, wheelchairBoarding: nil, zoneId: nil, timezone: nil))
        }
        for i in (0..<5_000).map({ ($0 * 31) % 5_000 }) {
            content.append(
                PatternStopRow(
                    patternId: "pattern \(i / 100)", stopIndex: i % 100, stopSequence: i % 100 + 1, stopId: "stop \(i % 2_000)", pickupType: nil,
                    dropOffType: nil,
                    headsign: nil, shapeDistTraveled: nil, timepoint: nil))
        }
        return content
    }

    /// The bundle's bytes come from its rows alone: one part written alone, or eight written by
    /// three workers, give the same file.
    @Test func oneOrEightPartsGiveTheSameBytes() throws {
        let content = Self.content()
        let costs = BundleSchema.tables.map { TableParts.cost(rows: content.count($0), columns: $0.columns.count) }
        try #require(TableParts.assign(costs: costs).count >= 4, "the rows share out among several parts")
        let folder = TemporaryFolder()
        let one = folder.url.appendingPathComponent("one.sqlite").path, eight = folder.url.appendingPathComponent("eight.sqlite").path
        let digestOne = try BundleFileWriter.write(content, to: one, workers: Workers(1), parts: 1)
        let digestEight = try BundleFileWriter.write(content, to: eight, workers: Workers(3), parts: 8)
        #expect(digestOne == digestEight)
        #expect(FileManager.default.contents(atPath: one) == FileManager.default.contents(atPath: eight))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["eight.sqlite", "one.sqlite"])
    }

    /// The copy is SQLite's transfer optimisation, which appends whole records: the file has
    /// fewer pages than the same rows inserted row by row in key order, with the indexes made
    /// after (as bundles were written before), and the same content.
    @Test func theCopyPacksPagesFullerThanRowByRowInserts() throws {
        let content = Self.content()
        let folder = TemporaryFolder()
        let copied = folder.url.appendingPathComponent("copied.sqlite").path, inserted = folder.url.appendingPathComponent("inserted.sqlite").path
        let digest = try BundleFileWriter.write(content, to: copied, workers: Workers(2), parts: 8)
        let reference = try Database(path: inserted, mode: .create)
        try reference.execute("PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; BEGIN")
        for table in BundleSchema.tables {
            try reference.execute(table.ddl)
            let insert = try reference.prepare(table.insertSQL)
            let keys = table.primaryKey.map { key in table.columns.firstIndex { $0.name == key }! }
            let rows = content.rows(of: table)
            for index in rows.indices.sorted(by: { SQLValue.sqliteOrder(rows[$0], rows[$1], at: keys) < 0 }) { try insert.run(rows[index]) }
        }
        for statement in BundleSchema.derivedDDL { try reference.execute(statement) }
        try reference.execute("COMMIT")
        #expect(try ContentDigest.compute(reference) == digest)
        let pages = { (path: String) throws -> Int in try Database(path: path).rows("PRAGMA page_count").first?.first?.int ?? 0 }
        let copiedPages = try pages(copied), insertedPages = try pages(inserted)
        #expect(copiedPages < insertedPages * 95 / 100, "\(copiedPages) pages copied against \(insertedPages) inserted")
    }

    /// A row a part cannot take (NULL in a NOT NULL column) fails the write with SQLite's error,
    /// and no part file, nor a bundle, is left in the folder.
    @Test func aFailingPartLeavesNothingBehind() throws {
        let folder = TemporaryFolder()
        let path = folder.url.appendingPathComponent("b.sqlite").path
        #expect(throws: SQLiteError.self) { try BundleFileWriter.write(Self.content(nullRouteAt: 1_234), to: path, workers: Workers(2), parts: 8) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [])
    }
}
