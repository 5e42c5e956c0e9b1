/// One kind of notice feedc can raise: its code, the severity it is raised at unless the place
/// that raises it says otherwise, the files it concerns, and what it means.
///
/// Every code is declared once, as a static member grouped by area in `Notices/Kinds/`
/// (`NoticeKind.routeColorContrast`), and raised through it: `Notice(.routeColorContrast, …)`,
/// `sink.add(.routeColorContrast) { … }`. The code is MobilityData gtfs-validator's name where it
/// has one (snake_case, written into every report as ``Notice/code``); the description is
/// theirs too (the first paragraphs of the notice class's javadoc, the text of its NOTICES.md,
/// at commit 03717cb, 2026-07-17, links and markup removed), and feedc's own codes are described
/// in the same manner. The HTML report (`NoticeDescriptions`) reads them here. The codes of
/// `--json` error reports are registered too (`NoticeKind+Failures.swift`), so that every code
/// feedc prints has one declaration and one description.
public struct NoticeKind: Sendable, Hashable {
    /// Whose code (and description) it is.
    public enum Origin: Sendable, Hashable {
        /// MobilityData gtfs-validator's: the description is their wording.
        case mobilityData
        /// feedc's own: what the compiler did, formats MobilityData does not read, error reports.
        case feedc
    }

    /// The snake_case code written into reports (`route_color_contrast`).
    public let code: String
    /// The severity it is raised at, unless the place raising it says otherwise (a value that
    /// drops its row is an error where one that is only cleared is a warning).
    public let severity: Severity
    /// The files it concerns, when they are known in advance (empty: any file, or none).
    public let files: [String]
    /// Whose code it is: MobilityData's or feedc's own.
    public let origin: Origin
    /// What it means, in a sentence or a few, for the HTML report and the docs.
    public let description: String

    init(_ code: String, _ severity: Severity, files: [String] = [], _ origin: Origin, _ description: String) {
        self.code = code
        self.severity = severity
        self.files = files
        self.origin = origin
        self.description = description
    }

    /// Whether the code is MobilityData's (then the description is their wording).
    public var isMobilityData: Bool { origin == .mobilityData }

    /// Kinds are their codes: two declarations of one code are one kind.
    public static func == (lhs: NoticeKind, rhs: NoticeKind) -> Bool { lhs.code == rhs.code }

    /// Hashes the code alone, as `==` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Every registered kind, area by area in the order declared.
    public static let all: [NoticeKind] =
        fileKinds + fieldKinds + referenceKinds + stopKinds + routeKinds
        + tripKinds + calendarKinds + shapeKinds + fareKinds + flexKinds + legacyKinds + buildKinds + failureKinds

    private static let byCode: [String: NoticeKind] = Dictionary(all.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })

    /// The kind of a code, nil when none is registered.
    public static func named(_ code: String) -> NoticeKind? { byCode[code] }
}
