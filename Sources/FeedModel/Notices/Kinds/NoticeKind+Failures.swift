extension NoticeKind {
    /// The codes of `--json` error reports (`ErrorReport`): the command failed, not the feed. They are
    /// never notices of a feed; they are registered here so that every code feedc prints has one
    /// declaration and one description.
    static let failureKinds: [NoticeKind] = [
        .fileNotFound, .configError, .usageError, .toolError,
    ]

    package static let fileNotFound = NoticeKind(
        "file_not_found", .error, .feedc,
        "The dump or file named on the command line does not exist.")

    package static let configError = NoticeKind(
        "config_error", .error, .feedc,
        "pipeline.yaml is not valid; the report says where.")

    package static let usageError = NoticeKind(
        "usage_error", .error, .feedc,
        "The command line is not valid.")

    package static let toolError = NoticeKind(
        "tool_error", .error, .feedc,
        "feedc could not do its work (a download, the disk, a manifest); nothing was published.")
}
