import FeedModel
import FeedPipeline
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// A dump's files are read side by side and the rules that only report run beside the others,
/// yet the repaired feed and every notice (codes, counts, samples in order) must be what one
/// worker gives: on the small and broken real feeds, some with shapes, fares, Flex and
/// translations, and on every version of Wichita (which has repairs and a blocked empty dump).
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
struct ParallelCheckTests {
    static var dumps: [URL] {
        SharedData.zips(in: "small") + SharedData.zips(in: "broken") + SharedData.zips(in: "versions/wichita")
    }

    @Test func oneAndThreeWorkersCheckAlike() throws {
        let dumps = Self.dumps
        try #require(dumps.count >= 40)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for dump in dumps {
            var reports: [Data] = [], feeds: [[String]] = []
            for workers in [1, 3] {
                var check = FeedCheck(url: dump, source: "s", samplesPerCode: 5, today: 20_000, workers: Workers(workers)).report
                check.seconds = [:]
                reports.append(try encoder.encode(check))
                feeds.append(Self.repaired(dump, workers: workers).map(FeedFingerprint.lines) ?? [])
            }
            #expect(reports[0] == reports[1], "\(dump.lastPathComponent): the notices differ with 3 workers")
            #expect(feeds[0] == feeds[1], "\(dump.lastPathComponent): the repaired feed differs with 3 workers")
        }
    }

    /// The feed as validation leaves it, line numbers and all (`FeedCheck` hands on the frozen
    /// feed without them), read and validated as `FeedCheck` does.
    static func repaired(_ dump: URL, workers: Int) -> Feed? {
        let sink = NoticeSink()
        return GTFSReader(url: dump).read(into: sink, workers: Workers(workers))
            .map { Validator(today: 20_000).validate($0, sink: sink, workers: Workers(workers)) }
    }

    /// The frozen feed keeps every row and value, not the line numbers only notices need.
    @Test func theFrozenFeedForgetsOnlyLineNumbers() throws {
        for dump in SharedData.zips(in: "small").prefix(4) {
            let frozen = try #require(FeedCheck(url: dump, source: "s", today: 20_000, workers: Workers(1)).feed)
            let repaired = try #require(Self.repaired(dump, workers: 1))
            #expect(frozen.rowCounts == repaired.rowCounts)
            #expect(frozen.rowCounts.values.reduce(0, +) > 0)
            #expect(frozen.tables.values.allSatisfy { $0.lines.isEmpty })
            #expect(repaired.tables.values.allSatisfy { $0.lines.count == $0.count })
            // Same values: the fingerprints differ in the lines' hash alone.
            let a = FeedFingerprint.lines(frozen), b = FeedFingerprint.lines(repaired)
            #expect(a.count == b.count)
            #expect(zip(a, b).filter { $0 != $1 }.allSatisfy { $0.0.contains(": lines ") })
        }
    }

    /// The rules the validator may run beside the others (`repairs` false) never change the feed.
    @Test func reportingRulesLeaveTheFeedAsItWas() throws {
        let reporting = Validator.standardRules(today: 20_000).filter { !$0.repairs }
        #expect(reporting.count >= 20)
        let dumps = SharedData.zips(in: "small")
        try #require(dumps.count >= 16)
        for dump in dumps {
            let feed = try #require(Self.repaired(dump, workers: 1))
            let before = FeedFingerprint.lines(feed)
            for rule in reporting {
                var copy = feed
                rule.apply(to: &copy, sink: NoticeSink())
                #expect(FeedFingerprint.lines(copy) == before, "\(dump.lastPathComponent): \(type(of: rule)) changed the feed")
            }
        }
    }
}

/// A feed's content as lines, one per table and column: the name, the rows and a hash of the
/// values (equal within one test run).
enum FeedFingerprint {
    static func lines(_ feed: Feed) -> [String] {
        [feed.dumpFiles.sorted().joined(separator: ",")]
            + feed.tables.keys.sorted().flatMap { name -> [String] in
                let table = feed.tables[name]!
                guard table.isPresent else { return ["\(name): missing"] }
                var lines = Hasher()
                lines.combine(table.lines)
                return ["\(name): lines \(lines.finalize())"]
                    + zip(table.schema.fields, table.columns).map { field, column in
                        var hasher = Hasher()
                        switch column {
                        case .text(let values): hasher.combine(values)
                        case .integer(let values): hasher.combine(values)
                        case .real(let values): for value in values { hasher.combine(value.bitPattern) }
                        case .absent: hasher.combine("absent")
                        }
                        return "\(name).\(field.name): \(table.count) rows, \(hasher.finalize())"
                    }
            }
    }
}
