import FeedModel
import Foundation
import Testing

@testable import FeedValidation

/// The rules that only report run beside the repairs, yet their notices come out in the rules'
/// order, every one of them, whatever the number of workers: also when more rules wait than the
/// queue holds, and the caller runs the oldest waiting one itself.
@Suite struct ReportingRunsTests {
    /// The rules' names in the order they started.
    final class Starts: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [String] = []
        func add(_ name: String) {
            lock.lock()
            names.append(name)
            lock.unlock()
        }
        var all: [String] {
            lock.lock()
            defer { lock.unlock() }
            return names
        }
    }

    /// Reports one notice naming it, after `delay` seconds.
    struct Reporting: ValidationRule {
        let name: String
        let delay: Double
        var starts: Starts?
        var repairs: Bool { false }
        func apply(to feed: inout Feed, sink: NoticeSink) {
            starts?.add(name)
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            sink.add(Notice(code: "rule", severity: .info, file: "x.txt", value: name, message: name))
        }
    }

    /// A repair that reports too, in line.
    struct Repairing: ValidationRule {
        let name: String
        func apply(to feed: inout Feed, sink: NoticeSink) {
            sink.add(Notice(code: "rule", severity: .info, file: "x.txt", value: name, message: name))
        }
    }

    static func rules(_ starts: Starts? = nil) -> [any ValidationRule] {
        // The first reporting rule keeps the background thread busy while 12 more arrive: 3 s
        // (a sleep, no CPU), since on a loaded machine the caller can be off its core for half a
        // second, and then both threads take from the queue at once (seen under .ci/run).
        var rules: [any ValidationRule] = [Reporting(name: "r0", delay: 3, starts: starts)]
        for n in 1...12 { rules.append(Reporting(name: "r\(n)", delay: 0.01, starts: starts)) }
        rules.append(Repairing(name: "fix"))
        for n in 13...15 { rules.append(Reporting(name: "r\(n)", delay: 0, starts: starts)) }
        return rules
    }

    /// One worker runs the rules in line (the reference); two and three queue them.
    @Test func noticesComeInTheRulesOrderWhenTheQueueOverflows() {
        let expected = ["r0"] + (1...12).map { "r\($0)" } + ["fix"] + (13...15).map { "r\($0)" }
        for workers in [1, 2, 3] {
            let sink = NoticeSink(samplesPerCode: 100)
            _ = Validator(rules: Self.rules()).validate(Feed(tables: [:]), sink: sink, workers: Workers(workers))
            #expect(sink.samples.map { $0.value ?? "" } == expected, "\(workers) workers")
            #expect(sink.count(severity: .info) == expected.count)
        }
    }

    /// With one background thread busy (r0 for 3 seconds), past 4 waiting the caller runs
    /// the oldest waiting rule, not the one arriving: the rules start in their order (before,
    /// r5 to r12 ran as they arrived, ahead of r1 to r4).
    @Test func theCallerRunsTheOldestWaitingRule() {
        let starts = Starts()
        _ = Validator(rules: Self.rules(starts)).validate(Feed(tables: [:]), sink: NoticeSink(), workers: Workers(2))
        let order = starts.all.filter { $0 != "r0" }.map { Int($0.dropFirst())! }
        #expect(order == Array(1...15), "started in the order \(order)")
    }
}
