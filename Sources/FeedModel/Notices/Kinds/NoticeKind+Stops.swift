extension NoticeKind {
    /// Stops, stations and the pathways between their parts.
    static let stopKinds: [NoticeKind] = [
        .stopWithoutLocation, .missingStopName, .pointNearOrigin, .pointNearPole, .stationWithParentStation,
        .wrongParentLocationType, .stopWithoutStopTime, .locationWithUnexpectedStopTime,
        .sameNameAndDescriptionForStop, .sameStopAndAgencyUrl, .sameStopAndRouteUrl, .pathwayLoop,
        .bidirectionalExitGate, .unusedStation, .stopWithoutZoneId,
    ]

    package static let stopWithoutLocation = NoticeKind(
        "stop_without_location", .error, files: ["stops.txt"], .mobilityData,
        "`stop_lat` and/or `stop_lon` is missing for stop with `location_type` equal to`0`, `1`, or `2`. `stop_lat` and/or `stop_lon` are required for locations that are stops (`location_type=0`), stations (`location_type=1`) or entrances/exits (`location_type=2`)."
    )

    package static let missingStopName = NoticeKind(
        "missing_stop_name", .error, files: ["stops.txt"], .mobilityData,
        "`stops.stop_name` is required for `location_type` equal to `0`, `1`, or `2`. `stops.stop_name` is required for locations that are stops (`location_type=0`), stations (`location_type=1`) or entrances/exits (`location_type=2`)."
    )

    package static let pointNearOrigin = NoticeKind(
        "point_near_origin", .error, files: ["stops.txt", "locations.geojson"], .mobilityData,
        "A point is too close to origin `(0, 0)`.")

    package static let pointNearPole = NoticeKind(
        "point_near_pole", .error, files: ["locations.geojson"], .mobilityData,
        "A point is too close to the North or South Pole.")

    package static let stationWithParentStation = NoticeKind(
        "station_with_parent_station", .error, files: ["stops.txt"], .mobilityData,
        "A station has `parent_station` field set. Field `parent_station` must be empty when `location_type` is 1.")

    package static let wrongParentLocationType = NoticeKind(
        "wrong_parent_location_type", .error, files: ["stops.txt"], .mobilityData,
        "Incorrect type of the parent location. Value of field `location_type` of parent found in field `parent_station` is invalid.")

    package static let stopWithoutStopTime = NoticeKind(
        "stop_without_stop_time", .warning, files: ["stops.txt"], .mobilityData,
        "A stop in `stops.txt` is not referenced by any `stop_times.stop_id`. Such stops are not used by any trip and normally do not provide user value. This notice may indicate a typo in `stop_times.txt`."
    )

    package static let locationWithUnexpectedStopTime = NoticeKind(
        "location_with_unexpected_stop_time", .error, files: ["stop_times.txt"], .mobilityData,
        "A location in `stops.txt` that is not a stop is referenced by some `stop_times.stop_id`. Referenced locations (using `stop_times.stop_id`) must be stops/platforms, i.e. their `stops.location_type` value must be 0 or empty."
    )

    package static let sameNameAndDescriptionForStop = NoticeKind(
        "same_name_and_description_for_stop", .warning, files: ["stops.txt"], .mobilityData,
        "Same name and description for stop. Description of the location that provides useful, quality information. Do not simply duplicate the name of the location."
    )

    package static let sameStopAndAgencyUrl = NoticeKind(
        "same_stop_and_agency_url", .warning, files: ["stops.txt"], .mobilityData,
        "Same `stops.stop_url` and `agency.agency_url`. A stop should not have the same `stops.stop_url` as a record from `agency.txt`.")

    package static let sameStopAndRouteUrl = NoticeKind(
        "same_stop_and_route_url", .warning, files: ["stops.txt"], .mobilityData,
        "Same `stops.stop_url` and `routes.route_url`. A stop should not have the same `stop.stop_url` as a record from `routes.txt`.")

    package static let pathwayLoop = NoticeKind(
        "pathway_loop", .warning, files: ["pathways.txt"], .mobilityData,
        "A pathway starts and ends at the same location.")

    package static let bidirectionalExitGate = NoticeKind(
        "bidirectional_exit_gate", .error, files: ["pathways.txt"], .mobilityData,
        "Pathway is bidirectional and has mode 7 (exit gate). Exit gates (pathway_mode=7) must not be bidirectional.")

    package static let unusedStation = NoticeKind(
        "unused_station", .info, files: ["stops.txt"], .mobilityData,
        "Unused station. A stop has `location_type` STATION (1) but does not appear in any stop's `parent_station`.")

    package static let stopWithoutZoneId = NoticeKind(
        "stop_without_zone_id", .info, files: ["stops.txt", "stop_times.txt", "trips.txt", "routes.txt", "fare_rules.txt"],
        .mobilityData,
        "Stop without value for `stops.zone_id` contained in a route with a zone-dependent fare rule. If `fare_rules.txt` is provided, and `fare_rules.txt` uses at least one column among `origin_id`, `destination_id`, and `contains_id`, then all stops and platforms (location_type = 0) must have `stops.zone_id` assigned if they are defined in a trip defined in a route defined in a fare rule which also defines at least one of `origin_id`, `destination_id`, or `contains_id`."
    )
}
