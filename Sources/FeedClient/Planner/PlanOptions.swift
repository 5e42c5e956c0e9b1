/// What a rider asks of a journey beyond where and when (docs/client.md, "Plan a journey",
/// item 4): a longer change, a shorter walk, step-free travel. The Python planner's
/// `PlanOptions` is the same.
public struct PlanOptions: Sendable, Equatable {
    /// Every change of vehicles takes at least this (seconds, 0–3,600): a stop's change time is
    /// the larger of its own and this, and so is a walk after a ride.
    public var minChangeSeconds: Int
    /// The longest walk taken (metres, 0–10,000): footpaths longer than it are not taken, and
    /// from or to a position only stops within it are reached. Nil: any the bundle gives.
    public var maxWalkMetres: Double?
    /// Only stops whose `wheelchair_boarding` is 1 (a platform without one takes its
    /// station's) are boarded or alighted at, only trips whose `wheelchair_accessible` is 1
    /// ridden.
    public var wheelchair: Bool
    /// With ``wheelchair``, a stop or trip with no information (empty or 0) counts as
    /// accessible; 2 never does.
    public var unknownAccessible: Bool

    /// The longest minimum change (an hour).
    public static let maxMinChange = 3_600
    /// The longest maximum walk (10 km).
    public static let maxWalkLimit = 10_000.0

    /// Options; the defaults ask nothing beyond the timetable.
    public init(minChangeSeconds: Int = 0, maxWalkMetres: Double? = nil, wheelchair: Bool = false, unknownAccessible: Bool = false) {
        self.minChangeSeconds = minChangeSeconds
        self.maxWalkMetres = maxWalkMetres
        self.wheelchair = wheelchair
        self.unknownAccessible = unknownAccessible
    }

    /// What is wrong with the options, in words naming the field (`min_change`, `max_walk`), or
    /// nil.
    public var problem: String? {
        if !(0...Self.maxMinChange).contains(minChangeSeconds) { return "`min_change` must be 0–\(Self.maxMinChange) seconds" }
        if let walk = maxWalkMetres, !(walk >= 0 && walk <= Self.maxWalkLimit) { return "`max_walk` must be 0–\(Int(Self.maxWalkLimit)) metres" }
        return nil
    }

    /// Whether a stop or trip with this `wheelchair_boarding` / `wheelchair_accessible` value
    /// (nil or 0 unknown, 1 yes, 2 no) may be used.
    func allows(_ value: Int?) -> Bool {
        guard wheelchair else { return true }
        switch value ?? 0 {
        case 1: return true
        case 0: return unknownAccessible
        default: return false
        }
    }
}
