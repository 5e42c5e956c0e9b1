import FeedModel

/// The validation of one dump as one self-contained HTML page (`feedc validate --html`), for
/// maintainers, like MobilityData gtfs-validator's report: a summary (counts by severity, whether
/// a build would publish the feed and what blocks it), rows read and kept per file, the notices
/// by severity and code, each with its description and example rows, and the repairs a build
/// makes. Inline CSS, no script, nothing fetched (``HTMLPage``); every text from the feed is escaped.
public struct ValidationHTML {
    /// Example rows shown per code (the report holds at most the sink's samples per code).
    public var examplesPerCode: Int
    /// feedc's version, shown in the summary and the footer when known.
    public var version: String?

    /// A renderer; `version` nil leaves it out.
    public init(examplesPerCode: Int = 50, version: String? = nil) {
        self.examplesPerCode = examplesPerCode
        self.version = version
    }

    /// The whole page for one dump's validation, ready to be written to a `.html` file.
    public func render(_ report: FeedCheckReport) -> String {
        var body = "<h1>Validation report: \(HTMLPage.escape(report.source))</h1>\n"
        body += summary(report)
        body += rows(report)
        body += overview(report)
        for severity in Severity.allCases.reversed() {
            body += section(severity, report)
        }
        body += ValidationRepairs(report: report).html()
        body +=
            "<footer><p>feedc validate\(version.map { " \(HTMLPage.escape($0))" } ?? ""). Codes and severities are "
            + "MobilityData gtfs-validator's where it has the rule; descriptions marked “feedc” are feedc's own codes "
            + "(docs/validation.md lists them and the deliberate differences).</p></footer>\n"
        return HTMLPage.document(title: "feedc validate: \(report.source)", css: Self.css, body: body)
    }

    /// Notices of a severity, counted (a code raised at several severities counts under each).
    static func infos(_ report: FeedCheckReport) -> Int {
        report.notices.reduce(0) { $0 + $1.count } - report.errors - report.warnings
    }

    private func summary(_ report: FeedCheckReport) -> String {
        var rows = [["feed", report.source], ["path", report.path]]
        if let fingerprint = report.fingerprint { rows.append(["fingerprint", fingerprint]) }
        if let version { rows.append(["feedc", version]) }
        var out = "<h2>Summary</h2>\n" + HTMLPage.table(["", ""], rows)
        out +=
            "<p class=\"counts\">"
            + "<span class=\"badge error\">\(report.errors) ERROR</span> "
            + "<span class=\"badge warning\">\(report.warnings) WARNING</span> "
            + "<span class=\"badge info\">\(Self.infos(report)) INFO</span> notices, of \(report.notices.count) codes</p>\n"
        if report.blocking {
            out += "<p class=\"verdict refused\">A build would <strong>refuse</strong> this feed: the latest published version would stay in place.</p>\n"
            let blocking = report.samples.filter(\.blocksPublication)
            if blocking.isEmpty {
                out += "<p>The dump could not be read.</p>\n"
            } else {
                out +=
                    "<p>What blocks publication:</p>\n<ul class=\"blocking\">"
                    + blocking.prefix(10).map {
                        "<li><code>\(HTMLPage.escape($0.code))</code> \(HTMLPage.escape($0.location)): \(HTMLPage.escape($0.message))</li>"
                    }.joined() + "</ul>\n"
            }
        } else {
            out += "<p class=\"verdict publishable\">A build would <strong>publish</strong> this feed, after the repairs listed below.</p>\n"
            if report.errors > 0 {
                out += "<p>With <code>fail_on_error: true</code> in pipeline.yaml it would refuse it: it has \(report.errors) error notices.</p>\n"
            }
        }
        return out
    }

    private func rows(_ report: FeedCheckReport) -> String {
        let files = Set(report.rowsRead.keys).union(report.rowsKept.keys).sorted()
        guard !files.isEmpty else { return "" }
        let rows = files.map { file in
            [
                file, String(report.rowsRead[file, default: 0]), String(report.rowsKept[file, default: 0]),
                String(report.rowsDropped[file, default: 0]), String(report.rowsLeftOut[file, default: 0]),
            ]
        }
        return "<h2>Files</h2>\n" + HTMLPage.table(["file", "rows read", "kept", "dropped by repairs", "left out (GTFS-Flex)"], rows)
    }

    private func overview(_ report: FeedCheckReport) -> String {
        guard !report.notices.isEmpty else { return "<h2>Notices</h2>\n<p class=\"verdict publishable\">No notices.</p>\n" }
        var out = "<h2>Notices</h2>\n<table><thead><tr><th>severity</th><th>code</th><th>count</th><th>blocks publication</th></tr></thead><tbody>\n"
        for n in report.notices {
            out +=
                "<tr><td><span class=\"badge \(n.severity.rawValue)\">\(n.severity.rawValue.uppercased())</span></td>"
                + "<td><a href=\"#\(anchor(n.code))\"><code>\(HTMLPage.escape(n.code))</code></a></td>"
                + "<td>\(n.count)</td><td>\(n.blocking ? "yes" : "")</td></tr>\n"
        }
        return out + "</tbody></table>\n"
    }

    /// The codes of one severity (most frequent first), each with its description and examples.
    private func section(_ severity: Severity, _ report: FeedCheckReport) -> String {
        let codes = report.notices.filter { $0.severity == severity }
        guard !codes.isEmpty else { return "" }
        let title =
            switch severity {
            case .error: "Errors"
            case .warning: "Warnings"
            case .info: "Information"
            }
        var out = "<h2 class=\"\(severity.rawValue)\">\(title) (\(codes.reduce(0) { $0 + $1.count }))</h2>\n"
        for n in codes {
            out +=
                "<section class=\"code\" id=\"\(anchor(n.code))\">\n<h3><span class=\"badge \(severity.rawValue)\">\(severity.rawValue.uppercased())</span> "
                + "<code>\(HTMLPage.escape(n.code))</code> × \(n.count)\(n.blocking ? " <span class=\"badge blocks\">blocks publication</span>" : "")</h3>\n"
            if let description = NoticeDescriptions.description(of: n.code) {
                let source = NoticeDescriptions.isMobilityData(n.code) ? "MobilityData" : "feedc"
                out += "<p class=\"description\">\(Self.markup(description)) <span class=\"source\">(\(source))</span></p>\n"
            }
            let samples = report.samples.filter { $0.code == n.code }
            let rows = samples.map { s in
                [s.file ?? "", s.line.map(String.init) ?? "", s.field ?? "", s.value ?? "", s.message, s.repair ?? ""]
            }
            out += HTMLPage.table(
                ["file", "line", "field", "value", "message", "repair"], rows,
                limit: examplesPerCode, total: n.count, overflowNote: "(not shown)")
            out += "</section>\n"
        }
        return out
    }

    private func anchor(_ code: String) -> String { "code-" + HTMLPage.escape(code) }

    /// Escaped text with its `backtick` spans as code, as NOTICES.md writes field names.
    public static func markup(_ text: String) -> String {
        let parts = text.split(separator: "`", omittingEmptySubsequences: false)
        guard parts.count % 2 == 1 else { return HTMLPage.escape(text) }
        return parts.enumerated().map { i, part in
            i % 2 == 1 ? "<code>\(HTMLPage.escape(String(part)))</code>" : HTMLPage.escape(String(part))
        }.joined()
    }

    private static let css = """
        h3 { font-size: 15px; margin: 22px 0 4px; }
        code { font: 13px ui-monospace, monospace; background: #f3f3ef; padding: 0 3px; border-radius: 3px; }
        .badge { display: inline-block; padding: 0 6px; border-radius: 4px; color: #fff; font-size: 12px; font-weight: 600; }
        .badge.error { background: #c0392b; } .badge.warning { background: #d68910; } .badge.info { background: #2e86c1; }
        .badge.blocks { background: #222; }
        h2.error { color: #c0392b; } h2.warning { color: #b9770e; } h2.info { color: #2e86c1; }
        .counts { font-size: 16px; }
        .verdict { font-size: 16px; padding: 6px 10px; border-radius: 4px; }
        .verdict.refused { background: #fdecea; border-left: 4px solid #c0392b; }
        .verdict.publishable { background: #eaf7ee; border-left: 4px solid #1a9850; }
        .description { margin: 4px 0; } .source { color: #777; font-size: 12px; }
        td { word-break: break-word; }
        """
}
