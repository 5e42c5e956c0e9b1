extension NoticeKind {
    /// Trips and their stop times: a timetable a rider can use, at plausible speeds.
    static let tripKinds: [NoticeKind] = [
        .unusableTrip, .unusedTrip, .missingTripEdge, .stopTimeWithOnlyArrivalOrDepartureTime,
        .stopTimeWithArrivalBeforePreviousDepartureTime, .stopTimeWithDepartureBeforeArrivalTime,
        .missingTimepointValue, .stopTimeTimepointWithoutTimes, .decreasingOrEqualStopTimeDistance,
        .fastTravelBetweenConsecutiveStops, .fastTravelBetweenFarStops, .blockTripsWithOverlappingStopTimes,
        .overlappingFrequency, .tripHeadsignMatchesIntermediateStop, .unsortedStopTimes,
    ]

    package static let unusableTrip = NoticeKind(
        "unusable_trip", .warning, files: ["stop_times.txt", "trips.txt"], .mobilityData,
        "Trips must have more than one stop to be usable. A trip must visit more than one stop in stop_times.txt to be usable by passengers for boarding and alighting."
    )

    package static let unusedTrip = NoticeKind(
        "unused_trip", .warning, files: ["trips.txt"], .mobilityData,
        "Trip is not be used in `stop_times.txt`. Trips should be referred to at least once in `stop_times.txt`.")

    package static let missingTripEdge = NoticeKind(
        "missing_trip_edge", .error, files: ["stop_times.txt"], .mobilityData,
        "Missing trip edge `arrival_time` or `departure_time`. First and last stop of a trip must define both `arrival_time` and `departure_time` fields. Per stop_times.txt, \"If there are not separate times for arrival and departure at a stop, enter the same value for arrival_time and departure_time.\""
    )

    package static let stopTimeWithOnlyArrivalOrDepartureTime = NoticeKind(
        "stop_time_with_only_arrival_or_departure_time", .error, files: ["stop_times.txt"], .mobilityData,
        "Missing `stop_times.arrival_time` or `stop_times.departure_time`.")

    package static let stopTimeWithArrivalBeforePreviousDepartureTime = NoticeKind(
        "stop_time_with_arrival_before_previous_departure_time", .error, files: ["stop_times.txt"], .mobilityData,
        "Backwards time travel between stops in `stop_times.txt`. For a given `trip_id`, the `arrival_time` of (n+1)-th stoptime in sequence must not precede the `departure_time` of n-th stoptime in sequence in `stop_times.txt`."
    )

    package static let stopTimeWithDepartureBeforeArrivalTime = NoticeKind(
        "stop_time_with_departure_before_arrival_time", .error, files: ["stop_times.txt"], .feedc,
        "A stop time's `departure_time` is earlier than its `arrival_time`. The trip is dropped.")

    package static let missingTimepointValue = NoticeKind(
        "missing_timepoint_value", .warning, files: ["stop_times.txt"], .mobilityData,
        "`stop_times.timepoint` value is missing for a record. When at least one of `stop_times.arrival_time` or `stop_times.departure_time` are provided, `stop_times.timepoint` should be defined."
    )

    package static let stopTimeTimepointWithoutTimes = NoticeKind(
        "stop_time_timepoint_without_times", .error, files: ["stop_times.txt"], .mobilityData,
        "`arrival_time` or `departure_time` not specified for timepoint. Any records with `stop_times.timepoint` set to 1 must define a value for `stop_times.arrival_time` and `stop_times.departure_time` fields."
    )

    package static let decreasingOrEqualStopTimeDistance = NoticeKind(
        "decreasing_or_equal_stop_time_distance", .error, files: ["stop_times.txt"], .mobilityData,
        "Decreasing or equal `shape_dist_traveled` in `stop_times.txt`. When sorted by `stop_times.stop_sequence`, two consecutive entries in `stop_times.txt` should have increasing distance, based on the field `shape_dist_traveled`. If the values are equal, this is considered as an error."
    )

    package static let fastTravelBetweenConsecutiveStops = NoticeKind(
        "fast_travel_between_consecutive_stops", .warning, files: ["stop_times.txt"], .mobilityData,
        "A transit vehicle moves too fast between two consecutive stops.")

    package static let fastTravelBetweenFarStops = NoticeKind(
        "fast_travel_between_far_stops", .warning, files: ["stop_times.txt"], .mobilityData,
        "A transit vehicle moves too fast between two far stops. Two stops are considered \"far\" if they are more than 10 km apart. This normally indicates a more serious problem than too fast travel between consecutive stops."
    )

    package static let blockTripsWithOverlappingStopTimes = NoticeKind(
        "block_trips_with_overlapping_stop_times", .error, files: ["trips.txt"], .mobilityData,
        "Trips with the same block id have overlapping stop times.")

    package static let overlappingFrequency = NoticeKind(
        "overlapping_frequency", .error, files: ["frequencies.txt"], .mobilityData,
        "Trip frequencies overlap. Trip frequencies must not overlap in time. Two entries X and Y are considered to directly overlap if X.start_time is less than or equal to Y.start_time and Y.start_time is less than X.end_time."
    )

    package static let tripHeadsignMatchesIntermediateStop = NoticeKind(
        "trip_headsign_matches_intermediate_stop", .info, files: ["trips.txt", "stop_times.txt", "stops.txt"],
        .mobilityData,
        "Trip headsign matches the name of an intermediate stop, not the last stop. The `trip_headsign` matches the `stop_name` of a stop that is not the last stop of the trip. This may confuse passengers boarding after that stop, since the headsign suggests the vehicle is heading to a stop it has already passed."
    )

    package static let unsortedStopTimes = NoticeKind(
        "unsorted_stop_times", .info, files: ["stop_times.txt"], .mobilityData,
        "Stop times are not sorted by trip_id and stop_sequence. 'stop_times.txt' entries for a given trip are not sorted by stop_sequence, or are not contiguous in the file."
    )
}
