import Foundation

/// How fast rows went through a stage, for the progress line: "583,402 rows, 1.21M rows/s".
enum RowRate {
    static func describe(rows: Int, seconds: Double) -> String {
        let count = rows.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        guard seconds > 0 else { return "\(count) rows" }
        let rate = Double(rows) / seconds
        let text =
            switch rate {
            case 1_000_000...: String(format: "%.2fM", rate / 1_000_000)
            case 1_000...: String(format: "%.0fk", rate / 1_000)
            default: String(format: "%.0f", rate)
            }
        return "\(count) rows, \(text) rows/s"
    }
}
