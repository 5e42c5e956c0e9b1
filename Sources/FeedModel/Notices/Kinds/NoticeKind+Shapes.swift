extension NoticeKind {
    /// Shapes: their distances, and how the stops of a trip lie along its shape.
    static let shapeKinds: [NoticeKind] = [
        .decreasingShapeDistance, .equalShapeDistanceSameCoordinates, .equalShapeDistanceDiffCoordinates,
        .equalShapeDistanceDiffCoordinatesDistanceBelowThreshold, .unusedShape, .stopTooFarFromShape,
        .stopTooFarFromShapeUsingUserDistance, .stopHasTooManyMatchesForShape, .stopsMatchShapeOutOfOrder,
        .tripDistanceExceedsShapeDistance, .tripDistanceExceedsShapeDistanceBelowThreshold,
    ]

    package static let decreasingShapeDistance = NoticeKind(
        "decreasing_shape_distance", .error, files: ["shapes.txt"], .mobilityData,
        "Decreasing `shape_dist_traveled` in `shapes.txt`. When sorted by `shape.shape_pt_sequence`, two consecutive shape points must not have decreasing values for `shape_dist_traveled`."
    )

    package static let equalShapeDistanceSameCoordinates = NoticeKind(
        "equal_shape_distance_same_coordinates", .warning, files: ["shapes.txt"], .mobilityData,
        "Two consecutive points have equal `shape_dist_traveled` and the same lat/lon coordinates in `shapes.txt`. When sorted by `shape.shape_pt_sequence`, the values for `shape_dist_traveled` must increase along a shape. Two consecutive points with equal values for `shape_dist_traveled` and the same coordinates indicate a duplicative shape point."
    )

    package static let equalShapeDistanceDiffCoordinates = NoticeKind(
        "equal_shape_distance_diff_coordinates", .error, files: ["shapes.txt"], .mobilityData,
        "Two consecutive points have equal `shape_dist_traveled` and different lat/lon coordinates in `shapes.txt` and the distance between the two points is greater than the 1.11m. When sorted by `shape.shape_pt_sequence`, the values for `shape_dist_traveled` must increase along a shape. Two consecutive points with equal values for `shape_dist_traveled` and different coordinates indicate an error."
    )

    package static let equalShapeDistanceDiffCoordinatesDistanceBelowThreshold = NoticeKind(
        "equal_shape_distance_diff_coordinates_distance_below_threshold", .warning, files: ["shapes.txt"], .mobilityData,
        "Two consecutive points have equal `shape_dist_traveled` and different lat/lon coordinates in `shapes.txt` and the distance between the two points is greater than 0 but less than 1.11m. When sorted by `shape.shape_pt_sequence`, the values for `shape_dist_traveled` must increase along a shape. Two consecutive points with equal values for `shape_dist_traveled` and small difference of coordinates (greater than 0 but less than 1.11 m distance) result in a warning."
    )

    package static let unusedShape = NoticeKind(
        "unused_shape", .warning, files: ["shapes.txt"], .mobilityData,
        "Shape is not used in GTFS file `trips.txt`. All records defined by GTFS `shapes.txt` should be used in `trips.txt`.")

    package static let stopTooFarFromShape = NoticeKind(
        "stop_too_far_from_shape", .warning, files: ["stop_times.txt"], .mobilityData,
        "Stop too far from trip shape. Per GTFS Best Practices, route alignments (in `shapes.txt`) should be within 100 meters of stop locations which a trip serves. This potentially indicates a problem with the location of the stop or the path of the shape."
    )

    package static let stopTooFarFromShapeUsingUserDistance = NoticeKind(
        "stop_too_far_from_shape_using_user_distance", .warning, files: ["stop_times.txt"], .mobilityData,
        "Stop time too far from shape. A stop time entry that is a large distance away from the location of the shape in `shapes.txt` as defined by `shape_dist_traveled` values."
    )

    package static let stopHasTooManyMatchesForShape = NoticeKind(
        "stop_has_too_many_matches_for_shape", .warning, files: ["stop_times.txt"], .mobilityData,
        "Stop entry that has many potential matches to the trip's path of travel, as defined by the shape entry in `shapes.txt`. This potentially indicates a problem with the location of the stop or the path of the shape."
    )

    package static let stopsMatchShapeOutOfOrder = NoticeKind(
        "stops_match_shape_out_of_order", .warning, files: ["stop_times.txt"], .mobilityData,
        "Two stop entries are different than their arrival-departure order defined by `shapes.txt`. This could indicate a problem with the location of the stops, the path of the shape, or the sequence of the stops for their trip."
    )

    package static let tripDistanceExceedsShapeDistance = NoticeKind(
        "trip_distance_exceeds_shape_distance", .error, files: ["stop_times.txt"], .mobilityData,
        "The distance between the last shape point and last stop point is greater than or equal to the 11.1m threshold.")

    package static let tripDistanceExceedsShapeDistanceBelowThreshold = NoticeKind(
        "trip_distance_exceeds_shape_distance_below_threshold", .warning, files: ["stop_times.txt"], .mobilityData,
        "The distance between the last shape point and last stop point is greater than 0 but less than the 11.1m threshold.")
}
