extension NoticeKind {
    /// What the compiler did with a feed: repairs counted, content bundles cannot hold, directions,
    /// opposite stops and the network of a bundle's sources.
    static let buildKinds: [NoticeKind] = [
        .rowsDropped, .rowsRemovedWithParent, .noUsableRows, .noFixedRouteService, .ambiguousDirection,
        .directionIdContradictsGeometry, .oppositeLinkContradicted, .placeOverrideUnknownStop,
        .realtimeTripIdsUnavailable, .denseNetworkCapped, .directionsWorkCapped,
    ]

    package static let rowsDropped = NoticeKind(
        "rows_dropped", .info, .feedc,
        "Repairs dropped rows of this file; the other notices say why. The value is the number of rows.")

    package static let rowsRemovedWithParent = NoticeKind(
        "rows_removed_with_parent", .info, .feedc,
        "Rows that referred to rows dropped by earlier repairs were dropped with them (a trip's stop times, a route's trips).")

    package static let noUsableRows = NoticeKind(
        "no_usable_rows", .error, .feedc,
        "A required file (agency, stops, routes, trips, stop_times, or both calendars) has no usable row after repairs: the bundle would have no timetable, so it blocks publication."
    )

    package static let noFixedRouteService = NoticeKind(
        "no_fixed_route_service", .warning, .feedc,
        "Every trip is GTFS-Flex: the bundle has stops and lines but no timetable. Bundles do not hold GTFS-Flex service.")

    package static let ambiguousDirection = NoticeKind(
        "ambiguous_direction", .info, files: ["trips.txt"], .feedc,
        "Some stop patterns of a route share no stops with the rest, so their direction cannot be inferred; they are put with the route's main direction.")

    package static let directionIdContradictsGeometry = NoticeKind(
        "direction_id_contradicts_geometry", .warning, files: ["trips.txt"], .feedc,
        "Stop patterns of a route run against the other trips of their `direction_id`. The feed's `direction_id` is kept.")

    package static let oppositeLinkContradicted = NoticeKind(
        "opposite_link_contradicted", .info, .feedc,
        "Candidate opposite-stop links were not made: another line serves both stops in the same direction.")

    package static let placeOverrideUnknownStop = NoticeKind(
        "place_override_unknown_stop", .warning, .feedc,
        "A line of the network overrides file names a stop that is not a station or an ungrouped served stop of the bundle (ids include the source's prefix). The line is ignored."
    )

    package static let realtimeTripIdsUnavailable = NoticeKind(
        "realtime_trip_ids_unavailable", .warning, files: ["trips.txt"], .feedc,
        "`realtime_trip_ids: nyct` needs the `mta_trip_id` column of trips.txt, which the dump does not have. Its real-time trips are looked up by `trip_id`.")

    package static let denseNetworkCapped = NoticeKind(
        "dense_network_capped", .info, .feedc,
        "More stops stand within a same-place, walking or opposite-stop distance of one stop than the compiler compares or links: each stop keeps its nearest candidates (same places: 48 of the nearest 512, walks and changes within a place: 48 of the nearest 512, opposite stops: the nearest 64 of the line's other direction; nearer first, ties by id), so the work grows with the stops, not with their density. The value is the stop (or, for opposite stops, the line) with the most candidates; the message counts the stops cut."
    )

    package static let directionsWorkCapped = NoticeKind(
        "directions_work_capped", .info, files: ["trips.txt"], .feedc,
        "A route's stop patterns would cost more than 50 million stop comparisons to sort into directions (thousands of patterns, or patterns of thousands of stops): the patterns past that are placed by their bearing (or their direction_id) unmeasured, and their own stops are left out of the direction's stop list. The value is the route."
    )
}
