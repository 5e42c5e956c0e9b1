import FeedModel

/// A route's text must stand out from its colour: when both `route_color` and
/// `route_text_color` are given and their Rec. 601 lumas differ by less than 72,
/// `route_color_contrast` (warning), as MobilityData computes it. Reported only: apps may pick
/// their own text colour.
struct RouteColorContrastRule: ValidationRule {
    static let minimumLumaDifference = 72

    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let routes = feed.routes
        let colors = routes.texts(.routeColor), texts = routes.texts(.routeTextColor), ids = routes.texts(.routeId)
        for row in 0..<routes.count {
            guard let color = colors[row], let text = texts[row], let a = Self.luma(color), let b = Self.luma(text),
                abs(a - b) < Self.minimumLumaDifference
            else { continue }
            sink.add(.routeColorContrast) {
                Notice(
                    .routeColorContrast, file: "routes.txt", line: Int(routes.lines[row]),
                    field: "route_text_color", value: text,
                    message: "Route \(ids[row] ?? ""): the text colour \(text) hardly stands out from the route colour \(color).")
            }
        }
    }

    /// `(int)(0.30 r + 0.59 g + 0.11 b)` of a six-digit hex colour.
    static func luma(_ hex: String) -> Int? {
        guard hex.utf8.count == 6, let rgb = Int(hex, radix: 16) else { return nil }
        let r = Double((rgb >> 16) & 0xFF), g = Double((rgb >> 8) & 0xFF), b = Double(rgb & 0xFF)
        let luma: Double = 0.30 * r + 0.59 * g + 0.11 * b
        return Int(luma)
    }
}
