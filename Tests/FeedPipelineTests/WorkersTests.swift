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
        func add(_ index: Int) {
            lock.lock()
            indexes.append(index)
            lock.unlock()
        }
        var order: [Int] {
            lock.lock()
            defer { lock.unlock() }
            return indexes
        }
        var count: Int { order.count }
    }

    /// Bodies running at once now, and at most so far.
    final class Running: Sendable {
        private let counts = Locked((now: 0, most: 0))
        func enter() {
            counts.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
        }
        func leave() { counts.withLock { $0.now -= 1 } }
        var most: Int { counts.value.most }
    }

    /// Maps inside a map's items, each leaf with work beside it (as a build nests the sources,
    /// their files and each file's batches): never more than `count` bodies run at once, the
    /// caller's included, on at most `count - 1` threads the pool starts; the results are in order.
    @Test(arguments: [1, 2, 3])
    func nestedWorkStaysWithinTheCount(workers count: Int) {
        let workers = Workers(count)
        let running = Running()
        @Sendable func leaf(_ value: Int) -> Int {
            running.enter()
            Thread.sleep(forTimeInterval: 0.002)
            running.leave()
            return value
        }
        let sums = workers.map(Array(0..<6)) { outer in
            workers.map(Array(0..<8)) { inner in
                let beside = workers.beside { leaf(outer * 100 + inner) }
                return leaf(inner) + beside.wait()
            }.reduce(0, +)
        }
        #expect(sums == (0..<6).map { outer in (0..<8).reduce(0) { $0 + $1 + outer * 100 + $1 } })
        #expect(running.most <= count, "\(running.most) bodies ran at once")
        #expect(workers.pool.threadsStarted <= count - 1)
        #expect(workers.pool.mostRunning <= count - 1)
    }

    /// Work beside the caller that no pool thread has started runs on the thread that waits for
    /// it: with one worker always, and with two while the one pool thread is busy. A producer
    /// asking for a free thread is then told there is none, and nothing is queued.
    @Test func workNobodyStartedRunsInTheWaiter() {
        let alone = Workers(1).beside { ThreadName.current }
        #expect(alone.wait() == ThreadName.current)
        #expect(!Workers(1).startIfFree {})

        let workers = Workers(2)
        let release = Locked(false)
        let holding = workers.beside { release.wait(until: { $0 }) { _ in } }
        // The pool thread takes `holding` and waits in it until released.
        while workers.pool.mostRunning < 1 { Thread.sleep(forTimeInterval: 0.001) }
        let inLine = workers.beside { ThreadName.current }
        #expect(inLine.wait() == ThreadName.current, "run by the waiter, the pool thread being busy")
        #expect(!workers.startIfFree {})
        release.value = true
        holding.wait()
        #expect(workers.pool.threadsStarted == 1)
    }

    /// The producer thread is one, beside the pool's: a second producer finds it busy and is
    /// told so; with one worker there is none.
    @Test func oneProducerAtATime() {
        #expect(!Workers(1).startProducer {})
        let workers = Workers(2)
        let release = Locked(false)
        let ended = Locked(false)
        #expect(
            workers.startProducer {
                release.wait(until: { $0 }) { _ in }
                ended.value = true
            })
        while workers.producers.mostRunning < 1 { Thread.sleep(forTimeInterval: 0.001) }
        #expect(!workers.startProducer {}, "the producer thread is busy")
        #expect(workers.startIfFree {}, "the pool's thread is not")
        release.value = true
        ended.wait(until: { $0 }) { _ in }
        #expect(workers.producers.threadsStarted == 1)
    }

    /// A name for the running thread, to tell threads apart in a `Sendable` value.
    enum ThreadName {
        static var current: String { "\(pthread_self())" }
    }

    @Test func theCountComesFromTheOptionOrTheEnvironment() {
        #expect(Workers(0).count == 1)
        #expect(Workers.fromEnvironment(["FEEDC_WORKERS": "3"]).count == 3)
        #expect(Workers.fromEnvironment(["FEEDC_WORKERS": "none"]).count == ProcessInfo.processInfo.activeProcessorCount)
        #expect(Workers.fromEnvironment([:]).count == ProcessInfo.processInfo.activeProcessorCount)
    }
}
