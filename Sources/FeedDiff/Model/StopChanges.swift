/// Stops added, removed, renamed, moved, renumbered, or whose opposite stop changed.
public struct StopChanges: Codable, Sendable, Equatable {
    /// Stops on the new side only.
    public var added: [StopRef] = []
    /// Stops on the old side only.
    public var removed: [StopRef] = []
    /// Same id, another `stop_name`.
    public var renamed: [StopRename] = []
    /// Moved by more than `settings.same_place_m`.
    public var moved: [StopMove] = []
    /// Id changed; same name, within `settings.same_place_m`: not a removal plus an addition.
    public var renumbered: [StopRenumber] = []
    /// Stops on both sides whose set of opposite stops (across the street) changed.
    public var oppositeChanged: [OppositeChange] = []

    /// No changes.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case added, removed, renamed, moved, renumbered
        case oppositeChanged = "opposite_changed"
    }

    /// True when no stop changed in any of these ways.
    public var isEmpty: Bool {
        added.isEmpty && removed.isEmpty && renamed.isEmpty && moved.isEmpty && renumbered.isEmpty && oppositeChanged.isEmpty
    }
}

/// A stop as one side holds it.
public struct StopRef: Codable, Sendable, Equatable {
    /// The side's `stop_id`.
    public var stopId: String
    /// `stop_name`, where the feed gives one.
    public var name: String?
    /// Latitude, degrees; nil for a stop without a position.
    public var lat: Double?
    /// Longitude, degrees; nil for a stop without a position.
    public var lon: Double?

    /// A stop by its parts.
    public init(stopId: String, name: String?, lat: Double?, lon: Double?) {
        self.stopId = stopId
        self.name = name
        self.lat = lat
        self.lon = lon
    }

    enum CodingKeys: String, CodingKey {
        case name, lat, lon
        case stopId = "stop_id"
    }

    /// "Main St & 1st (1234)".
    public var label: String { name.map { "\($0) (\(stopId))" } ?? stopId }
}

/// A stop whose name changed.
public struct StopRename: Codable, Sendable, Equatable {
    /// The `stop_id`, the same on both sides.
    public var stopId: String
    /// `stop_name` on the old side.
    public var oldName: String?
    /// `stop_name` on the new side.
    public var newName: String?

    /// A rename by its parts.
    public init(stopId: String, oldName: String?, newName: String?) {
        self.stopId = stopId
        self.oldName = oldName
        self.newName = newName
    }

    enum CodingKeys: String, CodingKey {
        case stopId = "stop_id"
        case oldName = "old_name"
        case newName = "new_name"
    }
}

/// A stop that moved by more than ``DiffSettings/samePlaceMetres``.
public struct StopMove: Codable, Sendable, Equatable {
    /// The `stop_id`, the same on both sides.
    public var stopId: String
    /// `stop_name` on the new side.
    public var name: String?
    /// Metres, rounded to 0.1.
    public var distanceM: Double
    /// `[lat, lon]` before and after.
    public var old: [Double]
    /// `[lat, lon]` after.
    public var new: [Double]

    /// A move by its parts.
    public init(stopId: String, name: String?, distanceM: Double, old: [Double], new: [Double]) {
        self.stopId = stopId
        self.name = name
        self.distanceM = distanceM
        self.old = old
        self.new = new
    }

    enum CodingKeys: String, CodingKey {
        case name, old, new
        case stopId = "stop_id"
        case distanceM = "distance_m"
    }
}

/// A stop whose id changed: same name, within ``DiffSettings/samePlaceMetres``.
public struct StopRenumber: Codable, Sendable, Equatable {
    /// `stop_id` on the old side.
    public var oldStopId: String
    /// `stop_id` on the new side.
    public var newStopId: String
    /// `stop_name`, the same on both sides.
    public var name: String?
    /// Metres between the old and new positions, rounded to 0.1.
    public var distanceM: Double
    /// Latitude on the new side, degrees.
    public var lat: Double?
    /// Longitude on the new side, degrees.
    public var lon: Double?

    /// A renumbering by its parts.
    public init(oldStopId: String, newStopId: String, name: String?, distanceM: Double, lat: Double?, lon: Double?) {
        self.oldStopId = oldStopId
        self.newStopId = newStopId
        self.name = name
        self.distanceM = distanceM
        self.lat = lat
        self.lon = lon
    }

    enum CodingKeys: String, CodingKey {
        case name, lat, lon
        case oldStopId = "old_stop_id"
        case newStopId = "new_stop_id"
        case distanceM = "distance_m"
    }
}

/// A stop whose opposite stops (across the street) changed.
public struct OppositeChange: Codable, Sendable, Equatable {
    /// The new side's id.
    public var stopId: String
    /// `stop_name` on the new side.
    public var name: String?
    /// Opposite stop ids before (renumbered ids given as on the new side) and after, sorted.
    public var old: [String]
    /// Opposite stop ids after, sorted.
    public var new: [String]

    /// An opposite-stop change by its parts.
    public init(stopId: String, name: String?, old: [String], new: [String]) {
        self.stopId = stopId
        self.name = name
        self.old = old
        self.new = new
    }

    enum CodingKeys: String, CodingKey {
        case name, old, new
        case stopId = "stop_id"
    }
}
