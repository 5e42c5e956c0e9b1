/// The runs of one route of a ``TransitNetwork``: trips with fixed times, and frequency-based
/// trips' windows kept as written (first start, end, headway), never expanded. The runs are
/// ordered by (start, `trip_id`), as if every window were written out run by run; a run's number
/// says nothing of that order (``key(_:)`` does). So a day's network costs the feed's rows
/// whatever its headways expand to, and finding the earliest run at a time is arithmetic over
/// the windows plus a binary search over the fixed runs (docs/client.md, "Plan a journey").
struct RouteRuns: Sendable {
    /// A frequency window: runs at `first`, `first + headway`, … while before `end`.
    struct Window: Sendable {
        var first: Int
        var end: Int
        var headway: Int
        var trip: String
        /// The number of its first run (after the fixed runs and the windows before it).
        var base: Int
        var count: Int { end > first ? (end - first + headway - 1) / headway : 0 }
    }

    /// Where a run sits in the order: its start, its trip, its number (ties between equal
    /// starts and trips, which only overlapping windows of one trip give).
    struct Key: Comparable, Sendable {
        var start: Int
        var trip: String
        var run: Int
        static func < (a: Key, b: Key) -> Bool { (a.start, a.trip, a.run) < (b.start, b.trip, b.run) }
    }

    /// The fixed runs' starts and trips, by (start, trip): runs 0 ..< fixed.
    private(set) var starts: [Int] = []
    private(set) var trips: [String] = []
    private(set) var windows: [Window] = []
    /// Every run, fixed and windowed.
    private(set) var count = 0

    /// Runs from fixed starts and windows (`headway` > 0), in any order.
    init(fixed: [(start: Int, trip: String)], windows: [(first: Int, end: Int, headway: Int, trip: String)] = []) {
        let sorted = fixed.sorted { ($0.start, $0.trip) < ($1.start, $1.trip) }
        starts = sorted.map(\.start)
        trips = sorted.map(\.trip)
        count = starts.count
        for window in windows.sorted(by: { ($0.first, $0.trip, $0.end, $0.headway) < ($1.first, $1.trip, $1.end, $1.headway) })
        where window.headway > 0 && window.end > window.first {
            let kept = Window(first: window.first, end: window.end, headway: window.headway, trip: window.trip, base: count)
            self.windows.append(kept)
            count += kept.count
        }
    }

    /// The window holding run `run` (a number at or past the fixed runs).
    private func window(of run: Int) -> Window {
        var (low, high) = (0, windows.count - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            if windows[middle].base <= run { low = middle } else { high = middle - 1 }
        }
        return windows[low]
    }

    /// When run `run` starts (seconds from the service date's start).
    func start(_ run: Int) -> Int {
        if run < starts.count { return starts[run] }
        let window = window(of: run)
        return window.first + (run - window.base) * window.headway
    }

    /// The trip run `run` is a run of.
    func trip(_ run: Int) -> String { run < starts.count ? trips[run] : window(of: run).trip }

    func key(_ run: Int) -> Key { Key(start: start(run), trip: trip(run), run: run) }

    /// Whether run `a` comes before run `b` (fixed runs alone: their numbers are their order).
    func precedes(_ a: Int, _ b: Int) -> Bool { windows.isEmpty ? a < b : key(a) < key(b) }

    /// The first run in order after `after` (nil: the first of all) starting at `atLeast` or
    /// later, leaving out the windows of `excluding`'s trips; nil when there is none.
    func first(atLeast value: Int, after: Key? = nil, excluding: Set<String> = []) -> Int? {
        let floor = max(value, after?.start ?? value)
        var best: Key?
        if after == nil && windows.isEmpty {
            // Fixed runs alone (most routes): the first starting at `floor` or later.
            var (low, high) = (0, starts.count)
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] < floor { low = middle + 1 } else { high = middle }
            }
            return low < starts.count ? low : nil
        }
        // Fixed runs: the first whose key is past `after` and starts at `floor` or later.
        var (low, high) = (0, starts.count)
        while low < high {
            let middle = (low + high) / 2
            let key = Key(start: starts[middle], trip: trips[middle], run: middle)
            if key.start < floor || (after.map { key <= $0 } ?? false) { low = middle + 1 } else { high = middle }
        }
        if low < starts.count { best = Key(start: starts[low], trip: trips[low], run: low) }
        for window in windows where !excluding.contains(window.trip) {
            var step = floor <= window.first ? 0 : (floor - window.first + window.headway - 1) / window.headway
            while step < window.count {
                let key = Key(start: window.first + step * window.headway, trip: window.trip, run: window.base + step)
                if let after, key <= after {
                    step += 1
                    continue
                }
                if best == nil || key < best! { best = key }
                break
            }
        }
        return best?.run
    }

    /// The trips of the windows.
    var windowTrips: Set<String> { Set(windows.map(\.trip)) }

    /// The fixed runs of `trip`, by number.
    func fixedRuns(of trip: String) -> [Int] { trips.indices.filter { trips[$0] == trip } }

    /// The runs of `trip` starting at `start`.
    func runs(of trip: String, startingAt start: Int) -> [Int] {
        var found: [Int] = []
        for run in starts.indices where starts[run] == start && trips[run] == trip { found.append(run) }
        for window in windows where window.trip == trip && start >= window.first && start < window.end {
            if (start - window.first) % window.headway == 0 { found.append(window.base + (start - window.first) / window.headway) }
        }
        return found
    }

    /// The runs of `trip` (its fixed runs and its windows), as runs of their own: a delayed copy.
    func runs(of trip: String) -> RouteRuns {
        RouteRuns(
            fixed: fixedRuns(of: trip).map { (starts[$0], trip) },
            windows: windows.filter { $0.trip == trip }.map { ($0.first, $0.end, $0.headway, trip) })
    }
}
