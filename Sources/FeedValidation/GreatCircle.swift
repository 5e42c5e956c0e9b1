import Foundation

/// Distances on the Earth as MobilityData's validator measures them (S2's great-circle angle
/// times 6,371,010 m), so thresholds such as 1.11 m or 11.1 m fall on the same side here.
enum GreatCircle {
    static let earthRadius = 6_371_010.0

    /// Metres between two positions given in degrees (haversine).
    static func metres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let p1 = lat1 * .pi / 180, p2 = lat2 * .pi / 180
        let dp = p2 - p1, dl = (lon2 - lon1) * .pi / 180
        let a = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * atan2(a.squareRoot(), (1 - a).squareRoot()) * earthRadius
    }
}
