/// The nearby-stops index every SQLite can read: stops in strips of 0.01° of latitude (about
/// 1.1 km), each strip ordered by longitude (`stop_grid`, a plain table clustered on
/// `(strip, lon, stop_id)`). The `stops_near` query walks the strips that cover the search box
/// and reads each one's longitude range through the key: no R-tree needed.
public enum StopGrid {
    /// Strips per degree of latitude.
    public static let stripsPerDegree = 100.0

    /// The strip of a latitude: `floor((lat + 90) × 100)`, the same arithmetic as the query's
    /// `CAST((lat + 90) * 100 AS INTEGER)` (latitudes ≥ −90 make the two agree).
    public static func strip(latitude: Double) -> Int64 {
        Int64(((latitude + 90) * stripsPerDegree).rounded(.down))
    }
}
