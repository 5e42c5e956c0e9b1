import Foundation

/// Finnish KKJ grid coordinates (Kartastokoordinaattijärjestelmä) to WGS84.
///
/// Kalkati stations carry `X` (easting) and `Y` (northing) in the KKJ Uniform Coordinate System
/// (YKJ, EPSG:2393: zone 3, central meridian 27° E, false easting 3,500,000 m, scale 1, on the
/// International 1924 ellipsoid). Other KKJ zones (0–5, central meridians 18°–33° E) are
/// recognised by the easting's leading digit.
///
/// The conversion is exact Transverse Mercator (Krüger series to n³, sub-millimetre) followed
/// by the 7-parameter Helmert transformation KKJ → WGS84 that PROJ uses for EPSG:2393
/// (position vector: −96.062, −82.428, −121.753 m; 4.801″, 0.345″, −1.376″; 1.496 ppm).
/// Against PROJ it agrees to about 5 cm; against the official triangle-wise transformation
/// (JHS 154), which models local KKJ distortions, it differs by up to 1–2 m across Finland.
package enum KKJ {
    /// WGS84 latitude and longitude of a KKJ grid position, or nil when the numbers are not a
    /// KKJ position in or near Finland.
    package static func wgs84(northing: Double, easting: Double) -> (latitude: Double, longitude: Double)? {
        guard northing.isFinite, easting.isFinite, (6_000_000...8_000_000).contains(northing) else { return nil }
        let zone = Int(easting / 1_000_000)
        guard (0...5).contains(zone), abs(easting - Double(zone) * 1_000_000 - 500_000) < 400_000 else { return nil }
        let (lat, lon) = inverseTransverseMercator(
            northing: northing, easting: easting,
            centralMeridian: 18 + 3 * Double(zone),
            falseEasting: Double(zone) * 1_000_000 + 500_000)
        let kkj = ecef(latitude: lat, longitude: lon, a: hayford.a, f: hayford.f)
        let wgs = helmert(kkj)
        return geodetic(wgs, a: grs80.a, f: grs80.f)
    }

    static let hayford = (a: 6_378_388.0, f: 1 / 297.0)
    static let grs80 = (a: 6_378_137.0, f: 1 / 298.257222101)
    static let shift = (tx: -96.062, ty: -82.428, tz: -121.753, rx: 4.801, ry: 0.345, rz: -1.376, ppm: 1.496)

    /// Radians of latitude and longitude on the Hayford ellipsoid (Krüger series).
    static func inverseTransverseMercator(
        northing: Double, easting: Double, centralMeridian: Double,
        falseEasting: Double
    ) -> (Double, Double) {
        let f = hayford.f, a = hayford.a
        let n = f / (2 - f)
        let rectifying = a / (1 + n) * (1 + n * n / 4 + n * n * n * n / 64)
        let xi = northing / rectifying
        let eta = (easting - falseEasting) / rectifying
        let b1 = n / 2 - 2 * n * n / 3 + 37 * n * n * n / 96
        let b2 = n * n / 48 + n * n * n / 15
        let b3 = 17 * n * n * n / 480
        let xiP = xi - (b1 * sin(2 * xi) * cosh(2 * eta) + b2 * sin(4 * xi) * cosh(4 * eta) + b3 * sin(6 * xi) * cosh(6 * eta))
        let etaP = eta - (b1 * cos(2 * xi) * sinh(2 * eta) + b2 * cos(4 * xi) * sinh(4 * eta) + b3 * cos(6 * xi) * sinh(6 * eta))
        let chi = asin(sin(xiP) / cosh(etaP))
        let d1 = 2 * n - 2 * n * n / 3 - 2 * n * n * n
        let d2 = 7 * n * n / 3 - 8 * n * n * n / 5
        let d3 = 56 * n * n * n / 15
        let latitude = chi + d1 * sin(2 * chi) + d2 * sin(4 * chi) + d3 * sin(6 * chi)
        let longitude = centralMeridian * .pi / 180 + atan2(sinh(etaP), cos(xiP))
        return (latitude, longitude)
    }

    static func ecef(latitude: Double, longitude: Double, a: Double, f: Double) -> (Double, Double, Double) {
        let e2 = f * (2 - f)
        let normal = a / sqrt(1 - e2 * sin(latitude) * sin(latitude))
        return (normal * cos(latitude) * cos(longitude), normal * cos(latitude) * sin(longitude), normal * (1 - e2) * sin(latitude))
    }

    static func helmert(_ p: (Double, Double, Double)) -> (Double, Double, Double) {
        let arcsecond = Double.pi / 180 / 3600
        let rx = shift.rx * arcsecond, ry = shift.ry * arcsecond, rz = shift.rz * arcsecond
        let m = 1 + shift.ppm * 1e-6
        let (x, y, z) = p
        return (
            shift.tx + m * (x - rz * y + ry * z),
            shift.ty + m * (rz * x + y - rx * z),
            shift.tz + m * (-ry * x + rx * y + z)
        )
    }

    /// Degrees of latitude and longitude of an ECEF point (height ignored).
    static func geodetic(_ p: (Double, Double, Double), a: Double, f: Double) -> (latitude: Double, longitude: Double) {
        let e2 = f * (2 - f)
        let (x, y, z) = p
        let longitude = atan2(y, x)
        let r = (x * x + y * y).squareRoot()
        var latitude = atan2(z, r * (1 - e2))
        for _ in 0..<6 {
            let normal = a / sqrt(1 - e2 * sin(latitude) * sin(latitude))
            let height = r / cos(latitude) - normal
            latitude = atan2(z, r * (1 - e2 * normal / (normal + height)))
        }
        return (latitude * 180 / .pi, longitude * 180 / .pi)
    }
}
