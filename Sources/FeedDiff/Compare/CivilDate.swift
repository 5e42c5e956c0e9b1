/// Dates as day numbers (days since 1970-01-01), converted to and from GTFS `YYYYMMDD` without
/// time zones: a service day is a calendar date, not an instant.
enum CivilDate {
    /// The day number of `YYYYMMDD`, or nil when it is not a valid date.
    static func day(_ yyyymmdd: Int) -> Int? {
        let y = yyyymmdd / 10000, m = yyyymmdd / 100 % 100, d = yyyymmdd % 100
        guard (1...12).contains(m), (1...31).contains(d), y > 0 else { return nil }
        // Howard Hinnant's days_from_civil.
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// `YYYYMMDD` of a day number.
    static func yyyymmdd(_ day: Int) -> Int {
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return y * 10000 + m * 100 + d
    }

    /// `YYYY-MM-DD`.
    static func iso(_ day: Int) -> String {
        let v = yyyymmdd(day)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(v / 10000)-\(two(v / 100 % 100))-\(two(v % 100))"
    }

    /// 0 Monday … 6 Sunday (1970-01-01 was a Thursday).
    static func weekday(_ day: Int) -> Int { ((day + 3) % 7 + 7) % 7 }

    static func dayType(_ day: Int) -> DayType {
        switch weekday(day) {
        case 5: .saturday
        case 6: .sunday
        default: .weekday
        }
    }
}
