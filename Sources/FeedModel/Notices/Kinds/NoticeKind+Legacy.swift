extension NoticeKind {
    /// Legacy dumps: Kalkati.net and NextBus, and the XML they are written in.
    static let legacyKinds: [NoticeKind] = [
        .kalkatiElementsNotCompiled, .kalkatiFootnoteWithoutDate, .kalkatiInvalidCoordinates, .kalkatiInvalidStop,
        .kalkatiPartialServiceIgnored, .kalkatiServiceWithoutNumber, .kalkatiUnknownMode, .legacyTimezoneAssumed,
        .nextbusDuplicateRoute, .nextbusElementNotCompiled, .nextbusErrorResponse, .nextbusRouteTypeAssumed,
        .nextbusRoutesListedOnly, .nextbusScheduleWithoutRoute, .nextbusUnknownServiceClass, .xmlMalformed,
        .xmlTruncated, .xmlInvalidEncoding, .xmlEntityRefused, .xmlValueTooLarge, .xmlWrongRoot, .xmlInvalidSchema,
        .xmlSchemaViolation,
    ]

    package static let kalkatiElementsNotCompiled = NoticeKind(
        "kalkati_elements_not_compiled", .info, .feedc,
        "Kalkati elements with no GTFS counterpart here are not compiled. The value counts them by element.")

    package static let kalkatiFootnoteWithoutDate = NoticeKind(
        "kalkati_footnote_without_date", .error, .feedc,
        "A Kalkati footnote has no `Firstdate` and the `Delivery` no `Firstday`, so its days cannot be placed. The footnote is ignored.")

    package static let kalkatiInvalidCoordinates = NoticeKind(
        "kalkati_invalid_coordinates", .warning, .feedc,
        "A Kalkati station's coordinates are not a KKJ grid position in Finland. The stop's position is left empty.")

    package static let kalkatiInvalidStop = NoticeKind(
        "kalkati_invalid_stop", .error, .feedc,
        "A Kalkati stop of a service has no `StationId` or `Ix`. The stop time is dropped.")

    package static let kalkatiPartialServiceIgnored = NoticeKind(
        "kalkati_partial_service_ignored", .info, .feedc,
        "Only the first `ServiceNbr` and `ServiceValidity` of a Kalkati service are used; the others are ignored.")

    package static let kalkatiServiceWithoutNumber = NoticeKind(
        "kalkati_service_without_number", .error, .feedc,
        "A Kalkati service has no usable `ServiceNbr`, so it names no route. The trip is dropped.")

    package static let kalkatiUnknownMode = NoticeKind(
        "kalkati_unknown_mode", .warning, .feedc,
        "A Kalkati transport mode has no GTFS route type. The route is read as a bus route (3).")

    package static let legacyTimezoneAssumed = NoticeKind(
        "legacy_timezone_assumed", .warning, .feedc,
        "No time zone is configured or known for a legacy (Kalkati or NextBus) dump; one is assumed. Set `timezone:` in pipeline.yaml.")

    package static let nextbusDuplicateRoute = NoticeKind(
        "nextbus_duplicate_route", .warning, .feedc,
        "A NextBus route is configured again in another routeConfig response. The later one is ignored.")

    package static let nextbusElementNotCompiled = NoticeKind(
        "nextbus_element_not_compiled", .info, .feedc,
        "A NextBus response element is not compiled. The value is how many there are.")

    package static let nextbusErrorResponse = NoticeKind(
        "nextbus_error_response", .error, .feedc,
        "A saved NextBus response is an error, not data. The file is ignored.")

    package static let nextbusRouteTypeAssumed = NoticeKind(
        "nextbus_route_type_assumed", .info, .feedc,
        "NextBus does not say what vehicles run; every route is compiled as a bus route (3).")

    package static let nextbusRoutesListedOnly = NoticeKind(
        "nextbus_routes_listed_only", .info, .feedc,
        "Routes named by a routeList response but described by no routeConfig response are not compiled.")

    package static let nextbusScheduleWithoutRoute = NoticeKind(
        "nextbus_schedule_without_route", .warning, .feedc,
        "A NextBus schedule is for a route no routeConfig response describes. The schedule is ignored.")

    package static let nextbusUnknownServiceClass = NoticeKind(
        "nextbus_unknown_service_class", .warning, .feedc,
        "A NextBus service class names no days the NextBus conventions know. The service runs on no day.")

    package static let xmlMalformed = NoticeKind(
        "xml_malformed", .error, .feedc,
        "The XML is not well-formed. It blocks publication.")

    package static let xmlTruncated = NoticeKind(
        "xml_truncated", .error, .feedc,
        "The XML file ends before its root element closes. It blocks publication.")

    package static let xmlInvalidEncoding = NoticeKind(
        "xml_invalid_encoding", .error, .feedc,
        "The XML file is not in the encoding it declares. It blocks publication.")

    package static let xmlEntityRefused = NoticeKind(
        "xml_entity_refused", .error, .feedc,
        "The XML declares or uses an entity; feedc refuses them (they can fetch files or expand without bound). It blocks publication.")

    package static let xmlValueTooLarge = NoticeKind(
        "xml_value_too_large", .error, .feedc,
        "An XML value or element is larger than feedc's limits allow. It blocks publication.")

    package static let xmlWrongRoot = NoticeKind(
        "xml_wrong_root", .error, .feedc,
        "The XML file's root element is not the one the format expects.")

    package static let xmlInvalidSchema = NoticeKind(
        "xml_invalid_schema", .error, .feedc,
        "The XML schema (`schema:` in pipeline.yaml) could not be read or compiled. It blocks publication.")

    package static let xmlSchemaViolation = NoticeKind(
        "xml_schema_violation", .error, .feedc,
        "The dump is not valid against its XML schema. It is read as far as it makes sense; values that cannot be used are reported.")
}
