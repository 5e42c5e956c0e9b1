/// GTFS times as text: seconds since the start of the service day written `HH:MM:SS`, hours
/// past 24 for times after midnight (`90600` is `25:10:00`), for notices and reports.
public enum TimeText {
    /// `seconds` since the start of the service day as GTFS writes it (`25:10:00`).
    public static func format(_ seconds: Int) -> String {
        guard seconds != Column.nullInteger else { return "" }
        let sign = seconds < 0 ? "-" : ""
        let s = abs(seconds)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        return "\(sign)\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))"
    }
}
