import BundleFormat
import FeedSQLite

// The rows of the tables copied from GTFS (``StaticTablesCompiler``) and of `meta`: one struct a
// table, its fields its columns in order (``BundleRow``). Ids carry the source's prefix.

/// A `meta` row (``BundleSchema/meta``).
struct MetaRow: BundleRow {
    static let table = BundleSchema.meta
    let key: String
    let value: String

    @inline(__always) consuming func values() -> [SQLValue] { [key.sqlValue, value.sqlValue] }
    static func read(_ c: inout RowCursor) -> Self { Self(key: c.next(), value: c.next()) }
}

/// A `feeds` row (``BundleSchema/feeds``): one source and its feed_info.txt.
struct FeedRow: BundleRow {
    static let table = BundleSchema.feeds
    let sourceId: String
    let idPrefix: String
    let publisherName: String?
    let publisherUrl: String?
    let lang: String?
    let startDate: Int?
    let endDate: Int?
    let version: String?

    @inline(__always) consuming func values() -> [SQLValue] {
        [
            sourceId.sqlValue, idPrefix.sqlValue, publisherName.sqlValue, publisherUrl.sqlValue, lang.sqlValue,
            startDate.sqlValue, endDate.sqlValue, version.sqlValue,
        ]
    }
    static func read(_ c: inout RowCursor) -> Self {
        Self(
            sourceId: c.next(), idPrefix: c.next(), publisherName: c.next(), publisherUrl: c.next(), lang: c.next(),
            startDate: c.next(), endDate: c.next(), version: c.next())
    }
}

/// An `agencies` row (``BundleSchema/agencies``).
struct AgencyRow: BundleRow {
    static let table = BundleSchema.agencies
    let agencyId: String
    let name: String?
    let url: String?
    let timezone: String?
    let lang: String?
    let phone: String?
    let fareUrl: String?
    let email: String?

    @inline(__always) consuming func values() -> [SQLValue] {
        [
            agencyId.sqlValue, name.sqlValue, url.sqlValue, timezone.sqlValue, lang.sqlValue, phone.sqlValue,
            fareUrl.sqlValue, email.sqlValue,
        ]
    }
    static func read(_ c: inout RowCursor) -> Self {
        Self(
            agencyId: c.next(), name: c.next(), url: c.next(), timezone: c.next(), lang: c.next(), phone: c.next(),
            fareUrl: c.next(), email: c.next())
    }
}

/// A `routes` row (``BundleSchema/routes``).
struct RouteRow: BundleRow {
    static let table = BundleSchema.routes
    let routeId: String?
    let agencyId: String
    let shortName: String?
    let longName: String?
    let description: String?
    let type: Int?
    let url: String?
    let color: String?
    let textColor: String?
    let sortOrder: Int?

    @inline(__always) consuming func values() -> [SQLValue] {
        [
            routeId.sqlValue, agencyId.sqlValue, shortName.sqlValue, longName.sqlValue, description.sqlValue,
            type.sqlValue, url.sqlValue, color.sqlValue, textColor.sqlValue, sortOrder.sqlValue,
        ]
    }
    static func read(_ c: inout RowCursor) -> Self {
        Self(
            routeId: c.next(), agencyId: c.next(), shortName: c.next(), longName: c.next(), description: c.next(),
            type: c.next(), url: c.next(), color: c.next(), textColor: c.next(), sortOrder: c.next())
    }
}

/// A `stops` row (``BundleSchema/stops``).
struct StopRow: BundleRow {
    static let table = BundleSchema.stops
    let stopId: String?
    let code: String?
    let name: String?
    let description: String?
    let lat: Double?
    let lon: Double?
    let locationType: Int?
    let parentStation: String?
    let platformCode: String?
    let wheelchairBoarding: Int?
    let zoneId: String?
    let timezone: String?

    @inline(__always) consuming func values() -> [SQLValue] {
        [
            stopId.sqlValue, code.sqlValue, name.sqlValue, description.sqlValue, lat.sqlValue, lon.sqlValue,
            locationType.sqlValue, parentStation.sqlValue, platformCode.sqlValue, wheelchairBoarding.sqlValue,
            zoneId.sqlValue, timezone.sqlValue,
        ]
    }
    static func read(_ c: inout RowCursor) -> Self {
        Self(
            stopId: c.next(), code: c.next(), name: c.next(), description: c.next(), lat: c.next(), lon: c.next(),
            locationType: c.next(), parentStation: c.next(), platformCode: c.next(), wheelchairBoarding: c.next(),
            zoneId: c.next(), timezone: c.next())
    }
}

/// A `shapes` row (``BundleSchema/shapes``): one shape as an encoded polyline.
struct ShapeRow: BundleRow {
    static let table = BundleSchema.shapes
    let shapeId: String
    let polyline: String
    let pointCount: Int

    @inline(__always) consuming func values() -> [SQLValue] { [shapeId.sqlValue, polyline.sqlValue, pointCount.sqlValue] }
    static func read(_ c: inout RowCursor) -> Self { Self(shapeId: c.next(), polyline: c.next(), pointCount: c.next()) }
}

/// A `frequencies` row (``BundleSchema/frequencies``): one window of a frequency-based trip.
struct FrequencyRow: BundleRow {
    static let table = BundleSchema.frequencies
    let tripId: String?
    let startTime: Int?
    let endTime: Int?
    let headwaySecs: Int?
    let exactTimes: Int?

    @inline(__always) consuming func values() -> [SQLValue] {
        [tripId.sqlValue, startTime.sqlValue, endTime.sqlValue, headwaySecs.sqlValue, exactTimes.sqlValue]
    }
    static func read(_ c: inout RowCursor) -> Self {
        Self(tripId: c.next(), startTime: c.next(), endTime: c.next(), headwaySecs: c.next(), exactTimes: c.next())
    }
}

/// A `calendar` row (``BundleSchema/calendar``): a weekly service pattern.
struct CalendarRow: BundleRow {
    static let table = BundleSchema.calendar
    let serviceId: String?
    let monday: Int?
    let tuesday: Int?
    let wednesday: Int?
    let thursday: Int?
    let friday: Int?
    let saturday: Int?
    let sunday: Int?
    let startDate: Int?
    let endDate: Int?

    @inline(__always) consuming func values() -> [SQLValue] {
        [
            serviceId.sqlValue, monday.sqlValue, tuesday.sqlValue, wednesday.sqlValue, thursday.sqlValue, friday.sqlValue,
            saturday.sqlValue, sunday.sqlValue, startDate.sqlValue, endDate.sqlValue,
        ]
    }
    static func read(_ c: inout RowCursor) -> Self {
        Self(
            serviceId: c.next(), monday: c.next(), tuesday: c.next(), wednesday: c.next(), thursday: c.next(), friday: c.next(),
            saturday: c.next(), sunday: c.next(), startDate: c.next(), endDate: c.next())
    }
}

/// A `calendar_dates` row (``BundleSchema/calendarDates``): service added or removed on a date.
struct CalendarDateRow: BundleRow {
    static let table = BundleSchema.calendarDates
    let serviceId: String?
    let date: Int?
    let exceptionType: Int?

    @inline(__always) consuming func values() -> [SQLValue] { [serviceId.sqlValue, date.sqlValue, exceptionType.sqlValue] }
    static func read(_ c: inout RowCursor) -> Self { Self(serviceId: c.next(), date: c.next(), exceptionType: c.next()) }
}
