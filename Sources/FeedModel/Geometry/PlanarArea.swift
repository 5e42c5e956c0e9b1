/// A GTFS-Flex zone's geometry: polygons, each a shell then its holes, every ring closed, in
/// planar longitude/latitude as JTS takes GeoJSON coordinates. A `Polygon` feature is one
/// polygon; a `MultiPolygon` feature several.
///
/// It travels in the checked-only `locations` table as text (``encoded``): rings separated by
/// `|`, polygons by `;`, positions by `,`, a position's longitude and latitude by a space, each
/// number in Swift's shortest form that reads back to the same `Double`.
package struct PlanarArea: Sendable, Equatable {
    package var polygons: [[[PlanarPoint]]]

    package init(polygons: [[[PlanarPoint]]]) {
        self.polygons = polygons
    }

    package var encoded: String {
        polygons.map { rings in
            rings.map { ring in ring.map { "\($0.x) \($0.y)" }.joined(separator: ",") }.joined(separator: "|")
        }.joined(separator: ";")
    }

    /// The area ``encoded`` wrote, or nil for text it cannot have written.
    package init?(encoded text: String) {
        var polygons: [[[PlanarPoint]]] = []
        for polygonText in text.split(separator: ";", omittingEmptySubsequences: false) {
            var rings: [[PlanarPoint]] = []
            for ringText in polygonText.split(separator: "|", omittingEmptySubsequences: false) {
                var ring: [PlanarPoint] = []
                for position in ringText.split(separator: ",") {
                    let numbers = position.split(separator: " ")
                    guard numbers.count == 2, let x = Double(numbers[0]), let y = Double(numbers[1]) else { return nil }
                    ring.append(PlanarPoint(x, y))
                }
                rings.append(ring)
            }
            polygons.append(rings)
        }
        self.polygons = polygons
    }

    /// The smallest box holding every position: (min x, min y, max x, max y); nil when empty.
    package var box: PlanarBox? {
        PlanarBox(polygons.lazy.flatMap { $0.first ?? [] })
    }

    /// JTS's location of a point in a polygonal geometry (`IndexedPointInAreaLocator`): inside a
    /// shell and outside its holes is interior; on any ring, boundary.
    package func locate(_ p: PlanarPoint) -> PlanarLocation {
        for rings in polygons {
            let location = Self.locate(p, inPolygon: rings)
            if location != .exterior { return location }
        }
        return .exterior
    }

    static func locate(_ p: PlanarPoint, inPolygon rings: [[PlanarPoint]]) -> PlanarLocation {
        guard let shell = rings.first, !shell.isEmpty else { return .exterior }
        let inShell = PlanarPredicates.locate(p, inRing: shell)
        guard inShell == .interior else { return inShell }
        for hole in rings.dropFirst() where !hole.isEmpty {
            switch PlanarPredicates.locate(p, inRing: hole) {
            case .interior: return .exterior
            case .boundary: return .boundary
            case .exterior: continue
            }
        }
        return .interior
    }
}

/// An axis-aligned box, JTS's `Envelope`.
package struct PlanarBox: Sendable, Equatable {
    package var minX, minY, maxX, maxY: Double

    init?<S: Sequence>(_ points: S) where S.Element == PlanarPoint {
        var iterator = points.makeIterator()
        guard let first = iterator.next() else { return nil }
        minX = first.x
        maxX = first.x
        minY = first.y
        maxY = first.y
        while let p = iterator.next() {
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
    }

    package func intersects(_ other: PlanarBox) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }

    package func covers(_ other: PlanarBox) -> Bool {
        minX <= other.minX && other.maxX <= maxX && minY <= other.minY && other.maxY <= maxY
    }
}
