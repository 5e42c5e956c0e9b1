/// Collects what the HTML map draws: each added, removed or changed line's directions as stop
/// sequences, and the new side's stops for context.
struct DiffGeometryBuilder {
    let old: SideData
    let new: SideData
    /// At most this many context stops are drawn (evenly sampled).
    var contextLimit = 4000

    func build(_ lines: LineChanges) -> DiffGeometry {
        var geometry = DiffGeometry()
        for line in lines.added { geometry.lines.append(draw(line.routeId, line.title, .added, new)) }
        for line in lines.removed { geometry.lines.append(draw(line.routeId, line.title, .removed, old)) }
        for line in lines.changed where line.directions.contains(where: { !$0.stopsAdded.isEmpty || !$0.stopsRemoved.isEmpty || $0.reordered }) {
            geometry.lines.append(draw(line.routeId, line.title, .changed, new))
        }
        let positions = new.stops.keys.sorted().compactMap { new.stops[$0]?.position }
        let step = max(1, (positions.count + contextLimit - 1) / contextLimit)
        geometry.contextStops = stride(from: 0, to: positions.count, by: step).map { [positions[$0].lat, positions[$0].lon] }
        return geometry
    }

    private func draw(_ route: String, _ label: String, _ status: DiffGeometry.Status, _ side: SideData) -> DiffGeometry.Line {
        let paths = (side.directions[route] ?? []).map { direction in
            direction.stops.compactMap { side.stops[$0]?.position }.map { [$0.lat, $0.lon] }
        }.filter { $0.count >= 2 }
        let color = side.routes[route]?.color.flatMap { $0.count == 6 && $0.allSatisfy(\.isHexDigit) ? "#" + $0.uppercased() : nil }
        return DiffGeometry.Line(label: label, status: status, color: color, paths: paths)
    }
}
