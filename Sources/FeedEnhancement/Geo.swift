import Foundation

/// A position in degrees.
package struct Point: Sendable, Equatable {
    package var lat: Double
    package var lon: Double

    package init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }

    package var isValid: Bool { !lat.isNaN && !lon.isNaN }

    /// Distance in metres (equirectangular: exact enough below a few km, and cheap).
    package func distance(to other: Point) -> Double {
        let x = (other.lon - lon) * cos((lat + other.lat) * .pi / 360)
        let y = other.lat - lat
        return (x * x + y * y).squareRoot() * 111_195
    }

    /// The displacement to `other` in metres, east and north.
    package func vector(to other: Point) -> (east: Double, north: Double) {
        ((other.lon - lon) * cos((lat + other.lat) * .pi / 360) * 111_195, (other.lat - lat) * 111_195)
    }
}
