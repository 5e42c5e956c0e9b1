extension NoticeKind {
    /// The dump and its files: the archive, files missing or unknown, and CSV that cannot be read as
    /// written.
    static let fileKinds: [NoticeKind] = [
        .ioError, .duplicateZipMember, .unsafePath, .invalidInputFilesInSubfolder, .missingRequiredFile,
        .missingRecommendedFile, .missingCalendarAndCalendarDateFiles, .unknownFile, .emptyFile, .invalidUtf8,
        .invalidQuoting, .unterminatedQuote, .invalidRowLength, .emptyColumnName, .duplicatedColumn, .unknownColumn,
        .missingRequiredColumn,
    ]

    package static let ioError = NoticeKind(
        "i_o_error", .error, .feedc,
        "Error in IO operation: the dump (a GTFS archive or folder, a Kalkati or NextBus document) or one of its files could not be read. Nothing can be compiled from it, so it blocks publication."
    )

    package static let duplicateZipMember = NoticeKind(
        "duplicate_zip_member", .error, .feedc,
        "The archive holds two or more entries of one name; tools disagree on which is the file. The last entry is read (as unzip and Python's zipfile do) and the others are ignored; the value is the number of entries."
    )

    package static let unsafePath = NoticeKind(
        "unsafe_path", .error, .feedc,
        "The archive holds an entry whose path leaves the archive (`..` or an absolute path). The entry is ignored.")

    package static let invalidInputFilesInSubfolder = NoticeKind(
        "invalid_input_files_in_subfolder", .error, .mobilityData,
        "At least 1 GTFS file is in a subfolder.")

    package static let missingRequiredFile = NoticeKind(
        "missing_required_file", .error, .mobilityData,
        "A required file is missing. If this notice is triggered for every core file, it might be a problem with the input. To create a zip file from the GTFS `.txt` files: select all the `.txt` files, right-click, and compress. Do not compress the folder containing the files."
    )

    package static let missingRecommendedFile = NoticeKind(
        "missing_recommended_file", .warning, files: ["feed_info.txt"], .mobilityData,
        "A recommended file is missing.")

    package static let missingCalendarAndCalendarDateFiles = NoticeKind(
        "missing_calendar_and_calendar_date_files", .error, files: ["calendar.txt", "calendar_dates.txt"], .mobilityData,
        "Missing GTFS files `calendar.txt` and `calendar_dates.txt`. At least one of the files must be provided.")

    package static let unknownFile = NoticeKind(
        "unknown_file", .info, .mobilityData,
        "A file is unknown.")

    package static let emptyFile = NoticeKind(
        "empty_file", .error, .mobilityData,
        "A CSV file is empty. Empty csv file found in the archive: file does not have any headers, or is a required file and does not have any data. The GTFS specification requires the first line of each file to contain field names and required files must have data."
    )

    package static let invalidUtf8 = NoticeKind(
        "invalid_utf8", .error, .feedc,
        "The file is not valid UTF-8 from some line on, as GTFS requires. The invalid bytes are replaced with U+FFFD.")

    package static let invalidQuoting = NoticeKind(
        "invalid_quoting", .warning, .feedc,
        "Text follows a closing quote in some field of the file. The text after the quote is ignored.")

    package static let unterminatedQuote = NoticeKind(
        "unterminated_quote", .error, .feedc,
        "A quoted field is still open at the end of the file: a quote is missing. The field is read to the end of the file.")

    package static let invalidRowLength = NoticeKind(
        "invalid_row_length", .error, .mobilityData,
        "Invalid csv row length. A row in the input file has a different number of values than specified by the CSV header.")

    package static let emptyColumnName = NoticeKind(
        "empty_column_name", .error, .mobilityData,
        "A column name is empty. Such columns are skipped by the validator.")

    package static let duplicatedColumn = NoticeKind(
        "duplicated_column", .error, .mobilityData,
        "Duplicated column in CSV. The input file CSV header has the same column name repeated.")

    package static let unknownColumn = NoticeKind(
        "unknown_column", .info, .mobilityData,
        "A column name is unknown.")

    package static let missingRequiredColumn = NoticeKind(
        "missing_required_column", .error, .mobilityData,
        "A required column is missing in the input file.")
}
