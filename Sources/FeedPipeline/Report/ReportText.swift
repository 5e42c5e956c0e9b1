import FeedModel
import FeedPublish

/// Readable renderings of reports, for terminals.
public enum ReportText {
    /// The validation of one dump: counts, then notices by code with a few examples each.
    public static func render(_ report: FeedCheckReport, examplesPerCode: Int = 3) -> String {
        var out = "\(report.source): \(report.path)\n"
        out += "  \(report.errors) errors, \(report.warnings) warnings"
        out += report.blocking ? "; BLOCKING: a bundle cannot be published from this dump\n" : "\n"
        if !report.seconds.isEmpty {
            out += "  " + report.seconds.sorted { $0.key < $1.key }.map { "\($0.key) \(String(format3: $0.value)) s" }.joined(separator: ", ") + "\n"
        }
        let files = report.rowsRead.keys.sorted()
        if !files.isEmpty {
            out += "  rows read / kept:\n"
            for file in files {
                let read = report.rowsRead[file, default: 0]
                let kept = report.rowsKept[file, default: 0]
                out += "    \(file.padding(24)) \(String(read).leftPadding(9)) / \(String(kept).leftPadding(9))"
                out += read == kept ? "\n" : "  (\(read - kept) dropped)\n"
            }
        }
        for summary in report.notices {
            out +=
                "  \(summary.severity.rawValue.uppercased().padding(7)) \(summary.code) × \(summary.count)\(summary.blocking ? " [blocks publication]" : "")\n"
            for notice in report.samples.filter({ $0.code == summary.code }).prefix(examplesPerCode) {
                out += "          \(notice.location): \(notice.message)"
                if let repair = notice.repair { out += " → \(repair)" }
                out += "\n"
            }
        }
        return out
    }

    /// The build report as text, for a terminal.
    public static func render(_ report: BuildReport) -> String {
        var out: String
        switch report.status {
        case .published: out = "\(report.bundle): published version \(report.version ?? 0) (\(report.digest ?? ""))\n"
        case .unchanged: out = "\(report.bundle): unchanged — \(report.reason ?? "")\n"
        case .refused: out = "\(report.bundle): REFUSED — \(report.reason ?? "")\n"
        case .failed: out = "\(report.bundle): FAILED — \(report.reason ?? "")\n"
        }
        if let upload = report.upload { out += "  " + render(upload) }
        if let deltas = report.deltas, report.status == .published {
            let dropped = report.droppedDeltas ?? []
            out +=
                "  deltas: \(deltas.count) published"
                + (dropped.isEmpty ? "\n" : ", \(dropped.count) dropped (clients at those versions download the full bundle):\n")
            for drop in dropped {
                out += "    from version \(drop.from): \(drop.bytes.map { "\($0) bytes, " } ?? "")\(drop.reason)\n"
            }
        }
        if let end = report.serviceEnd { out += "  " + render(end) + "\n" }
        for source in report.sources {
            out += render(source).split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
        }
        if let network = report.network {
            let kinds = network.transfers.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            out +=
                "  network: \(network.samePlaceLinks) place links (\(network.crossSourceLinks) across sources); transfers on foot: \(kinds.isEmpty ? "none" : kinds)"
            out += network.realtimeTrips > 0 ? "; \(network.realtimeTrips) real-time trip ids\n" : "\n"
            for notice in network.notices { out += "    \(notice.code) (\(notice.severity.rawValue)): \(notice.count)\n" }
        }
        if !report.seconds.isEmpty {
            out += "  time: " + report.seconds.sorted { $0.key < $1.key }.map { "\($0.key) \(String(format3: $0.value)) s" }.joined(separator: ", ") + "\n"
        }
        return out
    }
}

extension ReportText {
    /// "service ends 2026-12-01, in 8 days (warning: within 30 days)".
    public static func render(_ end: ServiceEndCheck) -> String {
        let days = abs(end.daysLeft) == 1 ? "1 day" : "\(abs(end.daysLeft)) days"
        var line =
            end.daysLeft > 0
            ? "service ends \(end.lastDate), in \(days)"
            : end.daysLeft == 0 ? "service ends \(end.lastDate), today" : "service ended \(end.lastDate), \(days) ago"
        switch end.level {
        case .ok: break
        case .warn: line += " (warning: within \(end.warnedWithin ?? 0) days)"
        case .fail: line += " (FAIL: within \(end.failWithinDays ?? 0) days; exit status 3)"
        }
        return line
    }

    /// One line (or two) on an upload to object storage.
    public static func render(_ upload: UploadReport) -> String {
        var line: String
        switch upload.status {
        case .uploaded: line = "uploaded version \(upload.version ?? 0) to \(upload.target): \(upload.uploaded.count) files, \(upload.bytes) bytes"
        case .upToDate: line = "\(upload.target) is up to date (version \(upload.liveVersion ?? upload.version ?? 0))"
        case .failed: line = "UPLOAD FAILED to \(upload.target): \(upload.error ?? "")"
        }
        if upload.status != .failed {
            if upload.alreadyThere > 0 { line += ", \(upload.alreadyThere) already there" }
            if !upload.deleted.isEmpty { line += ", \(upload.deleted.count) pruned" }
            if upload.pruneDeferred > 0 { line += ", \(upload.pruneDeferred) unlisted kept for the grace period" }
        }
        if upload.retries > 0 { line += " (\(upload.retries) retries)" }
        line += " in \(String(format3: upload.seconds)) s\n"
        if let note = upload.note { line += "  \(note)\n" }
        return line
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadding(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
    init(format3 value: Double) { self = String((value * 1000).rounded() / 1000) }
}
