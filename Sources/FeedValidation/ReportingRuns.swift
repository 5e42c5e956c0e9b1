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
/// The background threads are the workers' pool threads: a rule queued while fewer than
/// `background` of them drain the queue asks the pool for a free one, which takes queued rules
/// until none is left and goes back to the pool; with none free, the rule waits for the caller.
/// Each rule's sink is written by the one thread running that rule and read only once that rule
/// has ended (`gather` waits for it).
final class ReportingRuns: Sendable {
    private struct Queued {
        let index: Int
        let rule: any ValidationRule
        let feed: Feed
    }

    /// The rules waiting, how many are running elsewhere and how many pool threads drain the
    /// queue; how many rules' sinks have been moved into the build's.
    private struct State {
        var queue: [Queued] = []
        var running = 0
        var draining = 0
        var gathered = 0
    }

    private let sinks: [NoticeSink]
    private let workers: Workers
    private let background: Int
    /// Rules waiting at most: each holds the feed as it was when queued, and a repair that
    /// rewrites a table (stop_times, say) while they wait keeps the older copy alive for them.
    private var maxQueued: Int { 4 * max(1, background) }
    private let state = Locked(State())

    /// `count` rules, the reporting ones run on up to `workers.count - 1` pool threads.
    init(_ count: Int, samplesPerCode: Int, workers: Workers) {
        sinks = (0..<count).map { _ in NoticeSink(samplesPerCode: samplesPerCode) }
        self.workers = workers
        background = workers.count - 1
    }

    /// Rule `index`'s own sink.
    func sink(_ index: Int) -> NoticeSink { sinks[index] }

    /// Queues a rule that only reports, to run on `feed` as it is now. When ``maxQueued`` rules
    /// are already waiting, the oldest of them is run here instead and this one queued in its
    /// place: a long rule arriving last (`TravelSpeedRule`, 60-75 ms on Bydgoszcz, right after a
    /// run of small ones) then goes to a background thread instead of onto the caller's path,
    /// where the repairs after it wait for it.
    func start(_ index: Int, _ rule: any ValidationRule, on feed: Feed) {
        let (oldest, drain) = state.withLock { state -> (Queued?, Bool) in
            state.queue.append(Queued(index: index, rule: rule, feed: feed))
            if state.queue.count > maxQueued { return (state.queue.removeFirst(), false) }
            guard state.draining < background else { return (nil, false) }
            state.draining += 1
            return (nil, true)
        }
        if let oldest {
            run(oldest)
        } else if drain && !workers.startIfFree({ self.drain() }) {
            state.withLock { $0.draining -= 1 }
        }
    }

    /// Runs what is still queued here, waits for the rules running elsewhere, then moves the
    /// notices of rules before `end` into `sink`.
    func gather(upTo end: Int, into sink: NoticeSink) {
        while let next = take() {
            run(next)
            finished()
        }
        let from = state.wait(until: { $0.running == 0 }) { state in
            defer { state.gathered = max(state.gathered, end) }
            return state.gathered
        }
        for index in from..<max(from, end) { sink.absorb(sinks[index]) }
    }

    /// Marks rule `index` as gathered: it wrote into the build's sink itself.
    func skip(_ index: Int) {
        state.withLock { $0.gathered = max($0.gathered, index + 1) }
    }

    /// A pool thread's turn: queued rules until none is left.
    private func drain() {
        while let next = state.withLock({ state -> Queued? in
            guard !state.queue.isEmpty else {
                state.draining -= 1
                return nil
            }
            state.running += 1
            return state.queue.removeFirst()
        }) {
            run(next)
            finished()
        }
    }

    /// The next queued rule, counted as running; nil when the queue is empty.
    private func take() -> Queued? {
        state.withLock { state in
            guard !state.queue.isEmpty else { return nil }
            state.running += 1
            return state.queue.removeFirst()
        }
    }

    private func finished() {
        state.withLock { $0.running -= 1 }
    }

    private func run(_ queued: Queued) {
        var copy = queued.feed
        queued.rule.apply(to: &copy, sink: sinks[queued.index])
    }
}
