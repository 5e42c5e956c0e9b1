import FeedModel
import Foundation
import Testing

/// `Workers.map`: results in the items' order whatever the count and the finishing order; the
/// first item's error (in order) is the one thrown. (That work overlaps is shown by the build
/// benchmark, not timed here.)
@Suite struct WorkersTests {
    struct Failure: Error, Equatable { let item: Int }

    @Test(arguments: [1, 2, 4, 7])
    func resultsComeInTheItemsOrder(workers: Int) throws {
        let items = Array(0..<64)
        // Later items finish first.
        let squares = Workers(workers).map(items) { item in
            Thread.sleep(forTimeInterval: Double(64 - item) / 20_000)
            return item * item
        }
        #expect(squares == items.map { $0 * $0 })
    }

    @Test func theFirstFailingItemsErrorIsThrown() {
        #expect(throws: Failure(item: 3)) {
            try Workers(4).map(Array(0..<20)) { (item: Int) throws(Failure) -> Int in
                if item == 3 || item == 11 { throw Failure(item: item) }
                return item
            }
        }
    }

    /// Largest first: with one worker taking items one at a time (the other busy on the first
    /// item taken), items start in order of decreasing cost, ties in the items' order; the
    /// results and the error thrown are the items' own order's.
    @Test func largestFirstStartsByCostAndAnswersInOrder() throws {
        let costs = [3, 9, 1, 9, 5, 0, 7]
        let started = Started()
        let doubled = Workers(2).map(Array(costs.indices), largestFirst: { costs[$0] }) { index in
            started.add(index)
            // The first item taken holds its worker until every other item has started.
            if index == 1 { while started.count < costs.count { Thread.sleep(forTimeInterval: 0.001) } }
            return costs[index] * 2
        }
        #expect(doubled == costs.map { $0 * 2 })
        // The two of cost 9 start together, in either order; the rest one after another.
        #expect(Set(started.order.prefix(2)) == [1, 3])
        #expect(Array(started.order.dropFirst(2)) == [6, 4, 0, 2, 5])
        #expect(throws: Failure(item: 2)) {
            try Workers(2).map(Array(costs.indices), largestFirst: { costs[$0] }) { (item: Int) throws(Failure) -> Int in
                if item == 2 || item == 4 { throw Failure(item: item) }
                return item
            }
        }
        #expect(Workers(1).map([5, 1, 9], largestFirst: { $0 }) { $0 + 1 } == [6, 2, 10])
    }

    final class Started: @unchecked Sendable {
        private let lock = NSLock()
        private var indexes: [Int] = []
        func add(_ index: Int) { lock.lock(); indexes.append(index); lock.unlock() }
        var order: [Int] { lock.lock(); defer { lock.unlock() }; return indexes }
        var count: Int { order.count }
    }

    @Test func theCountComesFromTheOptionOrTheEnvironment() {
        #expect(Workers(0).count == 1)
        #expect(Workers.fromEnvironment(["FEEDC_WORKERS": "3"]).count == 3)
        #expect(Workers.fromEnvironment(["FEEDC_WORKERS": "none"]).count == ProcessInfo.processInfo.activeProcessorCount)
        #expect(Workers.fromEnvironment([:]).count == ProcessInfo.processInfo.activeProcessorCount)
    }
}
