import FeedModel
@testable import FeedValidation
import Foundation
import Testing

/// The rules that only report run beside the repairs, yet their notices come out in the rules'
/// order, every one of them, whatever the number of workers: also when more rules wait than the
/// queue holds, and the caller runs the oldest waiting one itself.
@Suite struct ReportingRunsTests {
    /// Reports one notice naming it, after `delay` seconds.
    struct Reporting: ValidationRule {
        let name: String
        let delay: Double
        var repairs: Bool { false }
        func apply(to feed: inout Feed, sink: NoticeSink) {
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

    @Test func noticesComeInTheRulesOrderWhenTheQueueOverflows() {
        // The first reporting rule keeps the one background thread busy while 12 more arrive:
        // past 4 waiting, the caller runs the oldest waiting ones itself.
        var rules: [any ValidationRule] = [Reporting(name: "r0", delay: 0.2)]
        for n in 1...12 { rules.append(Reporting(name: "r\(n)", delay: 0.01)) }
        rules.append(Repairing(name: "fix"))
        for n in 13...15 { rules.append(Reporting(name: "r\(n)", delay: 0)) }
        let expected = ["r0"] + (1...12).map { "r\($0)" } + ["fix"] + (13...15).map { "r\($0)" }
        for workers in [1, 2, 3] {
            let sink = NoticeSink(samplesPerCode: 100)
            _ = Validator(rules: rules).validate(Feed(tables: [:]), sink: sink, workers: Workers(workers))
            #expect(sink.samples.map { $0.value ?? "" } == expected, "\(workers) workers")
            #expect(sink.count(severity: .info) == expected.count)
        }
    }
}
