extension NoticeDescriptions {
    /// feedc's own codes: what the compiler did, formats MobilityData does not read (Kalkati.net,
    /// NextBus, XML), and the codes of `--json` error reports (docs/validation.md lists them).
    static let feedc: [String: String] = [
        // Reading a GTFS dump.
        "i_o_error": "Error in IO operation: the dump (a GTFS archive or folder, a Kalkati or NextBus document) or one of its files could not be read. Nothing can be compiled from it, so it blocks publication.",
        "invalid_quoting": "Text follows a closing quote in some field of the file. The text after the quote is ignored.",
        "invalid_utf8": "The file is not valid UTF-8 from some line on, as GTFS requires. The invalid bytes are replaced with U+FFFD.",
        "unterminated_quote": "A quoted field is still open at the end of the file: a quote is missing. The field is read to the end of the file.",
        "geometry_not_fully_checked": "locations.geojson: the checks of polygon topology (crossing rings, holes, nesting) or of overlapping zones stopped at their bound of work, so a file of very many or very large features is not fully checked. Nothing is repaired; the features are kept.",
        "duplicate_zip_member": "The archive holds two or more entries of one name; tools disagree on which is the file. The last entry is read (as unzip and Python's zipfile do) and the others are ignored; the value is the number of entries.",
        "nul_character_in_field": "A text value holds NUL bytes, which end a string in SQLite's C API and in most apps' string types. They are removed.",
        "field_too_long": "A text value is longer than 64 KiB (65,536 bytes), which no GTFS field needs. It is cut at a Unicode scalar boundary within its first 65,536 bytes.",
        "unsafe_path": "The archive holds an entry whose path leaves the archive (`..` or an absolute path). The entry is ignored.",
        // Joining the sources into one network.
        "place_override_unknown_stop": "A line of the network overrides file names a stop that is not a station or an ungrouped served stop of the bundle (ids include the source's prefix). The line is ignored.",
        "realtime_trip_ids_unavailable": "`realtime_trip_ids: nyct` needs the `mta_trip_id` column of trips.txt, which the dump does not have. Its real-time trips are looked up by `trip_id`.",
        // What the compiler did with the feed.
        "rows_dropped": "Repairs dropped rows of this file; the other notices say why. The value is the number of rows.",
        "rows_removed_with_parent": "Rows that referred to rows dropped by earlier repairs were dropped with them (a trip's stop times, a route's trips).",
        "no_usable_rows": "A required file (agency, stops, routes, trips, stop_times, or both calendars) has no usable row after repairs: the bundle would have no timetable, so it blocks publication.",
        "no_fixed_route_service": "Every trip is GTFS-Flex: the bundle has stops and lines but no timetable. Bundles do not hold GTFS-Flex service.",
        "flex_stop_time_not_compiled": "GTFS-Flex stop times (location groups or zones) are not compiled into bundles. The rows are left out; they are valid and do not count as repairs.",
        "flex_trip_not_compiled": "Trips that are GTFS-Flex only are not compiled into bundles; they are left out.",
        "flex_only_feed": "Every stop time is GTFS-Flex: the bundle will have stops and lines but no timetable.",
        "service_never_active": "A service runs on no day of the week and `calendar_dates.txt` adds no date for it: its trips never run.",
        "stop_time_with_departure_before_arrival_time": "A stop time's `departure_time` is earlier than its `arrival_time`. The trip is dropped.",
        // Enhancements.
        "ambiguous_direction": "Some stop patterns of a route share no stops with the rest, so their direction cannot be inferred; they are put with the route's main direction.",
        "direction_id_contradicts_geometry": "Stop patterns of a route run against the other trips of their `direction_id`. The feed's `direction_id` is kept.",
        "opposite_link_contradicted": "Candidate opposite-stop links were not made: another line serves both stops in the same direction.",
        // Kalkati.net dumps.
        "kalkati_elements_not_compiled": "Kalkati elements with no GTFS counterpart here are not compiled. The value counts them by element.",
        "kalkati_footnote_without_date": "A Kalkati footnote has no `Firstdate` and the `Delivery` no `Firstday`, so its days cannot be placed. The footnote is ignored.",
        "kalkati_invalid_coordinates": "A Kalkati station's coordinates are not a KKJ grid position in Finland. The stop's position is left empty.",
        "kalkati_invalid_stop": "A Kalkati stop of a service has no `StationId` or `Ix`. The stop time is dropped.",
        "kalkati_partial_service_ignored": "Only the first `ServiceNbr` and `ServiceValidity` of a Kalkati service are used; the others are ignored.",
        "kalkati_service_without_number": "A Kalkati service has no usable `ServiceNbr`, so it names no route. The trip is dropped.",
        "kalkati_unknown_mode": "A Kalkati transport mode has no GTFS route type. The route is read as a bus route (3).",
        "legacy_timezone_assumed": "No time zone is configured or known for a legacy (Kalkati or NextBus) dump; one is assumed. Set `timezone:` in pipeline.yaml.",
        // NextBus responses.
        "nextbus_duplicate_route": "A NextBus route is configured again in another routeConfig response. The later one is ignored.",
        "nextbus_element_not_compiled": "A NextBus response element is not compiled. The value is how many there are.",
        "nextbus_error_response": "A saved NextBus response is an error, not data. The file is ignored.",
        "nextbus_route_type_assumed": "NextBus does not say what vehicles run; every route is compiled as a bus route (3).",
        "nextbus_routes_listed_only": "Routes named by a routeList response but described by no routeConfig response are not compiled.",
        "nextbus_schedule_without_route": "A NextBus schedule is for a route no routeConfig response describes. The schedule is ignored.",
        "nextbus_unknown_service_class": "A NextBus service class names no days the NextBus conventions know. The service runs on no day.",
        // XML dumps.
        "xml_malformed": "The XML is not well-formed. It blocks publication.",
        "xml_truncated": "The XML file ends before its root element closes. It blocks publication.",
        "xml_invalid_encoding": "The XML file is not in the encoding it declares. It blocks publication.",
        "xml_entity_refused": "The XML declares or uses an entity; feedc refuses them (they can fetch files or expand without bound). It blocks publication.",
        "xml_value_too_large": "An XML value or element is larger than feedc's limits allow. It blocks publication.",
        "xml_wrong_root": "The XML file's root element is not the one the format expects.",
        "xml_invalid_schema": "The XML schema (`schema:` in pipeline.yaml) could not be read or compiled. It blocks publication.",
        "xml_schema_violation": "The dump is not valid against its XML schema. It is read as far as it makes sense; values that cannot be used are reported.",
        // `--json` error reports: the command failed, not the feed.
        "file_not_found": "The dump or file named on the command line does not exist.",
        "config_error": "pipeline.yaml is not valid; the report says where.",
        "usage_error": "The command line is not valid.",
        "tool_error": "feedc could not do its work (a download, the disk, a manifest); nothing was published.",
    ]
}
