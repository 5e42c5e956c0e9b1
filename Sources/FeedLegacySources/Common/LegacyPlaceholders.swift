import Foundation

/// Values GTFS requires that legacy formats do not have.
enum LegacyPlaceholders {
    /// Neither Kalkati nor NextBus gives an agency URL, which GTFS requires: a URL under the
    /// reserved `.invalid` domain (RFC 2606) says so plainly without pointing anywhere.
    static func agencyURL(_ format: String, _ agency: String) -> String {
        let safe = agency.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0) ? String($0) : "_" }.joined()
        return "https://\(format).invalid/agency/\(safe)"
    }
}
