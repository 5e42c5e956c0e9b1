/// Matches a trip's stops to its shape as MobilityData's `StopToShapeMatcher` does, and says what
/// went wrong.
///
/// - By position ("geo distance"): every pass of the shape within 100 m of a stop (400 m for the
///   first and last stops of a rail trip, whose stations are large) is a candidate; a stop with no
///   candidate is too far from the shape. Otherwise the stops are assigned one candidate each, in
///   order along the shape, with the smallest total distance to it; when no assignment keeps the
///   order, the first stop that cannot follow its predecessor is out of order.
/// - By `shape_dist_traveled` ("user distance"), when the trip's last stop and the shape both
///   have distances: each stop with a distance is placed at that distance along the shape (those
///   without are matched by position); a stop placed more than 100 m from its own position is too
///   far from the shape.
///
/// One matcher serves the trips of one shape and remembers each stop's candidates, which depend
/// only on the stop's position.
struct StopToShapeMatcher {
    /// MobilityData's thresholds (`StopToShapeMatcherSettings`); their tests change them.
    struct Settings {
        /// Metres from a stop to the shape beyond which it is too far.
        var maxDistance = 100.0
        /// The larger radius of a rail trip's first and last stations.
        var largeStationMultiplier = 4.0
        /// More candidates than this for one stop is `stop_has_too_many_matches_for_shape`.
        var tooManyMatches = 20
    }

    /// One stop of a trip: its position, its `shape_dist_traveled` (0 when missing), and `key`,
    /// which identifies its position for the cache.
    struct Stop {
        var location: SpherePoint
        var userDistance: Double
        var isLargeStation: Bool
        var key: Int
    }

    enum Problem {
        /// Stop `stop` (an index in the trip's stops) is too far from the shape; `match` is the
        /// closest location (by position) or the one its distance gives.
        case tooFar(stop: Int, match: ShapeMatch)
        case tooManyMatches(stop: Int, match: ShapeMatch, count: Int)
        /// Stop `stop` cannot come after stop `stop - 1` along the shape.
        case outOfOrder(stop: Int, match: ShapeMatch, previous: ShapeMatch)
    }

    let shape: ShapeLine
    let settings: Settings
    private var candidates: [Int: [ShapeMatch]] = [:]
    private var closest: [Int: ShapeMatch] = [:]

    init(shape: ShapeLine, settings: Settings = Settings()) {
        self.shape = shape
        self.settings = settings
    }

    /// One match per stop (empty when matching failed), and the problems found
    /// (`MatchResult`).
    struct Result {
        var matches: [ShapeMatch]
        var problems: [Problem]
    }

    /// Matches by position (`matchUsingGeoDistance`).
    mutating func matchByPosition(_ stops: [Stop]) -> Result {
        guard !stops.isEmpty, !shape.points.isEmpty else { return Result(matches: [], problems: []) }
        var problems: [Problem] = []
        var potential: [[ShapeMatch]] = []
        for (i, stop) in stops.enumerated() {
            potential.append(candidates(for: stop, at: i, problems: &problems))
        }
        if potential.contains(where: \.isEmpty) { return Result(matches: [], problems: problems) }
        let matches = Self.bestMatches(potential, problems: &problems)
        return Result(matches: matches, problems: problems)
    }

    /// Matches by `shape_dist_traveled` (`matchUsingUserDistance`).
    mutating func matchByDistance(_ stops: [Stop]) -> Result {
        guard !stops.isEmpty, !shape.points.isEmpty else { return Result(matches: [], problems: []) }
        var problems: [Problem] = []
        var potential: [[ShapeMatch]] = []
        var searchFrom = 0
        for (i, stop) in stops.enumerated() {
            if stop.userDistance > 0 {
                let match = shape.match(userDistance: stop.userDistance, from: searchFrom, stop: stop.location)
                potential.append([match])
                searchFrom = match.index
            } else {
                let found = candidates(for: stop, at: i, problems: &problems)
                if found.isEmpty { return Result(matches: [], problems: problems) }
                potential.append(found)
            }
        }
        var matches = Self.bestMatches(potential, problems: &problems)
        let count = problems.count
        for (i, match) in matches.enumerated() where match.distanceToShape > settings.maxDistance {
            problems.append(.tooFar(stop: i, match: match))
        }
        if problems.count > count { matches = [] }
        return Result(matches: matches, problems: problems)
    }

    /// The candidates of a stop (`computePotentialMatchesUsingGeoDistance`), with its problems.
    private mutating func candidates(for stop: Stop, at index: Int, problems: inout [Problem]) -> [ShapeMatch] {
        let radius = settings.maxDistance * (stop.isLargeStation ? settings.largeStationMultiplier : 1)
        let key = stop.key * 2 + (stop.isLargeStation ? 1 : 0)
        let found: [ShapeMatch]
        if let cached = candidates[key] {
            found = cached
        } else {
            found = shape.matches(stop.location, within: radius)
            candidates[key] = found
            if found.isEmpty, let match = shape.closestMatch(stop.location), match.distanceToShape > radius { closest[key] = match }
        }
        if found.isEmpty {
            if let match = closest[key] { problems.append(.tooFar(stop: index, match: match)) }
        } else if found.count > settings.tooManyMatches, let nearest = Self.firstMinimum(found, by: \.distanceToShape) {
            problems.append(.tooManyMatches(stop: index, match: found[nearest], count: found.count))
        }
        return found
    }

    /// One candidate per stop, in order along the shape (non-decreasing geo distance), with the
    /// smallest sum of distances to the shape (`findBestMatches`); empty, with an out-of-order
    /// problem, when there is none.
    static func bestMatches(_ potential: [[ShapeMatch]], problems: inout [Problem]) -> [ShapeMatch] {
        // The best assignment through each candidate of the previous stop, grown stop by stop:
        // `choice` is the candidate, `back` the assignment it extends in the previous layer.
        struct Partial {
            var choice: Int
            var score: Double
            var along: Double
            var back: Int
        }
        var layers: [[Partial]] = []
        var previous = [Partial(choice: -1, score: 0, along: 0, back: -1)]
        for (index, matches) in potential.enumerated() {
            var next: [Partial] = []
            for (i, match) in matches.enumerated() {
                var best = -1, bestScore = Double.infinity
                for (j, partial) in previous.enumerated() where !(partial.along > match.geoDistance) && partial.score < bestScore {
                    best = j
                    bestScore = partial.score
                }
                if best >= 0 {
                    next.append(Partial(choice: i, score: bestScore + match.distanceToShape, along: match.geoDistance, back: best))
                }
            }
            if next.isEmpty {
                if index > 0, let match = firstMinimum(matches, by: \.distanceToShape), let last = firstMinimum(previous, by: \.score) {
                    problems.append(.outOfOrder(stop: index, match: matches[match], previous: potential[index - 1][previous[last].choice]))
                }
                return []
            }
            layers.append(next)
            previous = next
        }
        guard var at = firstMinimum(previous, by: \.score) else { return [] }
        var matches = [ShapeMatch](repeating: potential[0][0], count: potential.count)
        for index in stride(from: potential.count - 1, through: 0, by: -1) {
            let partial = layers[index][at]
            matches[index] = potential[index][partial.choice]
            at = partial.back
        }
        return matches
    }

    /// The index of the first element with the smallest key (Java's `Collections.min`).
    static func firstMinimum<T>(_ items: [T], by key: (T) -> Double) -> Int? {
        guard !items.isEmpty else { return nil }
        var best = 0
        for i in items.indices.dropFirst() where key(items[i]) < key(items[best]) { best = i }
        return best
    }
}
