/// What changed in the network tables (docs/bundle-format.md, "One network"): places linked or
/// split (`same_places`), and walks and transfers added, removed or changed (`stop_transfers`).
/// The feed's own `transfers` and the real-time ids (`realtime_trips`) are counted in the
/// summary's `counts`.
public struct NetworkChanges: Codable, Sendable, Equatable {
    /// Same-place links on the new side only: two stops now one place.
    public var linked: [PlaceLink] = []
    /// Same-place links on the old side only: two stops no longer one place.
    public var split: [PlaceLink] = []
    /// Walks and transfers on the new side only.
    public var walksAdded: [WalkChange] = []
    /// Walks and transfers on the old side only.
    public var walksRemoved: [WalkChange] = []
    /// The same pair of stops on both sides, with another kind or time.
    public var walksChanged: [WalkChange] = []

    /// The given lists, empty unless told.
    public init(
        linked: [PlaceLink] = [], split: [PlaceLink] = [], walksAdded: [WalkChange] = [], walksRemoved: [WalkChange] = [],
        walksChanged: [WalkChange] = []
    ) {
        self.linked = linked
        self.split = split
        self.walksAdded = walksAdded
        self.walksRemoved = walksRemoved
        self.walksChanged = walksChanged
    }

    enum CodingKeys: String, CodingKey {
        case linked, split
        case walksAdded = "walks_added"
        case walksRemoved = "walks_removed"
        case walksChanged = "walks_changed"
    }

    /// True when no link, walk or transfer changed.
    public var isEmpty: Bool { linked.isEmpty && split.isEmpty && walksAdded.isEmpty && walksRemoved.isEmpty && walksChanged.isEmpty }
}

/// Two stops that are one place (a `same_places` link), once per pair: `stopId` < `otherStopId`.
public struct PlaceLink: Codable, Sendable, Equatable {
    /// The first stop of the pair, by id.
    public var stopId: String
    /// The second stop of the pair.
    public var otherStopId: String
    /// The stops' names on the side that has the link.
    public var stopName: String?
    public var otherStopName: String?
    /// Straight-line distance between the two, metres.
    public var distanceM: Double
    /// What the link rests on (`38 m, names share `millbrae`, both rail`, `override`).
    public var evidence: String

    /// A link by its parts.
    public init(stopId: String, otherStopId: String, stopName: String?, otherStopName: String?, distanceM: Double, evidence: String) {
        self.stopId = stopId
        self.otherStopId = otherStopId
        self.stopName = stopName
        self.otherStopName = otherStopName
        self.distanceM = distanceM
        self.evidence = evidence
    }

    enum CodingKeys: String, CodingKey {
        case evidence
        case stopId = "stop_id"
        case otherStopId = "other_stop_id"
        case stopName = "stop_name"
        case otherStopName = "other_stop_name"
        case distanceM = "distance_m"
    }

    /// `bart:MLBR (Millbrae) = caltrain:70011 (Millbrae), 38 m`.
    public var label: String {
        func named(_ id: String, _ name: String?) -> String { name.map { "\(id) (\($0))" } ?? id }
        return "\(named(stopId, stopName)) = \(named(otherStopId, otherStopName)), \(Int(distanceM.rounded())) m"
    }
}

/// One `stop_transfers` row on either side: where a rider goes on foot, its kind and time before
/// and after (nil on the side without it).
public struct WalkChange: Codable, Sendable, Equatable {
    /// The stop walked from.
    public var fromStopId: String
    /// The stop walked to.
    public var toStopId: String
    /// `feed`, `pathway`, `station` or `walk` on the old side; nil when it has none.
    public var oldKind: String?
    /// The kind on the new side.
    public var newKind: String?
    /// Seconds on the old side.
    public var oldSeconds: Int?
    /// Seconds on the new side.
    public var newSeconds: Int?

    /// A walk by its parts.
    public init(fromStopId: String, toStopId: String, oldKind: String?, newKind: String?, oldSeconds: Int?, newSeconds: Int?) {
        self.fromStopId = fromStopId
        self.toStopId = toStopId
        self.oldKind = oldKind
        self.newKind = newKind
        self.oldSeconds = oldSeconds
        self.newSeconds = newSeconds
    }

    enum CodingKeys: String, CodingKey {
        case fromStopId = "from_stop_id"
        case toStopId = "to_stop_id"
        case oldKind = "old_kind"
        case newKind = "new_kind"
        case oldSeconds = "old_seconds"
        case newSeconds = "new_seconds"
    }

    /// `bart:MLBR → caltrain:70011 walk 120 s`, or `… walk 120 → 95 s` for a change.
    public var label: String {
        func side(_ kind: String?, _ seconds: Int?) -> String { "\(kind ?? "-") \(seconds.map(String.init) ?? "-") s" }
        let what: String
        switch (oldKind, newKind) {
        case (nil, _): what = side(newKind, newSeconds)
        case (_, nil): what = side(oldKind, oldSeconds)
        default:
            what =
                oldKind == newKind
                ? "\(newKind ?? "") \(oldSeconds.map(String.init) ?? "-") → \(newSeconds.map(String.init) ?? "-") s"
                : "\(side(oldKind, oldSeconds)) → \(side(newKind, newSeconds))"
        }
        return "\(fromStopId) → \(toStopId) \(what)"
    }
}
