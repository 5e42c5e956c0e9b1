/// What each notice code means, in a sentence or two, for the HTML report (`feedc validate --html`).
///
/// Where the code is MobilityData gtfs-validator's, the wording is theirs: the first paragraphs
/// of the notice class's javadoc (the text of its NOTICES.md), links and markup removed. feedc's
/// own codes (``feedc``) are described in the same manner. A test checks that every code the
/// sources can raise has an entry here, so a new rule cannot ship without one.
public enum NoticeDescriptions {
    /// The description of `code`, nil when it has none.
    public static func description(of code: String) -> String? {
        mobilityData[code] ?? feedc[code]
    }

    /// Whether the code is MobilityData's (then the description is their wording).
    public static func isMobilityData(_ code: String) -> Bool { mobilityData[code] != nil }

    /// Every described code.
    public static var codes: Set<String> { Set(mobilityData.keys).union(feedc.keys) }

    /// MobilityData gtfs-validator's codes that feedc raises, described in their words
    /// (gtfs-validator at commit 03717cb, 2026-07-17).
    static let mobilityData: [String: String] = [
        "bidirectional_exit_gate": "Pathway is bidirectional and has mode 7 (exit gate). Exit gates (pathway_mode=7) must not be bidirectional.",
        "block_trips_with_overlapping_stop_times": "Trips with the same block id have overlapping stop times.",
        "decreasing_or_equal_stop_time_distance": "Decreasing or equal `shape_dist_traveled` in `stop_times.txt`. When sorted by `stop_times.stop_sequence`, two consecutive entries in `stop_times.txt` should have increasing distance, based on the field `shape_dist_traveled`. If the values are equal, this is considered as an error.",
        "decreasing_shape_distance": "Decreasing `shape_dist_traveled` in `shapes.txt`. When sorted by `shape.shape_pt_sequence`, two consecutive shape points must not have decreasing values for `shape_dist_traveled`.",
        "duplicate_key": "Duplicated entity. The values of the given key and rows are duplicates.",
        "duplicate_route_name": "Two distinct routes have either the same `route_short_name`, the same `route_long_name`, or the same combination of `route_short_name` and `route_long_name`. All routes of the same `route_type` with the same `agency_id` should have unique combinations of `route_short_name` and `route_long_name`.",
        "duplicated_column": "Duplicated column in CSV. The input file CSV header has the same column name repeated.",
        "empty_column_name": "A column name is empty. Such columns are skipped by the validator.",
        "empty_file": "A CSV file is empty. Empty csv file found in the archive: file does not have any headers, or is a required file and does not have any data. The GTFS specification requires the first line of each file to contain field names and required files must have data.",
        "equal_shape_distance_diff_coordinates": "Two consecutive points have equal `shape_dist_traveled` and different lat/lon coordinates in `shapes.txt` and the distance between the two points is greater than the 1.11m. When sorted by `shape.shape_pt_sequence`, the values for `shape_dist_traveled` must increase along a shape. Two consecutive points with equal values for `shape_dist_traveled` and different coordinates indicate an error.",
        "equal_shape_distance_diff_coordinates_distance_below_threshold": "Two consecutive points have equal `shape_dist_traveled` and different lat/lon coordinates in `shapes.txt` and the distance between the two points is greater than 0 but less than 1.11m. When sorted by `shape.shape_pt_sequence`, the values for `shape_dist_traveled` must increase along a shape. Two consecutive points with equal values for `shape_dist_traveled` and small difference of coordinates (greater than 0 but less than 1.11 m distance) result in a warning.",
        "equal_shape_distance_same_coordinates": "Two consecutive points have equal `shape_dist_traveled` and the same lat/lon coordinates in `shapes.txt`. When sorted by `shape.shape_pt_sequence`, the values for `shape_dist_traveled` must increase along a shape. Two consecutive points with equal values for `shape_dist_traveled` and the same coordinates indicate a duplicative shape point.",
        "expired_calendar": "Dataset should not contain date ranges for services that have already expired. This warning takes into account the `calendar_dates.txt` file as well as the `calendar.txt` file.",
        "fast_travel_between_consecutive_stops": "A transit vehicle moves too fast between two consecutive stops.",
        "fast_travel_between_far_stops": "A transit vehicle moves too fast between two far stops. Two stops are considered \"far\" if they are more than 10 km apart. This normally indicates a more serious problem than too fast travel between consecutive stops.",
        "feed_expiration_date30_days": "Dataset should cover at least the next 30 days of service. At any time, the GTFS dataset should cover at least the next 30 days of service, and ideally for as long as the operator is confident that the schedule will continue to be operated.",
        "feed_expiration_date7_days": "Dataset should be valid for at least the next 7 days. The dataset expiration date defined in `feed_info.txt` is in seven days or less. At any time, the published GTFS dataset should be valid for at least the next 7 days.",
        "foreign_key_violation": "Wrong foreign key. A foreign key references the primary key of another file. A foreign key violation means that the foreign key referenced from a given row (the child file) cannot be found in the corresponding file (the parent file). The Foreign keys are defined in the specification under \"Type\" for each file.",
        "inconsistent_agency_timezone": "Inconsistent Timezone among agencies. Agencies from GTFS `agency.txt` have been found to have different timezones.",
        "invalid_character": "This field contains invalid characters, such as the replacement character (\"\\uFFFD\"). Check that text was properly encoded in UTF-8 as required by GTFS.",
        "invalid_color": "A field contains an invalid color value. A color must be encoded as a six-digit hexadecimal number. The leading \"#\" is not included.",
        "invalid_date": "A field cannot be parsed as date. Dates must have the YYYYMMDD format.",
        "invalid_email": "A field contains a malformed email address. Definitions for valid emails are quite vague. We perform strict validation using the Apache Commons EmailValidator.",
        "invalid_float": "A field cannot be parsed as a floating point number.",
        "invalid_input_files_in_subfolder": "At least 1 GTFS file is in a subfolder.",
        "invalid_integer": "A field cannot be parsed as an integer.",
        "invalid_language_code": "A field contains a wrong language code. Example: `en` for English, `en-US` for American English or `de` for German.",
        "invalid_phone_number": "A field contains a malformed phone number. This rule uses the PhoneNumberUtil class to validate a phone number based on a country code. If no country code is provided in the parameters used to run the validator, this notice won't be emitted.",
        "invalid_row_length": "Invalid csv row length. A row in the input file has a different number of values than specified by the CSV header.",
        "invalid_time": "A field cannot be parsed as time. Time must be in the `H:MM:SS`, `HH:MM:SS` or `HHH:MM:SS` format.",
        "invalid_timezone": "A field cannot be parsed as a timezone. Example: `Asia/Tokyo`, `America/Los_Angeles` or `Africa/Cairo`.",
        "invalid_url": "A field contains a malformed URL. Definitions for valid URLs are quite vague. We perform strict validation using the Apache Commons UrlValidator.",
        "leading_or_trailing_whitespaces": "The value in CSV file has leading or trailing whitespaces. This notice is emitted for values protected with double quotes since whitespaces for non-protected values are trimmed automatically by CSV parser.",
        "location_with_unexpected_stop_time": "A location in `stops.txt` that is not a stop is referenced by some `stop_times.stop_id`. Referenced locations (using `stop_times.stop_id`) must be stops/platforms, i.e. their `stops.location_type` value must be 0 or empty.",
        "missing_calendar_and_calendar_date_files": "Missing GTFS files `calendar.txt` and `calendar_dates.txt`. At least one of the files must be provided.",
        "missing_feed_contact_email_and_url": "Best Practices for `feed_info.txt` suggest providing at least one of `feed_contact_email` and `feed_contact_url`.",
        "missing_feed_info_date": "One of `feed_start_date` or `feed_end_date` is specified, but not both. Even though `feed_info.start_date` and `feed_info.end_date` are optional, if one field is provided the second one should also be provided.",
        "missing_pickup_drop_off_booking_rule_id": "pickup_booking_rule_id is recommended when pickup_type=2 and drop_off_booking_rule_id is recommended when drop_off_type=2. Currently, this notice is only triggered on feeds when either start_pickup_drop_off_window or end_pickup_drop_off_window is defined, since this recommendation was added to the specification for feeds with GTFS-Flex.",
        "missing_recommended_field": "A recommended field is missing. The given field has no value in some input row, even though values are recommended.",
        "missing_recommended_file": "A recommended file is missing.",
        "missing_required_agency_id": "Agency id is required when there are multiple agencies. `agency.agency_id`, `routes.agency_id` or `fare_attributes.agency_id` is required when there are multiple agencies.",
        "missing_required_column": "A required column is missing in the input file.",
        "missing_required_field": "A required field is missing. The given field has no value in some input row, even though values are required.",
        "missing_required_file": "A required file is missing. If this notice is triggered for every core file, it might be a problem with the input. To create a zip file from the GTFS `.txt` files: select all the `.txt` files, right-click, and compress. Do not compress the folder containing the files.",
        "missing_stop_name": "`stops.stop_name` is required for `location_type` equal to `0`, `1`, or `2`. `stops.stop_name` is required for locations that are stops (`location_type=0`), stations (`location_type=1`) or entrances/exits (`location_type=2`).",
        "missing_timepoint_value": "`stop_times.timepoint` value is missing for a record. When at least one of `stop_times.arrival_time` or `stop_times.departure_time` are provided, `stop_times.timepoint` should be defined.",
        "missing_trip_edge": "Missing trip edge `arrival_time` or `departure_time`. First and last stop of a trip must define both `arrival_time` and `departure_time` fields. Per stop_times.txt, \"If there are not separate times for arrival and departure at a stop, enter the same value for arrival_time and departure_time.\"",
        "mixed_case_recommended_field": "This field has customer-facing text and should use Mixed Case (should contain upper and lower case letters). This field contains customer-facing text and should use Mixed Case (upper and lower case letters) to ensure good readability when displayed to riders. Avoid the use of abbreviations throughout the feed (e.g. St. for Street) unless a location is called by its abbreviated name (e.g. “JFK Airport”). Abbreviations may be problematic for accessibility by screen reader software and voice user interfaces.",
        "non_ascii_or_non_printable_char": "Non ascii or non printable char in ID field. A value of a field with type ID contains non ASCII or non printable characters. This is not recommended.",
        "number_out_of_range": "Out of range value. The values in the given column of the input rows are out of range.",
        "overlapping_frequency": "Trip frequencies overlap. Trip frequencies must not overlap in time. Two entries X and Y are considered to directly overlap if X.start_time is less than or equal to Y.start_time and Y.start_time is less than X.end_time.",
        "point_near_origin": "A point is too close to origin `(0, 0)`.",
        "route_both_short_and_long_name_missing": "Both `route_short_name` and `route_long_name` are missing for a route.",
        "route_color_contrast": "Insufficient route color contrast. A route's color and `route_text_color` should be contrasting.",
        "route_long_name_contains_short_name": "Long name should not contain short name for a single route. In routes.txt, `route_long_name` should not contain the value for `route_short_name`, because when both are provided, they are often combined by transit applications. Note that only one of the two fields is required. If there is no short name used for a route, use `route_long_name` only.",
        "route_short_name_too_long": "Short name of a route is too long (more than 12 characters).",
        "same_name_and_description_for_route": "Same name and description for route. Description of a route that provides useful, quality information. Do not simply duplicate the name of the route.",
        "same_name_and_description_for_stop": "Same name and description for stop. Description of the location that provides useful, quality information. Do not simply duplicate the name of the location.",
        "same_route_and_agency_url": "Same `routes.route_url` and `agency.agency_url`. A route should not have the same `routes.route_url` as a record from `agency.txt`.",
        "same_stop_and_agency_url": "Same `stops.stop_url` and `agency.agency_url`. A stop should not have the same `stops.stop_url` as a record from `agency.txt`.",
        "same_stop_and_route_url": "Same `stops.stop_url` and `routes.route_url`. A stop should not have the same `stop.stop_url` as a record from `routes.txt`.",
        "service_has_no_active_day_of_the_week": "A service is not valid for any day of the week.",
        "start_and_end_range_equal": "Two date or time fields are equal. The fields `frequencies.start_date` and `frequencies.end_date` have been found equal in `frequencies.txt`. The GTFS spec is currently unclear how this case should be handled (e.g., is it a trip that circulates once?). It is recommended to use a trip not defined via frequencies.txt for this case.",
        "start_and_end_range_out_of_order": "Two date or time fields are out of order. Date or time fields have been found out of order in `calendar.txt`, `feed_info.txt` and `stop_times.txt`.",
        "station_with_parent_station": "A station has `parent_station` field set. Field `parent_station` must be empty when `location_type` is 1.",
        "stop_has_too_many_matches_for_shape": "Stop entry that has many potential matches to the trip's path of travel, as defined by the shape entry in `shapes.txt`. This potentially indicates a problem with the location of the stop or the path of the shape.",
        "stop_time_timepoint_without_times": "`arrival_time` or `departure_time` not specified for timepoint. Any records with `stop_times.timepoint` set to 1 must define a value for `stop_times.arrival_time` and `stop_times.departure_time` fields.",
        "stop_time_with_arrival_before_previous_departure_time": "Backwards time travel between stops in `stop_times.txt`. For a given `trip_id`, the `arrival_time` of (n+1)-th stoptime in sequence must not precede the `departure_time` of n-th stoptime in sequence in `stop_times.txt`.",
        "stop_time_with_only_arrival_or_departure_time": "Missing `stop_times.arrival_time` or `stop_times.departure_time`.",
        "stop_too_far_from_shape": "Stop too far from trip shape. Per GTFS Best Practices, route alignments (in `shapes.txt`) should be within 100 meters of stop locations which a trip serves. This potentially indicates a problem with the location of the stop or the path of the shape.",
        "stop_too_far_from_shape_using_user_distance": "Stop time too far from shape. A stop time entry that is a large distance away from the location of the shape in `shapes.txt` as defined by `shape_dist_traveled` values.",
        "stop_without_location": "`stop_lat` and/or `stop_lon` is missing for stop with `location_type` equal to`0`, `1`, or `2`. `stop_lat` and/or `stop_lon` are required for locations that are stops (`location_type=0`), stations (`location_type=1`) or entrances/exits (`location_type=2`).",
        "stop_without_stop_time": "A stop in `stops.txt` is not referenced by any `stop_times.stop_id`. Such stops are not used by any trip and normally do not provide user value. This notice may indicate a typo in `stop_times.txt`.",
        "stops_match_shape_out_of_order": "Two stop entries are different than their arrival-departure order defined by `shapes.txt`. This could indicate a problem with the location of the stops, the path of the shape, or the sequence of the stops for their trip.",
        "translation_foreign_key_violation": "An entity with the given `record_id` and `record_sub_id` cannot be found in the referenced table.",
        "translation_unexpected_value": "A field in a translations row has value but must be empty.",
        "translation_unknown_table_name": "A translation references an unknown or missing GTFS table.",
        "trip_coverage_not_active_for_next7_days": "Trips data should be valid for at least the next seven days. This notice is triggered if the date range where a significant number of trips are running ends in less than 7 days.",
        "trip_distance_exceeds_shape_distance": "The distance between the last shape point and last stop point is greater than or equal to the 11.1m threshold.",
        "trip_distance_exceeds_shape_distance_below_threshold": "The distance between the last shape point and last stop point is greater than 0 but less than the 11.1m threshold.",
        "unexpected_enum_value": "An enum has an unexpected value.",
        "unknown_column": "A column name is unknown.",
        "unknown_file": "A file is unknown.",
        "unusable_trip": "Trips must have more than one stop to be usable. A trip must visit more than one stop in stop_times.txt to be usable by passengers for boarding and alighting.",
        "unused_shape": "Shape is not used in GTFS file `trips.txt`. All records defined by GTFS `shapes.txt` should be used in `trips.txt`.",
        "unused_trip": "Trip is not be used in `stop_times.txt`. Trips should be referred to at least once in `stop_times.txt`.",
        "wrong_parent_location_type": "Incorrect type of the parent location. Value of field `location_type` of parent found in field `parent_station` is invalid.",
    ]
}
