import Foundation

/// A position in degrees.
public struct Point: Sendable, Equatable {
    /// Latitude in degrees.
    public var lat: Double
    /// Longitude in degrees.
    public var lon: Double

    /// A point at `lat`, `lon` degrees.
    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }

    /// False when either coordinate is missing (NaN).
    public var isValid: Bool { !lat.isNaN && !lon.isNaN }

    /// Distance in metres (equirectangular: exact enough below a few km, and cheap).
    public func distance(to other: Point) -> Double {
        let x = (other.lon - lon) * cos((lat + other.lat) * .pi / 360)
        let y = other.lat - lat
        return (x * x + y * y).squareRoot() * 111_195
    }

    /// The displacement to `other` in metres, east and north.
    public func vector(to other: Point) -> (east: Double, north: Double) {
        ((other.lon - lon) * cos((lat + other.lat) * .pi / 360) * 111_195, (other.lat - lat) * 111_195)
    }
}
