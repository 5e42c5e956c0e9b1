import BundleFormat
import FeedModel
import FeedSQLite

/// Copies the tables that map one to one from GTFS into the bundle: feeds, agencies, routes,
/// stops, shapes, frequencies, calendar and calendar_dates, with ids namespaced.
struct StaticTablesCompiler {
    let source: SourceFeed

    func compile(into content: inout BundleContent) {
        let feed = source.feed
        compileFeedInfo(feed.feedInfo, into: &content)

        let agency = feed.agency
        let agencyIds = agency.texts(.agencyId)
        // A route without agency_id belongs to the only agency (or, reported, to the first).
        let firstAgency = agency.count > 0 ? agencyIds[0] : nil
        copy(agency, to: BundleSchema.agencies, into: &content) { row, t in
            [source.ns(agencyIds[row] ?? "")]
                + [
                    FieldKey.agencyName, .agencyUrl, .agencyTimezone, .agencyLang, .agencyPhone,
                    .agencyFareUrl, .agencyEmail,
                ].map { t.text($0, row) }
        }

        let routeAgencies = feed.routes.texts(.agencyId)
        copy(feed.routes, to: BundleSchema.routes, into: &content) { row, t in
            [
                t.id(.routeId, row), source.ns(routeAgencies[row] ?? firstAgency ?? ""),
                t.text(.routeShortName, row), t.text(.routeLongName, row), t.text(.routeDesc, row),
                t.int(.routeType, row), t.text(.routeUrl, row), t.text(.routeColor, row),
                t.text(.routeTextColor, row), t.int(.routeSortOrder, row),
            ]
        }

        copy(feed.stops, to: BundleSchema.stops, into: &content) { row, t in
            [
                t.id(.stopId, row), t.text(.stopCode, row), t.text(.stopName, row), t.text(.stopDesc, row),
                t.real(.stopLat, row), t.real(.stopLon, row), t.int(.locationType, row),
                t.id(.parentStation, row), t.text(.platformCode, row), t.int(.wheelchairBoarding, row),
                t.id(.zoneId, row), t.text(.stopTimezone, row),
            ]
        }

        let shapes = feed.shapes
        if shapes.isPresent {
            let groups = shapes.groups(by: .shapeId, orderedBy: .shapePtSequence)
            let lats = shapes.reals(.shapePtLat)
            let lons = shapes.reals(.shapePtLon)
            for (g, rows) in groups.rows.enumerated() {
                let polyline = Polyline.encode(rows.map { (lats[$0], lons[$0]) })
                content.append(BundleSchema.shapes, [source.ns(groups.keys[g]), .text(polyline), .integer(Int64(rows.count))])
            }
        }

        copy(feed.frequencies, to: BundleSchema.frequencies, into: &content) { row, t in
            [
                t.id(.tripId, row), t.int(.startTime, row), t.int(.endTime, row), t.int(.headwaySecs, row),
                t.int(.exactTimes, row),
            ]
        }
        copy(feed.calendar, to: BundleSchema.calendar, into: &content) { row, t in
            [t.id(.serviceId, row)] + GTFSSchema.calendar.fields.dropFirst().map { t.int($0.key, row) }
        }
        copy(feed.calendarDates, to: BundleSchema.calendarDates, into: &content) { row, t in
            [t.id(.serviceId, row), t.int(.date, row), t.int(.exceptionType, row)]
        }
    }

    private func compileFeedInfo(_ info: Table, into content: inout BundleContent) {
        let fields: [FieldKey] = [.feedPublisherName, .feedPublisherUrl, .feedLang, .feedStartDate, .feedEndDate, .feedVersion]
        let reader = Reader(table: info, source: source)
        let values: [SQLValue] =
            info.count > 0
            ? fields.map { info.schema.field($0.name)!.kind.storage == .integer ? reader.int($0, 0) : reader.text($0, 0) }
            : fields.map { _ in .null }
        content.append(BundleSchema.feeds, [.text(source.id), .text(source.prefix)] + values)
    }

    private func copy(
        _ table: Table, to bundleTable: BundleTable, into content: inout BundleContent,
        _ row: (Int, Reader) -> [SQLValue]
    ) {
        let reader = Reader(table: table, source: source)
        for index in 0..<table.count {
            content.append(bundleTable, row(index, reader))
        }
    }
}

/// Reads typed values out of a table for the bundle, namespacing ids.
struct Reader {
    let table: Table
    /// The source's prefix, put before every id (``SourceFeed/prefix``).
    let prefix: String

    init(table: Table, prefix: String) {
        self.table = table
        self.prefix = prefix
    }

    init(table: Table, source: SourceFeed) {
        self.init(table: table, prefix: source.prefix)
    }

    func text(_ field: FieldKey, _ row: Int) -> SQLValue { self.field(field).text(row) }
    func id(_ field: FieldKey, _ row: Int) -> SQLValue { self.field(field).id(row) }
    func int(_ field: FieldKey, _ row: Int) -> SQLValue { self.field(field).int(row) }
    func real(_ field: FieldKey, _ row: Int) -> SQLValue { self.field(field).real(row) }

    /// One field, looked up once for many rows (a compiler's loop over 25k trips, say).
    func field(_ name: FieldKey) -> Field { Field(column: table.column(name), prefix: prefix) }

    /// One field's values as bundle values.
    struct Field {
        let column: Column
        let prefix: String

        func text(_ row: Int) -> SQLValue { SQLValue(column.description(row)) }
        func id(_ row: Int) -> SQLValue { column.description(row).map { .text(prefix + $0) } ?? .null }
        func int(_ row: Int) -> SQLValue {
            if case .integer(let values) = column { return SQLValue(integer: values[row]) }
            return .null
        }
        func real(_ row: Int) -> SQLValue {
            if case .real(let values) = column { return SQLValue(real: values[row]) }
            return .null
        }
    }
}
