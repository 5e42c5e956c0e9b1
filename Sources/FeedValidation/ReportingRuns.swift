import FeedModel
import Foundation

/// The rules of one ``Validator/validate(_:sink:workers:)`` run with a sink each, the reporting
/// ones on background threads, and their notices gathered into the build's sink in the rules'
/// order.
///
/// `@unchecked Sendable`: each rule's sink is written by the one thread running that rule, and
/// read only after `group` has seen every background rule end.
final class ReportingRuns: @unchecked Sendable {
    private let sinks: [NoticeSink]
    private let group = DispatchGroup()
    /// Free background slots: a reporting rule with none free runs in line.
    private let slots: DispatchSemaphore
    private var gathered = 0

    init(_ count: Int, samplesPerCode: Int, background: Int) {
        sinks = (0..<count).map { _ in NoticeSink(samplesPerCode: samplesPerCode) }
        slots = DispatchSemaphore(value: max(0, background))
    }

    /// Rule `index`'s own sink.
    func sink(_ index: Int) -> NoticeSink { sinks[index] }

    /// Runs a rule that only reports on `feed` as it is now, in the background when a slot is free.
    func start(_ index: Int, _ rule: any ValidationRule, on feed: Feed) {
        let sink = sinks[index]
        guard slots.wait(timeout: .now()) == .success else {
            var copy = feed
            rule.apply(to: &copy, sink: sink)
            return
        }
        // A thread of its own, not a dispatch queue's: the caller may itself be one of a
        // `Workers.map`'s threads and wait below, and a queue's pool need not grow past it.
        group.enter()
        let thread = Thread { [group, slots] in
            var copy = feed
            rule.apply(to: &copy, sink: sink)
            slots.signal()
            group.leave()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Waits for the background rules, then moves the notices of rules before `end` into `sink`.
    func gather(upTo end: Int, into sink: NoticeSink) {
        group.wait()
        while gathered < end {
            sink.absorb(sinks[gathered])
            gathered += 1
        }
    }

    /// Marks rule `index` as gathered: it wrote into the build's sink itself.
    func skip(_ index: Int) {
        gathered = max(gathered, index + 1)
    }
}
