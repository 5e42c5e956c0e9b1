/// One direction's ordered stop list, merged from its patterns busiest first.
///
/// A pattern is aligned with the list by its longest common subsequence of stops; its stops
/// that are not in the list go in just before the next aligned stop, after any stops other
/// patterns already put there (so the branches of a line follow each other rather than
/// interleave). The first pattern's order is never changed, and a later pattern only adds its
/// own stops, so a new short-turn or express pattern cannot reshuffle the list. A stop appears
/// twice only when one pattern passes it twice.
struct MergedStopList {
    private(set) var stops: [String] = []
    private(set) var places: [String] = []
    private(set) var points: [Point] = []
    /// Stops a pattern had in an order the list contradicts, left where the list has them.
    private(set) var orderConflicts = 0

    init(_ pattern: RoutePattern) {
        stops = pattern.stops
        places = pattern.places
        points = pattern.points
    }

    mutating func merge(_ pattern: RoutePattern) {
        let anchors = Self.alignment(stops, pattern.stops)
        var out: (stops: [String], places: [String], points: [Point]) = ([], [], [])
        var counts: [String: Int] = [:]
        for stop in stops { counts[stop, default: 0] += 1 }
        var patternCounts: [String: Int] = [:]
        for stop in pattern.stops { patternCounts[stop, default: 0] += 1 }
        var listIndex = 0
        var patternIndex = 0
        for (a, b) in anchors + [(stops.count, pattern.stops.count)] {
            // The list's own stops up to the anchor, then the pattern's unaligned stops.
            while listIndex < a {
                out.stops.append(stops[listIndex])
                out.places.append(places[listIndex])
                out.points.append(points[listIndex])
                listIndex += 1
            }
            while patternIndex < b {
                let stop = pattern.stops[patternIndex]
                if counts[stop, default: 0] < patternCounts[stop, default: 0] {
                    out.stops.append(stop)
                    out.places.append(pattern.places[patternIndex])
                    out.points.append(pattern.points[patternIndex])
                    counts[stop, default: 0] += 1
                } else {
                    orderConflicts += 1
                }
                patternIndex += 1
            }
            if a < stops.count {
                out.stops.append(stops[a])
                out.places.append(places[a])
                out.points.append(points[a])
                listIndex = a + 1
                patternIndex = b + 1
            }
        }
        stops = out.stops
        places = out.places
        points = out.points
    }

    /// How much `pattern` runs the same way as this list: over its consecutive stops, +1 when the
    /// next one lies further along the list, −1 when it lies back. Stops are placed on the list by
    /// their place (a station's platforms are one place), else by the nearest listed stop within
    /// `reach` metres (the stop across the street). Zero when they have nothing in common.
    func agreement(with pattern: RoutePattern, reach: Double = 400) -> Int {
        var score = 0
        var previous: Int?
        for (i, place) in pattern.places.enumerated() {
            var position = places.firstIndex(of: place)
            if position == nil, pattern.points[i].isValid {
                var best = reach
                for (j, point) in points.enumerated() where point.isValid {
                    let d = point.distance(to: pattern.points[i])
                    if d < best {
                        best = d
                        position = j
                    }
                }
            }
            guard let position else { continue }
            if let previous, position != previous { score += position > previous ? 1 : -1 }
            previous = position
        }
        return score
    }

    /// Index pairs (list, pattern) of a longest common subsequence of stop ids, in order.
    static func alignment(_ a: [String], _ b: [String]) -> [(Int, Int)] {
        let n = a.count, m = b.count
        guard n > 0, m > 0 else { return [] }
        var table = [[Int32]](repeating: [Int32](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var pairs: [(Int, Int)] = []
        var i = 0, j = 0
        while i < n && j < m {
            if a[i] == b[j] {
                pairs.append((i, j))
                i += 1
                j += 1
            } else if table[i + 1][j] >= table[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return pairs
    }
}
