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
        let agencyIds = agency.texts("agency_id")
        // A route without agency_id belongs to the only agency (or, reported, to the first).
        let firstAgency = agency.count > 0 ? agencyIds[0] : nil
        copy(agency, to: BundleSchema.agencies, into: &content) { row, t in
            [source.ns(agencyIds[row] ?? "")] + ["agency_name", "agency_url", "agency_timezone", "agency_lang", "agency_phone",
                                                 "agency_fare_url", "agency_email"].map { t.text($0, row) }
        }

        let routeAgencies = feed.routes.texts("agency_id")
        copy(feed.routes, to: BundleSchema.routes, into: &content) { row, t in
            [t.id("route_id", row), source.ns(routeAgencies[row] ?? firstAgency ?? ""),
             t.text("route_short_name", row), t.text("route_long_name", row), t.text("route_desc", row),
             t.int("route_type", row), t.text("route_url", row), t.text("route_color", row),
             t.text("route_text_color", row), t.int("route_sort_order", row)]
        }

        copy(feed.stops, to: BundleSchema.stops, into: &content) { row, t in
            [t.id("stop_id", row), t.text("stop_code", row), t.text("stop_name", row), t.text("stop_desc", row),
             t.real("stop_lat", row), t.real("stop_lon", row), t.int("location_type", row),
             t.id("parent_station", row), t.text("platform_code", row), t.int("wheelchair_boarding", row),
             t.id("zone_id", row), t.text("stop_timezone", row)]
        }

        let shapes = feed.shapes
        if shapes.isPresent {
            let groups = shapes.groups(by: "shape_id", orderedBy: "shape_pt_sequence")
            let lats = shapes.reals("shape_pt_lat")
            let lons = shapes.reals("shape_pt_lon")
            for (g, rows) in groups.rows.enumerated() {
                let polyline = Polyline.encode(rows.map { (lats[$0], lons[$0]) })
                content.append(BundleSchema.shapes, [source.ns(groups.keys[g]), .text(polyline), .integer(Int64(rows.count))])
            }
        }

        copy(feed.frequencies, to: BundleSchema.frequencies, into: &content) { row, t in
            [t.id("trip_id", row), t.int("start_time", row), t.int("end_time", row), t.int("headway_secs", row),
             t.int("exact_times", row)]
        }
        copy(feed.calendar, to: BundleSchema.calendar, into: &content) { row, t in
            [t.id("service_id", row)] + GTFSSchema.calendar.fields.dropFirst().map { t.int($0.name, row) }
        }
        copy(feed.calendarDates, to: BundleSchema.calendarDates, into: &content) { row, t in
            [t.id("service_id", row), t.int("date", row), t.int("exception_type", row)]
        }
    }

    private func compileFeedInfo(_ info: Table, into content: inout BundleContent) {
        let fields = ["feed_publisher_name", "feed_publisher_url", "feed_lang", "feed_start_date", "feed_end_date", "feed_version"]
        let reader = Reader(table: info, source: source)
        let values: [SQLValue] = info.count > 0
            ? fields.map { info.schema.field($0)!.kind.storage == .integer ? reader.int($0, 0) : reader.text($0, 0) }
            : fields.map { _ in .null }
        content.append(BundleSchema.feeds, [.text(source.id), .text(source.prefix)] + values)
    }

    private func copy(_ table: Table, to bundleTable: BundleTable, into content: inout BundleContent,
                      _ row: (Int, Reader) -> [SQLValue]) {
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

    func text(_ field: String, _ row: Int) -> SQLValue { self.field(field).text(row) }
    func id(_ field: String, _ row: Int) -> SQLValue { self.field(field).id(row) }
    func int(_ field: String, _ row: Int) -> SQLValue { self.field(field).int(row) }
    func real(_ field: String, _ row: Int) -> SQLValue { self.field(field).real(row) }

    /// One field, looked up once for many rows (a compiler's loop over 25k trips, say).
    func field(_ name: String) -> Field { Field(column: table.column(name), prefix: prefix) }

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
