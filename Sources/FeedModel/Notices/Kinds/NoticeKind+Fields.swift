extension NoticeKind {
    /// One value of one field: missing, malformed by its kind, out of range, or badly written text.
    static let fieldKinds: [NoticeKind] = [
        .missingRequiredField, .missingRecommendedField, .invalidCharacter, .invalidUrl, .invalidEmail,
        .invalidPhoneNumber, .invalidTimezone, .invalidLanguageCode, .invalidColor, .invalidInteger, .invalidFloat,
        .invalidTime, .invalidDate, .numberOutOfRange, .unexpectedEnumValue, .startAndEndRangeOutOfOrder,
        .startAndEndRangeEqual, .leadingOrTrailingWhitespaces, .nulCharacterInField, .fieldTooLong,
        .nonAsciiOrNonPrintableChar, .mixedCaseRecommendedField,
    ]

    package static let missingRequiredField = NoticeKind(
        "missing_required_field", .error, .mobilityData,
        "A required field is missing. The given field has no value in some input row, even though values are required.")

    package static let missingRecommendedField = NoticeKind(
        "missing_recommended_field", .warning, .mobilityData,
        "A recommended field is missing. The given field has no value in some input row, even though values are recommended.")

    package static let invalidCharacter = NoticeKind(
        "invalid_character", .error, .mobilityData,
        "This field contains invalid characters, such as the replacement character (\"\\uFFFD\"). Check that text was properly encoded in UTF-8 as required by GTFS."
    )

    package static let invalidUrl = NoticeKind(
        "invalid_url", .error, .mobilityData,
        "A field contains a malformed URL. Definitions for valid URLs are quite vague. We perform strict validation using the Apache Commons UrlValidator.")

    package static let invalidEmail = NoticeKind(
        "invalid_email", .error, .mobilityData,
        "A field contains a malformed email address. Definitions for valid emails are quite vague. We perform strict validation using the Apache Commons EmailValidator."
    )

    package static let invalidPhoneNumber = NoticeKind(
        "invalid_phone_number", .error, .mobilityData,
        "A field contains a malformed phone number. This rule uses the PhoneNumberUtil class to validate a phone number based on a country code. If no country code is provided in the parameters used to run the validator, this notice won't be emitted."
    )

    package static let invalidTimezone = NoticeKind(
        "invalid_timezone", .error, .mobilityData,
        "A field cannot be parsed as a timezone. Example: `Asia/Tokyo`, `America/Los_Angeles` or `Africa/Cairo`.")

    package static let invalidLanguageCode = NoticeKind(
        "invalid_language_code", .error, .mobilityData,
        "A field contains a wrong language code. Example: `en` for English, `en-US` for American English or `de` for German.")

    package static let invalidColor = NoticeKind(
        "invalid_color", .error, .mobilityData,
        "A field contains an invalid color value. A color must be encoded as a six-digit hexadecimal number. The leading \"#\" is not included.")

    package static let invalidInteger = NoticeKind(
        "invalid_integer", .error, .mobilityData,
        "A field cannot be parsed as an integer.")

    package static let invalidFloat = NoticeKind(
        "invalid_float", .error, .mobilityData,
        "A field cannot be parsed as a floating point number.")

    package static let invalidTime = NoticeKind(
        "invalid_time", .error, .mobilityData,
        "A field cannot be parsed as time. Time must be in the `H:MM:SS`, `HH:MM:SS` or `HHH:MM:SS` format.")

    package static let invalidDate = NoticeKind(
        "invalid_date", .error, .mobilityData,
        "A field cannot be parsed as date. Dates must have the YYYYMMDD format.")

    package static let numberOutOfRange = NoticeKind(
        "number_out_of_range", .error, .mobilityData,
        "Out of range value. The values in the given column of the input rows are out of range.")

    package static let unexpectedEnumValue = NoticeKind(
        "unexpected_enum_value", .warning, .mobilityData,
        "An enum has an unexpected value.")

    package static let startAndEndRangeOutOfOrder = NoticeKind(
        "start_and_end_range_out_of_order", .error, .mobilityData,
        "Two date or time fields are out of order. Date or time fields have been found out of order in `calendar.txt`, `feed_info.txt` and `stop_times.txt`.")

    package static let startAndEndRangeEqual = NoticeKind(
        "start_and_end_range_equal", .error, .mobilityData,
        "Two date or time fields are equal. The fields `frequencies.start_date` and `frequencies.end_date` have been found equal in `frequencies.txt`. The GTFS spec is currently unclear how this case should be handled (e.g., is it a trip that circulates once?). It is recommended to use a trip not defined via frequencies.txt for this case."
    )

    package static let leadingOrTrailingWhitespaces = NoticeKind(
        "leading_or_trailing_whitespaces", .warning, .mobilityData,
        "The value in CSV file has leading or trailing whitespaces. This notice is emitted for values protected with double quotes since whitespaces for non-protected values are trimmed automatically by CSV parser."
    )

    package static let nulCharacterInField = NoticeKind(
        "nul_character_in_field", .warning, .feedc,
        "A text value holds NUL bytes, which end a string in SQLite's C API and in most apps' string types. They are removed.")

    package static let fieldTooLong = NoticeKind(
        "field_too_long", .warning, .feedc,
        "A text value is longer than 64 KiB (65,536 bytes), which no GTFS field needs. It is cut at a Unicode scalar boundary within its first 65,536 bytes.")

    package static let nonAsciiOrNonPrintableChar = NoticeKind(
        "non_ascii_or_non_printable_char", .warning, .mobilityData,
        "Non ascii or non printable char in ID field. A value of a field with type ID contains non ASCII or non printable characters. This is not recommended.")

    package static let mixedCaseRecommendedField = NoticeKind(
        "mixed_case_recommended_field", .warning, .mobilityData,
        "This field has customer-facing text and should use Mixed Case (should contain upper and lower case letters). This field contains customer-facing text and should use Mixed Case (upper and lower case letters) to ensure good readability when displayed to riders. Avoid the use of abbreviations throughout the feed (e.g. St. for Street) unless a location is called by its abbreviated name (e.g. “JFK Airport”). Abbreviations may be problematic for accessibility by screen reader software and voice user interfaces."
    )
}
