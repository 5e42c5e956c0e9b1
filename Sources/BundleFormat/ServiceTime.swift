import FeedModel
import FeedSQLite
import Foundation

/// A moment as the `next_departures` query takes it (docs/bundle-format.md): the service date of
/// the moment in the agency's time zone, and the seconds from the start of that service day and
/// of the previous one, whose trips past 24:00 may still be running.
///
/// GTFS times count from the start of the service day, "noon minus 12 h" local time: midnight,
/// except on the days clocks change, when it is 23:00 or 01:00 of the clock. So at 00:15 on an
/// ordinary day, `after` is 900 and `previousAfter` 87300 (the previous day's `24:15:00`); on the
/// day clocks go forward in spring the two differ by 23 hours, on the day they go back by 25.
public struct ServiceTime: Sendable, Equatable {
    /// The service date, `YYYYMMDD`: the moment's calendar date in the agency's time zone.
    public var date: Int
    /// Seconds from the start of service day `date` to the moment.
    public var after: Int
    /// Seconds from the start of the service day before `date` to the moment.
    public var previousAfter: Int

    /// A moment given by its parts.
    public init(date: Int, after: Int, previousAfter: Int) {
        self.date = date
        self.after = after
        self.previousAfter = previousAfter
    }

    /// The moment `instant` for an agency in `timeZone` (`agencies.timezone`).
    public init(_ instant: Date, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let day = calendar.dateComponents([.year, .month, .day], from: instant)
        let date = day.year! * 10000 + day.month! * 100 + day.day!
        let previous = CivilDate.yyyymmdd(CivilDate.day(date)! - 1)
        self.date = date
        after = Int((instant.timeIntervalSince(Self.start(of: date, timeZone: timeZone))).rounded(.down))
        previousAfter = Int((instant.timeIntervalSince(Self.start(of: previous, timeZone: timeZone))).rounded(.down))
    }

    /// `:date`, `:after` and `:previous_after`, bound by name.
    public var parameters: [String: SQLValue] {
        ["date": .integer(Int64(date)), "after": .integer(Int64(after)), "previous_after": .integer(Int64(previousAfter))]
    }

    /// The start of service day `date` (`YYYYMMDD`) in `timeZone`: local noon minus 12 hours.
    public static func start(of date: Int, timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let noon = calendar.date(from: DateComponents(year: date / 10000, month: date / 100 % 100, day: date % 100, hour: 12))!
        return noon.addingTimeInterval(-12 * 3600)
    }

    /// The moment a departure of the query happens: `departure` seconds after the start of its
    /// `service_date`.
    public static func instant(serviceDate: Int, seconds: Int, timeZone: TimeZone) -> Date {
        start(of: serviceDate, timeZone: timeZone).addingTimeInterval(TimeInterval(seconds))
    }
}
