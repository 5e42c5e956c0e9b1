/// Calendar dates as day numbers, without Foundation's calendars: exact, fast, deterministic.
/// (Howard Hinnant's `days_from_civil` algorithms, proleptic Gregorian.)
enum CivilDate {
    /// Days since 1970-01-01.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The GTFS integer `YYYYMMDD` of a day number.
    static func yyyymmdd(_ days: Int) -> Int {
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

    /// The day number of `YYYY-MM-DD` (anything after the tenth character, such as a time, is
    /// ignored), or nil.
    static func parse(_ text: String) -> Int? {
        let parts = text.prefix(10).split(separator: "-")
        guard parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), (1...31).contains(d) else { return nil }
        return days(year: y, month: m, day: d)
    }

    /// 0 Monday … 6 Sunday.
    static func weekday(_ days: Int) -> Int {
        ((days % 7) + 7 + 3) % 7
    }
}
