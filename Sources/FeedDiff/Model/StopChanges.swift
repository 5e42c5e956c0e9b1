/// Stops added, removed, renamed, moved, renumbered, or whose opposite stop changed.
public struct StopChanges: Codable, Sendable, Equatable {
    public var added: [StopRef] = []
    public var removed: [StopRef] = []
    public var renamed: [StopRename] = []
    /// Moved by more than `settings.same_place_m`.
    public var moved: [StopMove] = []
    /// Id changed; same name, within `settings.same_place_m`: not a removal plus an addition.
    public var renumbered: [StopRenumber] = []
    /// Stops on both sides whose set of opposite stops (across the street) changed.
    public var oppositeChanged: [OppositeChange] = []

    public init() {}

    enum CodingKeys: String, CodingKey {
        case added, removed, renamed, moved, renumbered
        case oppositeChanged = "opposite_changed"
    }

    public var isEmpty: Bool {
        added.isEmpty && removed.isEmpty && renamed.isEmpty && moved.isEmpty && renumbered.isEmpty && oppositeChanged.isEmpty
    }
}

/// A stop as one side holds it.
public struct StopRef: Codable, Sendable, Equatable {
    public var stopId: String
    public var name: String?
    public var lat: Double?
    public var lon: Double?

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

public struct StopRename: Codable, Sendable, Equatable {
    public var stopId: String
    public var oldName: String?
    public var newName: String?

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

public struct StopMove: Codable, Sendable, Equatable {
    public var stopId: String
    public var name: String?
    /// Metres, rounded to 0.1.
    public var distanceM: Double
    /// `[lat, lon]` before and after.
    public var old: [Double]
    public var new: [Double]

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

public struct StopRenumber: Codable, Sendable, Equatable {
    public var oldStopId: String
    public var newStopId: String
    public var name: String?
    public var distanceM: Double
    public var lat: Double?
    public var lon: Double?

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

public struct OppositeChange: Codable, Sendable, Equatable {
    /// The new side's id.
    public var stopId: String
    public var name: String?
    /// Opposite stop ids before (renumbered ids given as on the new side) and after, sorted.
    public var old: [String]
    public var new: [String]

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
