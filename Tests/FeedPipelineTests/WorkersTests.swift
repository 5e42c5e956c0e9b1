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

    @Test func theCountComesFromTheOptionOrTheEnvironment() {
        #expect(Workers(0).count == 1)
        #expect(Workers.fromEnvironment(["FEEDC_WORKERS": "3"]).count == 3)
        #expect(Workers.fromEnvironment(["FEEDC_WORKERS": "none"]).count == ProcessInfo.processInfo.activeProcessorCount)
        #expect(Workers.fromEnvironment([:]).count == ProcessInfo.processInfo.activeProcessorCount)
    }
}
