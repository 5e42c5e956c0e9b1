import FeedModel
import Foundation

/// The rules of one ``Validator/validate(_:sink:workers:)`` run with a sink each, the reporting
/// ones queued for background threads, and their notices gathered into the build's sink in the
/// rules' order.
///
/// The calling thread runs the repairing rules; reporting rules wait in a queue, in order, each
/// with the feed as the repairs before it left it, for one of the `background` threads. When the
/// caller has to gather (a rule reads earlier notices, or the last rule is done) it takes the
/// queued rules itself until none is left, so neither side idles while the other has work.
/// (Before, a reporting rule that found the one background thread busy ran in line, and the
/// caller ended up with most of the work: on Bydgoszcz 21% of the run's CPU on the caller
/// against 10% beside it.) At most ``maxQueued`` rules wait; past that the caller runs the oldest
/// waiting one itself, so the feeds they hold stay few.
///
/// `@unchecked Sendable`: `queue`, `running` and `closed` are only touched under `condition`;
/// each rule's sink is written by the one thread running that rule and read only once that rule
/// has ended (`gather` waits for it).
final class ReportingRuns: @unchecked Sendable {
    private struct Queued {
        let index: Int
        let rule: any ValidationRule
        let feed: Feed
    }

    private let sinks: [NoticeSink]
    private let background: Int
    /// Rules waiting at most: each holds the feed as it was when queued, and a repair that
    /// rewrites a table (stop_times, say) while they wait keeps the older copy alive for them.
    private var maxQueued: Int { 4 * max(1, background) }
    private let condition = NSCondition()
    private var queue: [Queued] = []
    private var running = 0
    private var closed = false
    private var started = false
    private var gathered = 0

    init(_ count: Int, samplesPerCode: Int, background: Int) {
        sinks = (0..<count).map { _ in NoticeSink(samplesPerCode: samplesPerCode) }
        self.background = max(0, background)
    }

    /// Rule `index`'s own sink.
    func sink(_ index: Int) -> NoticeSink { sinks[index] }

    /// Queues a rule that only reports, to run on `feed` as it is now. When ``maxQueued`` rules
    /// are already waiting, the oldest of them is run here instead and this one queued in its
    /// place: a long rule arriving last (`TravelSpeedRule`, 60-75 ms on Bydgoszcz, right after a
    /// run of small ones) then goes to a background thread instead of onto the caller's path,
    /// where the repairs after it wait for it.
    func start(_ index: Int, _ rule: any ValidationRule, on feed: Feed) {
        condition.lock()
        queue.append(Queued(index: index, rule: rule, feed: feed))
        if queue.count > maxQueued {
            let oldest = queue.removeFirst()
            condition.unlock()
            run(oldest, counted: false)
            return
        }
        condition.signal()
        let spawn = !started
        started = true
        condition.unlock()
        if spawn { startThreads() }
    }

    /// Runs what is still queued here, waits for the rules running elsewhere, then moves the
    /// notices of rules before `end` into `sink`.
    func gather(upTo end: Int, into sink: NoticeSink) {
        while let next = take(waiting: false) { run(next) }
        condition.lock()
        while running > 0 { condition.wait() }
        condition.unlock()
        while gathered < end {
            sink.absorb(sinks[gathered])
            gathered += 1
        }
    }

    /// Marks rule `index` as gathered: it wrote into the build's sink itself.
    func skip(_ index: Int) {
        gathered = max(gathered, index + 1)
    }

    /// Lets the background threads end once the queue is empty.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    private func startThreads() {
        for _ in 0..<background {
            // Threads of their own, not a dispatch queue's: the caller may itself be one of a
            // `Workers.map`'s threads, and a queue's pool need not grow past it.
            let thread = Thread { [self] in
                while let next = take(waiting: true) { run(next) }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// The next queued rule, counted as running; nil when the queue is empty (with `waiting`,
    /// once it is also closed).
    private func take(waiting: Bool) -> Queued? {
        condition.lock()
        defer { condition.unlock() }
        while waiting && queue.isEmpty && !closed { condition.wait() }
        guard !queue.isEmpty else { return nil }
        running += 1
        return queue.removeFirst()
    }

    private func run(_ queued: Queued, counted: Bool = true) {
        var copy = queued.feed
        queued.rule.apply(to: &copy, sink: sinks[queued.index])
        guard counted else { return }
        condition.lock()
        running -= 1
        condition.broadcast()
        condition.unlock()
    }
}
