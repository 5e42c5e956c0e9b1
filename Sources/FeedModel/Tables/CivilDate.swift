/// Calendar dates as day numbers (days since 1970-01-01), without Foundation's calendars or time
/// zones: a service day is a calendar date, not an instant. Exact, fast, deterministic (Howard
/// Hinnant's `days_from_civil` algorithms, proleptic Gregorian).
public enum CivilDate {
    /// Days since 1970-01-01.
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The day number of the GTFS integer `YYYYMMDD`, or nil when it is not a valid date.
    public static func day(_ yyyymmdd: Int) -> Int? {
        let y = yyyymmdd / 10000, m = yyyymmdd / 100 % 100, d = yyyymmdd % 100
        guard (1...12).contains(m), (1...31).contains(d), y > 0 else { return nil }
        return days(year: y, month: m, day: d)
    }

    /// The GTFS integer `YYYYMMDD` of a day number.
    public static func yyyymmdd(_ days: Int) -> Int {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return year * 10_000 + month * 100 + day
    }

    /// `YYYY-MM-DD` of a day number.
    public static func iso(_ days: Int) -> String {
        let v = yyyymmdd(days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(v / 10000)-\(two(v / 100 % 100))-\(two(v % 100))"
    }

    /// The day number of `YYYY-MM-DD` (anything after the tenth character, such as a time, is
    /// ignored), or nil.
    public static func parse(_ text: String) -> Int? {
        let parts = text.prefix(10).split(separator: "-")
        guard parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            (1...12).contains(m), (1...31).contains(d)
        else { return nil }
        return days(year: y, month: m, day: d)
    }

    /// 0 Monday … 6 Sunday (1970-01-01 was a Thursday).
    public static func weekday(_ days: Int) -> Int { ((days % 7) + 7 + 3) % 7 }
}
