import BundleFormat
import FeedSQLite
import Foundation

/// The rest of a rider app's screens: a stop by id, a line's shape, the timetable's dates, and
/// read-only SQL for whatever the API lacks.
extension FeedDatabase {
    /// The stop `id` (a stop, platform, station or entrance), or nil when the bundle has none.
    public func stop(id: String) throws(ClientError) -> StopDetails? {
        guard let row = try run("stop_by_id", ["stop_id": .text(id)]).first else { return nil }
        return StopDetails(
            stop: Stop(
                id: try row.text("stop_id"), name: try row.optionalText("name"), code: try row.optionalText("code"),
                coordinate: try Self.coordinate(row)),
            locationType: try row.optionalInt("location_type") ?? 0, parentStation: try row.optionalText("parent_station"),
            platformCode: try row.optionalText("platform_code"), wheelchairBoarding: try row.optionalInt("wheelchair_boarding"))
    }

    /// The shapes of a line's direction, the one most trips follow first. Empty when its trips
    /// name no shape: draw ``stops(of:direction:)`` in order instead.
    public func shapes(of routeID: String, direction: Int) throws(ClientError) -> [LineShape] {
        try run("direction_shapes", ["route_id": .text(routeID), "direction_index": .integer(Int64(direction))]).map { row throws(ClientError) in
            LineShape(shapeID: try row.text("shape_id"), points: EncodedPolyline.decode(try row.text("polyline")), trips: try row.int("trips"))
        }
    }

    /// The first and last service dates; nil for a bundle with no calendar.
    public func serviceRange() throws(ClientError) -> ServiceRange? {
        guard let row = try run("service_range", [:]).first, let first = try row.optionalInt("first_date"),
            let last = try row.optionalInt("last_date")
        else { return nil }
        return ServiceRange(first: first, last: last)
    }

    /// Whether the timetable still runs at `moment` (in the time zone of the bundle's first
    /// agency), and for how long: ``TimetableStatus/expiring(lastDate:daysLeft:)`` within
    /// `warningDays` of its last service date (and on the morning after it, whose small hours
    /// still run its trips past midnight), ``TimetableStatus/expired(lastDate:)`` after that,
    /// ``TimetableStatus/notYetValid(firstDate:)`` before its first. The range is the calendars'
    /// (`service_range`): a last date on which no trip runs still counts.
    public func timetableStatus(at moment: Date = Date(), warningDays: Int = 7) throws(ClientError) -> TimetableStatus {
        guard let range = try serviceRange() else { return .empty }
        let zoneName = try run("stop_timezone", ["stop_id": .null]).first?.optionalText("timezone") ?? "UTC"
        let zone = TimeZone(identifier: zoneName) ?? TimeZone(identifier: "UTC")!
        let today = ServiceTime(moment, timeZone: zone).date
        guard today >= range.first else { return .notYetValid(firstDate: range.first) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        func day(_ date: Int) -> Date? {
            calendar.date(from: DateComponents(year: date / 10000, month: date / 100 % 100, day: date % 100))
        }
        guard let from = day(today), let to = day(range.last),
            let left = calendar.dateComponents([.day], from: from, to: to).day
        else { return .current(lastDate: range.last) }
        if left < -1 { return .expired(lastDate: range.last) }
        return left < warningDays ? .expiring(lastDate: range.last, daysLeft: max(0, left)) : .current(lastDate: range.last)
    }

    /// Read-only SQL for what the API lacks, against the tables of docs/bundle-format.md;
    /// `arguments` bind `?` in order. The connection is read-only: a write fails with
    /// ``ClientError/badQuery(reason:)``, as does any other SQL error.
    public func read(_ sql: String, _ arguments: [SQLValue] = []) throws(ClientError) -> [[SQLValue]] {
        try readRows(sql, arguments)
    }
}

/// Google's encoded polyline format (precision 1e-5), as the bundle's `shapes.polyline` holds it.
public enum EncodedPolyline {
    /// The points of `text`; a malformed tail ends the list where it starts.
    public static func decode(_ text: String) -> [Coordinate] {
        var points: [Coordinate] = []
        var lat = 0, lon = 0
        var bytes = text.utf8.makeIterator()
        func next() -> Int? {
            var result = 0, shift = 0
            while let byte = bytes.next() {
                let chunk = Int(byte) - 63
                guard (0...63).contains(chunk), shift < 35 else { return nil }
                result |= (chunk & 0x1F) << shift
                shift += 5
                if chunk < 0x20 { return (result & 1) != 0 ? ~(result >> 1) : result >> 1 }
            }
            return nil
        }
        while let dlat = next(), let dlon = next() {
            lat += dlat
            lon += dlon
            points.append(Coordinate(latitude: Double(lat) / 1e5, longitude: Double(lon) / 1e5))
        }
        return points
    }
}
