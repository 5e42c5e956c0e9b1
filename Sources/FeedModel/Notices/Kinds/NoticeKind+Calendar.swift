extension NoticeKind {
    /// The dates a feed covers: services, their calendars, and feed_info.txt.
    static let calendarKinds: [NoticeKind] = [
        .expiredCalendar, .feedExpirationDate7Days, .feedExpirationDate30Days, .tripCoverageNotActiveForNext7Days,
        .serviceHasNoActiveDayOfTheWeek, .serviceNeverActive, .missingFeedContactEmailAndUrl, .missingFeedInfoDate,
        .bigGapInService, .serviceExtendsFarInTheFuture, .serviceWindowOutsideFeedPeriod,
        .feedValidBeyondTotalServiceWindow, .futureCalendar,
    ]

    package static let expiredCalendar = NoticeKind(
        "expired_calendar", .warning, files: ["calendar.txt", "calendar_dates.txt"], .mobilityData,
        "Dataset should not contain date ranges for services that have already expired. This warning takes into account the `calendar_dates.txt` file as well as the `calendar.txt` file."
    )

    package static let feedExpirationDate7Days = NoticeKind(
        "feed_expiration_date7_days", .warning, files: ["feed_info.txt"], .mobilityData,
        "Dataset should be valid for at least the next 7 days. The dataset expiration date defined in `feed_info.txt` is in seven days or less. At any time, the published GTFS dataset should be valid for at least the next 7 days."
    )

    package static let feedExpirationDate30Days = NoticeKind(
        "feed_expiration_date30_days", .warning, files: ["feed_info.txt"], .mobilityData,
        "Dataset should cover at least the next 30 days of service. At any time, the GTFS dataset should cover at least the next 30 days of service, and ideally for as long as the operator is confident that the schedule will continue to be operated."
    )

    package static let tripCoverageNotActiveForNext7Days = NoticeKind(
        "trip_coverage_not_active_for_next7_days", .warning, files: ["trips.txt"], .mobilityData,
        "Trips data should be valid for at least the next seven days. This notice is triggered if the date range where a significant number of trips are running ends in less than 7 days."
    )

    package static let serviceHasNoActiveDayOfTheWeek = NoticeKind(
        "service_has_no_active_day_of_the_week", .warning, files: ["calendar.txt"], .mobilityData,
        "A service is not valid for any day of the week.")

    package static let serviceNeverActive = NoticeKind(
        "service_never_active", .warning, files: ["calendar.txt"], .feedc,
        "A service runs on no day of the week and `calendar_dates.txt` adds no date for it: its trips never run.")

    package static let missingFeedContactEmailAndUrl = NoticeKind(
        "missing_feed_contact_email_and_url", .warning, files: ["feed_info.txt"], .mobilityData,
        "Best Practices for `feed_info.txt` suggest providing at least one of `feed_contact_email` and `feed_contact_url`.")

    package static let missingFeedInfoDate = NoticeKind(
        "missing_feed_info_date", .warning, files: ["feed_info.txt"], .mobilityData,
        "One of `feed_start_date` or `feed_end_date` is specified, but not both. Even though `feed_info.start_date` and `feed_info.end_date` are optional, if one field is provided the second one should also be provided."
    )

    package static let bigGapInService = NoticeKind(
        "big_gap_in_service", .info, files: ["calendar.txt", "calendar_dates.txt"], .mobilityData,
        "A service has a gap of more than 13 days between active service dates.")

    package static let serviceExtendsFarInTheFuture = NoticeKind(
        "service_extends_far_in_the_future", .info, files: ["calendar.txt", "calendar_dates.txt"], .mobilityData,
        "A service end date is more than 2 years in the future.")

    package static let serviceWindowOutsideFeedPeriod = NoticeKind(
        "service_window_outside_feed_period", .info, files: ["calendar.txt", "calendar_dates.txt", "feed_info.txt"],
        .mobilityData, "A service window is not covered by the feed's validity period.")

    package static let feedValidBeyondTotalServiceWindow = NoticeKind(
        "feed_valid_beyond_total_service_window", .info, files: ["calendar.txt", "calendar_dates.txt", "feed_info.txt"],
        .mobilityData, "The feed is valid 14 days beyond its total service window.")

    package static let futureCalendar = NoticeKind(
        "future_calendar", .info, files: ["calendar.txt", "calendar_dates.txt"], .mobilityData,
        "All services in the feed start in the future; no service covers today's date.")
}
