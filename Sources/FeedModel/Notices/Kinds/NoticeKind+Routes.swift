extension NoticeKind {
    /// What riders read of a route: its names, colours, description and page.
    static let routeKinds: [NoticeKind] = [
        .routeBothShortAndLongNameMissing, .routeShortNameTooLong, .routeLongNameContainsShortName,
        .sameNameAndDescriptionForRoute, .duplicateRouteName, .routeColorContrast, .sameRouteAndAgencyUrl,
    ]

    package static let routeBothShortAndLongNameMissing = NoticeKind(
        "route_both_short_and_long_name_missing", .error, files: ["routes.txt"], .mobilityData,
        "Both `route_short_name` and `route_long_name` are missing for a route.")

    package static let routeShortNameTooLong = NoticeKind(
        "route_short_name_too_long", .warning, files: ["routes.txt"], .mobilityData,
        "Short name of a route is too long (more than 12 characters).")

    package static let routeLongNameContainsShortName = NoticeKind(
        "route_long_name_contains_short_name", .warning, files: ["routes.txt"], .mobilityData,
        "Long name should not contain short name for a single route. In routes.txt, `route_long_name` should not contain the value for `route_short_name`, because when both are provided, they are often combined by transit applications. Note that only one of the two fields is required. If there is no short name used for a route, use `route_long_name` only."
    )

    package static let sameNameAndDescriptionForRoute = NoticeKind(
        "same_name_and_description_for_route", .warning, files: ["routes.txt"], .mobilityData,
        "Same name and description for route. Description of a route that provides useful, quality information. Do not simply duplicate the name of the route.")

    package static let duplicateRouteName = NoticeKind(
        "duplicate_route_name", .warning, files: ["routes.txt"], .mobilityData,
        "Two distinct routes have either the same `route_short_name`, the same `route_long_name`, or the same combination of `route_short_name` and `route_long_name`. All routes of the same `route_type` with the same `agency_id` should have unique combinations of `route_short_name` and `route_long_name`."
    )

    package static let routeColorContrast = NoticeKind(
        "route_color_contrast", .warning, files: ["routes.txt"], .mobilityData,
        "Insufficient route color contrast. A route's color and `route_text_color` should be contrasting.")

    package static let sameRouteAndAgencyUrl = NoticeKind(
        "same_route_and_agency_url", .warning, files: ["routes.txt"], .mobilityData,
        "Same `routes.route_url` and `agency.agency_url`. A route should not have the same `routes.route_url` as a record from `agency.txt`.")
}
