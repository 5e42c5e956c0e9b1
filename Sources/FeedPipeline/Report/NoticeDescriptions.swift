import FeedModel

/// What each notice code means, in a sentence or two, for the HTML report (`feedc validate --html`).
///
/// The descriptions are declared with the codes, in FeedModel's registry (``NoticeKind``): where
/// the code is MobilityData gtfs-validator's, the wording is theirs; feedc's own codes are
/// described in the same manner. Every registered code has one, so a new rule cannot ship without.
public enum NoticeDescriptions {
    /// The description of `code`, nil when it is not registered.
    public static func description(of code: String) -> String? {
        NoticeKind.named(code)?.description
    }

    /// Whether the code is MobilityData's (then the description is their wording).
    public static func isMobilityData(_ code: String) -> Bool {
        NoticeKind.named(code)?.isMobilityData ?? false
    }

    /// Every described code.
    public static var codes: Set<String> { Set(NoticeKind.all.map(\.code)) }
}
