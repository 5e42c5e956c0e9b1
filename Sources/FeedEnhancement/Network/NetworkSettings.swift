/// How one bundle's sources are joined into one network (`network:` in pipeline.yaml): when
/// stops of different sources are one place, and which walks between stops become transfers.
public struct NetworkSettings: Sendable, Equatable, Codable {
    /// Off: no `same_places`, no generated walks (`stop_transfers` keeps the feeds' own rows).
    public var enabled = true
    /// Places of different sources this close (metres) are one place whatever their names: the
    /// entrances of one interchange (Herald Square's subway and PATH's 33rd Street, 57 m).
    public var samePlaceDistance: Double = 120
    /// Places up to this far apart (metres) are one place when their names share a distinctive
    /// word ("Coliseum", "Penn"); numbers and street words do not count ("23 St" on Seventh
    /// Avenue and "23rd Street" on Sixth, 276 m, are two places).
    public var sameNameDistance: Double = 250
    /// Served stops this close (metres, straight line) get a walking transfer.
    public var walkRadius: Double = 250
    /// Walking speed, metres per second.
    public var walkSpeed: Double = 1.2
    /// A walk is this many times the straight line.
    public var detourFactor: Double = 1.3
    /// No transfer takes less than this (seconds).
    public var minTransferSeconds = 60
    /// Pairs joined or split by hand, applied after the rules.
    public var overrides: [PlaceOverride] = []

    /// The defaults above: joining on, 120 m and 250 m, walks within 250 m at 1.2 m/s.
    public init() {}

    /// Seconds to walk `metres` of straight line: the detour, the speed and the minimum.
    public func walkSeconds(_ metres: Double) -> Int {
        max(minTransferSeconds, Int((metres * detourFactor / walkSpeed).rounded(.up)))
    }
}

/// One line of the overrides file: two stops (bundle ids, prefix included) that are one place
/// (`join`) or are not (`split`), whatever the rules say.
public struct PlaceOverride: Sendable, Equatable, Codable {
    /// One stop's bundle id.
    public var stop: String
    /// The other stop's bundle id.
    public var other: String
    /// True for `join` (one place), false for `split` (two).
    public var join: Bool
    /// The line of the overrides file, for notices.
    public var line: Int

    /// An override read from `line` of the overrides file.
    public init(stop: String, other: String, join: Bool, line: Int) {
        self.stop = stop
        self.other = other
        self.join = join
        self.line = line
    }
}
