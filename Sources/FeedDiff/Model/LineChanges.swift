import Foundation

/// Lines (GTFS routes) added, removed or changed.
public struct LineChanges: Codable, Sendable, Equatable {
    /// Lines on the new side only.
    public var added: [LineRef] = []
    /// Lines on the old side only.
    public var removed: [LineRef] = []
    /// Lines on both sides (matched by id, or by name when the id changed) with any change:
    /// attributes, a direction's stop list or its trips per day.
    public var changed: [LineChange] = []

    /// The given lists, empty unless told.
    public init(added: [LineRef] = [], removed: [LineRef] = [], changed: [LineChange] = []) {
        self.added = added
        self.removed = removed
        self.changed = changed
    }

    /// True when no line was added, removed or changed.
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }
}

/// A line as one side holds it.
public struct LineRef: Codable, Sendable, Equatable {
    /// The side's `route_id`.
    public var routeId: String
    /// `route_short_name`, where the feed gives one.
    public var shortName: String?
    /// `route_long_name`, where the feed gives one.
    public var longName: String?
    /// GTFS `route_type` (3 bus, 1 subway, …).
    public var type: Int
    /// `RRGGBB`, where the feed gives one.
    public var color: String?
    /// Trips per day on the side's representative dates, all directions together.
    public var tripsPerDay: DayCounts

    /// A line by its parts.
    public init(routeId: String, shortName: String?, longName: String?, type: Int, color: String?, tripsPerDay: DayCounts) {
        self.routeId = routeId
        self.shortName = shortName
        self.longName = longName
        self.type = type
        self.color = color
        self.tripsPerDay = tripsPerDay
    }

    enum CodingKeys: String, CodingKey {
        case type, color
        case routeId = "route_id"
        case shortName = "short_name"
        case longName = "long_name"
        case tripsPerDay = "trips_per_day"
    }

    /// "Route 12", or the long name when the line has no short name.
    public var label: String { LineRef.label(shortName: shortName, longName: longName, routeId: routeId) }

    /// The label with the long name and, when it is not the short name, the route id: tells
    /// apart lines sharing a short name ("Route RED Newark - Harrison [Special1]").
    public var title: String { LineRef.title(shortName: shortName, longName: longName, routeId: routeId) }

    static func label(shortName: String?, longName: String?, routeId: String) -> String {
        if let short = shortName?.trimmed, !short.isEmpty { return short.lowercased().hasPrefix("route") ? short : "Route \(short)" }
        if let long = longName?.trimmed, !long.isEmpty { return long }
        return "Route \(routeId)"
    }

    static func title(shortName: String?, longName: String?, routeId: String) -> String {
        let label = label(shortName: shortName, longName: longName, routeId: routeId)
        var out = label
        if let long = longName?.trimmed, !long.isEmpty, long != label { out += " \(long)" }
        if routeId != shortName?.trimmed && label != "Route \(routeId)" { out += " [\(routeId)]" }
        return out
    }
}

/// Trips per day on each day type's representative date.
public struct DayCounts: Codable, Sendable, Equatable {
    /// Trips on the representative weekday.
    public var weekday: Int
    /// Trips on the representative Saturday.
    public var saturday: Int
    /// Trips on the representative Sunday.
    public var sunday: Int

    /// Counts, 0 unless told.
    public init(weekday: Int = 0, saturday: Int = 0, sunday: Int = 0) {
        self.weekday = weekday
        self.saturday = saturday
        self.sunday = sunday
    }

    /// The count for one day type.
    public subscript(type: DayType) -> Int {
        get {
            switch type {
            case .weekday: weekday
            case .saturday: saturday
            case .sunday: sunday
            }
        }
        set {
            switch type {
            case .weekday: weekday = newValue
            case .saturday: saturday = newValue
            case .sunday: sunday = newValue
            }
        }
    }

    static func + (a: DayCounts, b: DayCounts) -> DayCounts {
        DayCounts(weekday: a.weekday + b.weekday, saturday: a.saturday + b.saturday, sunday: a.sunday + b.sunday)
    }
}

/// The day types trips per day are compared on.
public enum DayType: String, Codable, Sendable, CaseIterable {
    case weekday, saturday, sunday

    /// "weekday", "Saturday", "Sunday".
    public var label: String { self == .weekday ? "weekday" : rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

/// One line on both sides, and what changed.
public struct LineChange: Codable, Sendable, Equatable {
    /// The new side's id.
    public var routeId: String
    /// The old side's id, when it differs (matched by name).
    public var oldRouteId: String?
    /// `route_short_name` on the new side.
    public var shortName: String?
    /// `route_long_name` on the new side.
    public var longName: String?
    /// "short name / long name" before and after, when either changed.
    public var renamed: Change<String>?
    /// "colour / text colour" before and after, when either changed.
    public var recoloured: Change<String>?
    /// `route_type` before and after, when it changed.
    public var typeChanged: Change<Int>?
    /// Other route columns that changed (`agency_id`, `description`, `url`, `sort_order`).
    public var otherFields: [String]
    /// All directions together.
    public var tripsPerDay: Change<DayCounts>
    /// Directions with a change (stops, name or trips per day), or present on one side only.
    public var directions: [DirectionChange]

    /// A line change by its parts.
    public init(
        routeId: String, oldRouteId: String?, shortName: String?, longName: String?, renamed: Change<String>?,
        recoloured: Change<String>?, typeChanged: Change<Int>?, otherFields: [String], tripsPerDay: Change<DayCounts>,
        directions: [DirectionChange]
    ) {
        self.routeId = routeId
        self.oldRouteId = oldRouteId
        self.shortName = shortName
        self.longName = longName
        self.renamed = renamed
        self.recoloured = recoloured
        self.typeChanged = typeChanged
        self.otherFields = otherFields
        self.tripsPerDay = tripsPerDay
        self.directions = directions
    }

    enum CodingKeys: String, CodingKey {
        case renamed, recoloured, directions
        case routeId = "route_id"
        case oldRouteId = "old_route_id"
        case shortName = "short_name"
        case longName = "long_name"
        case typeChanged = "type_changed"
        case otherFields = "other_fields"
        case tripsPerDay = "trips_per_day"
    }

    /// "Route 12", or the long name when the line has no short name (new side's names).
    public var label: String { LineRef.label(shortName: shortName, longName: longName, routeId: routeId) }
    /// The label with the long name and, where needed, the route id (``LineRef/title``).
    public var title: String { LineRef.title(shortName: shortName, longName: longName, routeId: routeId) }
}

/// One user-facing direction of a line, before and after.
public struct DirectionChange: Codable, Sendable, Equatable {
    /// `direction_index` on the new side; nil when the direction is gone.
    public var index: Int?
    /// `direction_index` on the old side; nil when the direction is new.
    public var oldIndex: Int?
    /// "to Downtown" (the new name, or the old one when the direction is gone).
    public var name: String
    /// The direction's name before and after, when it changed.
    public var renamed: Change<String>?
    /// Stops on the new ordered list and not on the old one (a renumbered stop counts as the same).
    public var stopsAdded: [StopRef]
    /// Stops on the old ordered list and not on the new one.
    public var stopsRemoved: [StopRef]
    /// The stops both lists hold are in a different order.
    public var reordered: Bool
    /// Trips per day of this direction, before and after.
    public var tripsPerDay: Change<DayCounts>

    /// A direction change by its parts.
    public init(
        index: Int?, oldIndex: Int?, name: String, renamed: Change<String>?, stopsAdded: [StopRef],
        stopsRemoved: [StopRef], reordered: Bool, tripsPerDay: Change<DayCounts>
    ) {
        self.index = index
        self.oldIndex = oldIndex
        self.name = name
        self.renamed = renamed
        self.stopsAdded = stopsAdded
        self.stopsRemoved = stopsRemoved
        self.reordered = reordered
        self.tripsPerDay = tripsPerDay
    }

    enum CodingKeys: String, CodingKey {
        case index, name, renamed, reordered
        case oldIndex = "old_index"
        case stopsAdded = "stops_added"
        case stopsRemoved = "stops_removed"
        case tripsPerDay = "trips_per_day"
    }
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
