import FeedModel

/// The repairs a build makes to one dump, for the HTML report: each distinct repair of each code
/// (a notice's ``Notice/repair``), with how many notices carry it. (The rows repairs drop per
/// file are in the page's files table.)
struct ValidationRepairs {
    /// One repair of one code.
    struct Entry: Equatable {
        var repair: String
        var code: String
        var severity: Severity
        /// Notices with this repair: exact when every example of the code has it, else the
        /// examples that do (`atLeast`).
        var count: Int
        var atLeast: Bool
        /// The message of the first notice with this repair.
        var example: String
    }

    let report: FeedCheckReport

    /// Repairs in the order of the notice summary (most severe, most frequent first).
    var entries: [Entry] {
        report.notices.flatMap { summary -> [Entry] in
            let samples = report.samples.filter { $0.code == summary.code }
            var counts: [String: Int] = [:]
            var order: [String] = []
            var examples: [String: String] = [:]
            for sample in samples {
                guard let repair = sample.repair else { continue }
                if counts[repair] == nil { order.append(repair) }
                counts[repair, default: 0] += 1
                examples[repair] = examples[repair] ?? sample.message
            }
            let exact = order.count == 1 && counts[order[0]] == samples.count
            return order.map { repair in
                Entry(
                    repair: repair, code: summary.code, severity: summary.severity,
                    count: exact ? summary.count : counts[repair, default: 0], atLeast: !exact && samples.count < summary.count,
                    example: examples[repair, default: ""])
            }
        }
    }

    func html() -> String {
        var out = "<h2>Repairs</h2>\n"
        let entries = entries
        if entries.isEmpty {
            out += "<p>A build repairs nothing in this feed.</p>\n"
        } else {
            out += "<p>What a build does about the notices it repairs; other notices are reported only.</p>\n"
            out += HTMLPage.table(
                ["repair", "code", "severity", "notices", "for example"],
                entries.map {
                    [$0.repair, $0.code, $0.severity.rawValue, $0.atLeast ? "at least \($0.count)" : String($0.count), $0.example]
                })
        }
        return out
    }
}
