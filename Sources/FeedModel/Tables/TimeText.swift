/// GTFS times as text: seconds since the start of the service day written `HH:MM:SS`, hours
/// past 24 for times after midnight (`90600` is `25:10:00`), for notices and reports.
package enum TimeText {
    package static func format(_ seconds: Int) -> String {
        guard seconds != Column.nullInteger else { return "" }
        let sign = seconds < 0 ? "-" : ""
        let s = abs(seconds)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        return "\(sign)\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))"
    }
}
