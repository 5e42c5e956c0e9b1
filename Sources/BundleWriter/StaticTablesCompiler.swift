import BundleFormat
import FeedModel

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
        copy(agency, into: &content) { row, t in
            AgencyRow(
                agencyId: source.ns(agencyIds[row] ?? ""), name: t.text(.agencyName, row), url: t.text(.agencyUrl, row),
                timezone: t.text(.agencyTimezone, row), lang: t.text(.agencyLang, row), phone: t.text(.agencyPhone, row),
                fareUrl: t.text(.agencyFareUrl, row), email: t.text(.agencyEmail, row))
        }

        let routeAgencies = feed.routes.texts(.agencyId)
        copy(feed.routes, into: &content) { row, t in
            RouteRow(
                routeId: t.id(.routeId, row), agencyId: source.ns(routeAgencies[row] ?? firstAgency ?? ""),
                shortName: t.text(.routeShortName, row), longName: t.text(.routeLongName, row), description: t.text(.routeDesc, row),
                type: t.int(.routeType, row), url: t.text(.routeUrl, row), color: t.text(.routeColor, row),
                textColor: t.text(.routeTextColor, row), sortOrder: t.int(.routeSortOrder, row))
        }

        copy(feed.stops, into: &content) { row, t in
            StopRow(
                stopId: t.id(.stopId, row), code: t.text(.stopCode, row), name: t.text(.stopName, row), description: t.text(.stopDesc, row),
                lat: t.real(.stopLat, row), lon: t.real(.stopLon, row), locationType: t.int(.locationType, row),
                parentStation: t.id(.parentStation, row), platformCode: t.text(.platformCode, row),
                wheelchairBoarding: t.int(.wheelchairBoarding, row), zoneId: t.id(.zoneId, row), timezone: t.text(.stopTimezone, row))
        }

        let shapes = feed.shapes
        if shapes.isPresent {
            let groups = shapes.groups(by: .shapeId, orderedBy: .shapePtSequence)
            let lats = shapes.reals(.shapePtLat)
            let lons = shapes.reals(.shapePtLon)
            for (g, rows) in groups.rows.enumerated() {
                let polyline = Polyline.encode(rows.map { (lats[$0], lons[$0]) })
                content.append(ShapeRow(shapeId: source.ns(groups.keys[g]), polyline: polyline, pointCount: rows.count))
            }
        }

        copy(feed.frequencies, into: &content) { row, t in
            FrequencyRow(
                tripId: t.id(.tripId, row), startTime: t.int(.startTime, row), endTime: t.int(.endTime, row),
                headwaySecs: t.int(.headwaySecs, row), exactTimes: t.int(.exactTimes, row))
        }
        copy(feed.calendar, into: &content) { row, t in
            CalendarRow(
                serviceId: t.id(.serviceId, row), monday: t.int(.monday, row), tuesday: t.int(.tuesday, row),
                wednesday: t.int(.wednesday, row), thursday: t.int(.thursday, row), friday: t.int(.friday, row),
                saturday: t.int(.saturday, row), sunday: t.int(.sunday, row), startDate: t.int(.startDate, row), endDate: t.int(.endDate, row))
        }
        copy(feed.calendarDates, into: &content) { row, t in
            CalendarDateRow(serviceId: t.id(.serviceId, row), date: t.int(.date, row), exceptionType: t.int(.exceptionType, row))
        }
    }

    private func compileFeedInfo(_ info: Table, into content: inout BundleContent) {
        let t = Reader(table: info, source: source)
        let given = info.count > 0
        content.append(
            FeedRow(
                sourceId: source.id, idPrefix: source.prefix, publisherName: given ? t.text(.feedPublisherName, 0) : nil,
                publisherUrl: given ? t.text(.feedPublisherUrl, 0) : nil, lang: given ? t.text(.feedLang, 0) : nil,
                startDate: given ? t.int(.feedStartDate, 0) : nil, endDate: given ? t.int(.feedEndDate, 0) : nil,
                version: given ? t.text(.feedVersion, 0) : nil))
    }

    /// Appends a row made by `row` for each row of `table`.
    private func copy<Row: BundleRow>(_ table: Table, into content: inout BundleContent, _ row: (Int, Reader) -> Row) {
        let reader = Reader(table: table, source: source)
        for index in 0..<table.count {
            content.append(row(index, reader))
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

    func text(_ field: FieldKey, _ row: Int) -> String? { self.field(field).text(row) }
    func id(_ field: FieldKey, _ row: Int) -> String? { self.field(field).id(row) }
    func int(_ field: FieldKey, _ row: Int) -> Int? { self.field(field).int(row) }
    func real(_ field: FieldKey, _ row: Int) -> Double? { self.field(field).real(row) }

    /// One field, looked up once for many rows (a compiler's loop over 25k trips, say).
    func field(_ name: FieldKey) -> Field { Field(column: table.column(name), prefix: prefix) }

    /// One field's values as bundle values: nil where missing.
    struct Field {
        let column: Column
        let prefix: String

        func text(_ row: Int) -> String? { column.description(row) }
        func id(_ row: Int) -> String? { column.description(row).map { prefix + $0 } }
        func int(_ row: Int) -> Int? {
            if case .integer(let values) = column { return values[row].nilIfMissing }
            return nil
        }
        func real(_ row: Int) -> Double? {
            if case .real(let values) = column { return values[row].nilIfMissing }
            return nil
        }
    }
}
