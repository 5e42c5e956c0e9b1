import FeedModel

/// What riders read of a route, as MobilityData checks it (warnings, reported only):
///
/// - `route_short_name_too_long`: a short name over 12 characters.
/// - `route_long_name_contains_short_name`: the long name starts with the short name, followed
///   by nothing, a space, `-`, `(` or `)`.
/// - `same_name_and_description_for_route`: `route_desc` repeats the short (else the long) name,
///   ignoring case.
struct RouteTextRule: ValidationRule {
    static let maximumShortNameLength = 12

    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let routes = feed.routes
        let shorts = routes.texts(.routeShortName), longs = routes.texts(.routeLongName)
        let descriptions = routes.texts(.routeDesc), ids = routes.texts(.routeId)
        func report(_ kind: NoticeKind, _ row: Int, _ field: String, _ value: String, _ message: String) {
            sink.add(kind) {
                Notice(
                    kind, file: "routes.txt", line: Int(routes.lines[row]), field: field,
                    value: value, message: "Route \(ids[row] ?? ""): \(message)")
            }
        }
        for row in 0..<routes.count {
            if let short = shorts[row], short.utf16.count > Self.maximumShortNameLength {
                report(.routeShortNameTooLong, row, "route_short_name", short, "the short name is longer than 12 characters.")
            }
            if let short = shorts[row], let long = longs[row], long.lowercased().hasPrefix(short.lowercased()) {
                let rest = long.utf16.dropFirst(short.utf16.count)
                if rest.isEmpty || [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x2D, 0x28, 0x29].contains(rest.first!) {
                    report(.routeLongNameContainsShortName, row, "route_long_name", long, "the long name repeats the short name.")
                }
            }
            if let description = descriptions[row] {
                // Compared ignoring case; reported as the file has it.
                let folded = description.lowercased()
                if let short = shorts[row], folded == short.lowercased() {
                    report(.sameNameAndDescriptionForRoute, row, "route_desc", description, "the description repeats route_short_name.")
                } else if let long = longs[row], folded == long.lowercased() {
                    report(.sameNameAndDescriptionForRoute, row, "route_desc", description, "the description repeats route_long_name.")
                }
            }
        }
    }
}
