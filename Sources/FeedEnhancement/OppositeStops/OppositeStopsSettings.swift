/// Thresholds of the opposite-stops matcher, per bundle (`opposites:` in pipeline.yaml).
public struct OppositeStopsSettings: Sendable, Equatable, Codable {
    /// Farthest a bus (or any non-rail) stop's opposite may be, in metres: covers stops across
    /// the street and one-way couplets a block apart.
    public var maxDistance: Double = 250
    /// Farthest for rail, subway, tram and other guided lines: platforms of a station.
    public var railMaxDistance: Double = 600
    /// Links below this confidence (0–1) are not made.
    public var minConfidence: Double = 0.45
    /// Use `parent_station` as evidence (platforms of one station). Tests turn it off to check
    /// the matcher against the parent stations.
    public var useParentStation = true

    /// Thresholds, the defaults unless told.
    public init(maxDistance: Double = 250, railMaxDistance: Double = 600, minConfidence: Double = 0.45, useParentStation: Bool = true) {
        self.maxDistance = maxDistance
        self.railMaxDistance = railMaxDistance
        self.minConfidence = minConfidence
        self.useParentStation = useParentStation
    }

    /// GTFS route types that run on rails or guideways (basic and extended).
    public static func isRail(_ routeType: Int) -> Bool {
        [0, 1, 2, 5, 7, 12].contains(routeType) || (100..<200).contains(routeType) || (400..<500).contains(routeType)
            || (900..<1000).contains(routeType) || (1300..<1500).contains(routeType)
    }
}
