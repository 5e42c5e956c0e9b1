import Foundation

/// The points nearest a point, by a k-d tree over their positions on the unit sphere (straight
/// lines in three dimensions keep the order of distances on the ground): a query visits about
/// its limit and a logarithm of points however densely they stand, where a grid of cells visits
/// every point of a crowded cell. A hostile square of 100,000 stops, all within one another's
/// walking distance, made the network stage and the opposite stops quadratic (issue 41).
///
/// The tree only chooses which points are near: callers measure with ``Point/distance(to:)`` and
/// order by it, so answers do not depend on the tree's own metric. Points without a position are
/// never returned.
struct NearestPoints {
    /// Each point's unit vector, by its index.
    private let unit: [SIMD3<Double>]
    /// The tree, implicit: the node of a range is its middle element, its halves the ranges
    /// either side.
    private var order: [Int32]
    /// Each node's splitting axis, by its position in `order`.
    private var axes: [UInt8]

    /// Metres of ground per radian of the sphere (the radius ``Point/distance(to:)`` uses).
    private static let metresPerRadian = 111_195 * 180 / Double.pi

    init(_ points: [Point]) {
        unit = points.map(Self.unit)
        order = points.indices.filter { points[$0].isValid }.map { Int32($0) }
        axes = Array(repeating: 0, count: order.count)
        build(0, order.count)
    }

    private static func unit(_ point: Point) -> SIMD3<Double> {
        guard point.isValid else { return SIMD3(.nan, .nan, .nan) }
        let lat = point.lat * .pi / 180, lon = point.lon * .pi / 180
        return SIMD3(cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat))
    }

    private mutating func build(_ low: Int, _ high: Int) {
        guard high - low > 1 else { return }
        var least = SIMD3<Double>(repeating: .infinity), most = SIMD3<Double>(repeating: -.infinity)
        for position in low..<high {
            let v = unit[Int(order[position])]
            least = pointwiseMin(least, v)
            most = pointwiseMax(most, v)
        }
        let spread = most - least
        let axis = spread.x >= spread.y && spread.x >= spread.z ? 0 : (spread.y >= spread.z ? 1 : 2)
        let unit = self.unit
        // Ties by index, so the tree (and so which of equally near points a full query keeps)
        // depends on the points alone.
        order[low..<high].sort { (unit[Int($0)][axis], $0) < (unit[Int($1)][axis], $1) }
        let middle = (low + high) / 2
        axes[middle] = UInt8(axis)
        build(low, middle)
        build(middle + 1, high)
    }

    /// The indices of at most `limit` points nearest `point` within about `metres` (a little
    /// more: callers measure), nearest first, ties by index. Fewer than `limit` means every point
    /// that near is there.
    func nearest(to point: Point, within metres: Double, limit: Int) -> [Int] {
        guard point.isValid, limit > 0, !order.isEmpty else { return [] }
        let target = Self.unit(point)
        // A chord is never longer than its arc: the bound in radians, with room for the
        // equirectangular distance callers use.
        let reach = (metres * 1.01 + 1) / Self.metresPerRadian
        var found = NearestHeap(limit: limit, bound: reach * reach)
        search(0, order.count, target, &found)
        return found.sorted()
    }

    /// ``nearest(to:within:limit:)`` asked for `first` points, then four times as many, until
    /// fewer come back than asked, `limit` is reached or `enough` says the points so far do (a
    /// caller that keeps the nearest few that pass a test need not measure hundreds).
    func nearest(to point: Point, within metres: Double, first: Int, limit: Int, enough: ([Int]) -> Bool) -> [Int] {
        var size = max(1, min(first, limit))
        while true {
            let found = nearest(to: point, within: metres, limit: size)
            if found.count < size || size >= limit || enough(found) { return found }
            size = min(limit, size * 4)
        }
    }

    private func search(_ low: Int, _ high: Int, _ target: SIMD3<Double>, _ found: inout NearestHeap) {
        guard low < high else { return }
        let middle = (low + high) / 2
        let index = Int(order[middle])
        let v = unit[index]
        let d = target - v
        found.offer((d * d).sum(), index)
        guard high - low > 1 else { return }
        let axis = Int(axes[middle])
        let across = target[axis] - v[axis]
        if across < 0 {
            search(low, middle, target, &found)
            if across * across <= found.bound { search(middle + 1, high, target, &found) }
        } else {
            search(middle + 1, high, target, &found)
            if across * across <= found.bound { search(low, middle, target, &found) }
        }
    }
}

/// The `limit` best (squared distance, index) pairs offered, as a max-heap: its top is the worst
/// kept, replaced by anything better once it is full.
private struct NearestHeap {
    private var items: [(Double, Int)] = []
    let limit: Int
    private let radius: Double

    init(limit: Int, bound: Double) {
        self.limit = limit
        radius = bound
        items.reserveCapacity(min(limit, 1024))
    }

    /// What a point must be within to be kept: the radius, or the worst kept once full.
    var bound: Double { items.count < limit ? radius : items[0].0 }

    mutating func offer(_ distance: Double, _ index: Int) {
        guard distance <= radius else { return }
        if items.count < limit {
            items.append((distance, index))
            var child = items.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard items[parent] < items[child] else { break }
                items.swapAt(parent, child)
                child = parent
            }
        } else if (distance, index) < items[0] {
            items[0] = (distance, index)
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var largest = parent
                if left < items.count, items[largest] < items[left] { largest = left }
                if right < items.count, items[largest] < items[right] { largest = right }
                guard largest != parent else { break }
                items.swapAt(parent, largest)
                parent = largest
            }
        }
    }

    func sorted() -> [Int] { items.sorted { $0 < $1 }.map(\.1) }
}
