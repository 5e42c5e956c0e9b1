import FeedSQLite

/// Compares the lines of two sides: added, removed, renamed, recoloured, type changed; per
/// user-facing direction, the stops added to or removed from its ordered list and its trips per
/// day on each day type's representative date.
///
/// Lines are matched by `route_id`; lines left over on both sides are then matched by short
/// name, then by long name (case and spacing aside), where the name is unique among the left
/// over lines of each side. The directions of a matched line are paired by the overlap of their
/// stops (renumbered stops counting as the same), falling back to equal `direction_index`.
struct LineComparer {
    let old: SideData
    let new: SideData
    /// Old stop id → new stop id.
    let renumberedStops: [String: String]

    struct Result {
        var changes: LineChanges
        /// Lines matched by name whose id changed.
        var renumbered: Int
    }

    func compare() -> Result {
        let pairs = matchLines()
        let matchedOld = Set(pairs.map(\.old)), matchedNew = Set(pairs.map(\.new))
        var changes = LineChanges()
        changes.removed = old.routes.keys.filter { !matchedOld.contains($0) }.sorted().map { lineRef($0, old) }
        changes.added = new.routes.keys.filter { !matchedNew.contains($0) }.sorted().map { lineRef($0, new) }
        for (oldId, newId) in pairs.sorted(by: { $0.new < $1.new }) {
            if let change = compareLine(oldId, newId) { changes.changed.append(change) }
        }
        return Result(changes: changes, renumbered: pairs.filter { $0.old != $0.new }.count)
    }

    private func matchLines() -> [(old: String, new: String)] {
        var pairs = old.routes.keys.filter { new.routes[$0] != nil }.map { (old: $0, new: $0) }
        var leftOld = Set(old.routes.keys.filter { new.routes[$0] == nil })
        var leftNew = Set(new.routes.keys.filter { old.routes[$0] == nil })
        for name in [{ (r: SideData.Route) in r.shortName }, { (r: SideData.Route) in r.longName }] {
            func unique(_ ids: Set<String>, _ side: SideData) -> [String: String] {
                var byKey: [String: [String]] = [:]
                for id in ids {
                    guard let value = name(side.routes[id]!), !value.trimmed.isEmpty else { continue }
                    byKey[StopComparer.nameKey(value), default: []].append(id)
                }
                return byKey.compactMapValues { $0.count == 1 ? $0[0] : nil }
            }
            let olds = unique(leftOld, old), news = unique(leftNew, new)
            for (key, oldId) in olds.sorted(by: { $0.key < $1.key }) {
                guard let newId = news[key] else { continue }
                pairs.append((oldId, newId))
                leftOld.remove(oldId)
                leftNew.remove(newId)
            }
        }
        return pairs
    }

    private func lineRef(_ id: String, _ side: SideData) -> LineRef {
        let route = side.routes[id]!
        return LineRef(
            routeId: id, shortName: route.shortName, longName: route.longName, type: route.type,
            color: route.color, tripsPerDay: side.tripsPerDay(route: id))
    }

    private func compareLine(_ oldId: String, _ newId: String) -> LineChange? {
        let a = old.routes[oldId]!, b = new.routes[newId]!
        func nameText(_ r: SideData.Route) -> String {
            [r.shortName, r.longName].compactMap { $0?.trimmed }.filter { !$0.isEmpty }.joined(separator: " · ")
        }
        func colourText(_ r: SideData.Route) -> String {
            "\(r.color.map { "#" + $0.uppercased() } ?? "none") on \(r.textColor.map { "#" + $0.uppercased() } ?? "none")"
        }
        let renamed =
            (a.shortName ?? "") != (b.shortName ?? "") || (a.longName ?? "") != (b.longName ?? "")
            ? Change(old: nameText(a), new: nameText(b)) : nil
        let recoloured = colourText(a) != colourText(b) ? Change(old: colourText(a), new: colourText(b)) : nil
        let typeChanged = a.type != b.type ? Change(old: a.type, new: b.type) : nil
        let others = a.others.keys.filter { a.others[$0] != b.others[$0] }.sorted()
        let directions = compareDirections(oldId, newId)
        let trips = Change(old: old.tripsPerDay(route: oldId), new: new.tripsPerDay(route: newId))
        guard
            oldId != newId || renamed != nil || recoloured != nil || typeChanged != nil || !others.isEmpty
                || !directions.isEmpty || trips.old != trips.new
        else { return nil }
        return LineChange(
            routeId: newId, oldRouteId: oldId == newId ? nil : oldId, shortName: b.shortName, longName: b.longName,
            renamed: renamed, recoloured: recoloured, typeChanged: typeChanged, otherFields: others,
            tripsPerDay: trips, directions: directions)
    }

    private func compareDirections(_ oldId: String, _ newId: String) -> [DirectionChange] {
        let olds = old.directions[oldId] ?? [], news = new.directions[newId] ?? []
        let oldSets = olds.map { Set($0.stops.map(newStopId)) }, newSets = news.map { Set($0.stops) }
        var candidates: [(score: Double, sameIndex: Bool, o: Int, n: Int)] = []
        for (i, o) in olds.enumerated() {
            for (j, n) in news.enumerated() {
                let union = oldSets[i].union(newSets[j]).count
                let score = union == 0 ? 0 : Double(oldSets[i].intersection(newSets[j]).count) / Double(union)
                if score > 0 || o.index == n.index { candidates.append((score, o.index == n.index, i, j)) }
            }
        }
        candidates.sort { ($0.score, $0.sameIndex ? 1 : 0, -$0.o, -$0.n) > ($1.score, $1.sameIndex ? 1 : 0, -$1.o, -$1.n) }
        var pairedOld: [Int: Int] = [:], pairedNew: Set<Int> = []
        for c in candidates where pairedOld[c.o] == nil && !pairedNew.contains(c.n) {
            pairedOld[c.o] = c.n
            pairedNew.insert(c.n)
        }
        var out: [DirectionChange] = []
        for (j, n) in news.enumerated() {
            let i = pairedOld.first { $0.value == j }?.key
            let change = compareDirection(i.map { olds[$0] }, n, oldRoute: oldId, newRoute: newId)
            if let change { out.append(change) }
        }
        for (i, o) in olds.enumerated() where pairedOld[i] == nil {
            if let change = compareDirection(o, nil, oldRoute: oldId, newRoute: newId) { out.append(change) }
        }
        return out
    }

    private func compareDirection(_ o: SideData.Direction?, _ n: SideData.Direction?, oldRoute: String, newRoute: String) -> DirectionChange? {
        let oldStops = unique((o?.stops ?? []).map(newStopId)), newStops = unique(n?.stops ?? [])
        let oldSet = Set(oldStops), newSet = Set(newStops)
        let oldIdOf = Dictionary(uniqueKeysWithValues: renumberedStops.map { ($0.value, $0.key) })
        let added = newStops.filter { !oldSet.contains($0) }.map(new.stopRef)
        let removed = oldStops.filter { !newSet.contains($0) }.map { old.stopRef(oldIdOf[$0] ?? $0) }
        let reordered = oldStops.filter(newSet.contains) != newStops.filter(oldSet.contains)
        let trips = Change(
            old: o.map { old.tripsPerDay(.init(route: oldRoute, index: $0.index)) } ?? DayCounts(),
            new: n.map { new.tripsPerDay(.init(route: newRoute, index: $0.index)) } ?? DayCounts())
        let renamed = o != nil && n != nil && o!.name != n!.name ? Change(old: o!.name, new: n!.name) : nil
        guard o == nil || n == nil || !added.isEmpty || !removed.isEmpty || reordered || renamed != nil || trips.old != trips.new else {
            return nil
        }
        return DirectionChange(
            index: n?.index, oldIndex: o?.index, name: n?.name ?? o?.name ?? "", renamed: renamed,
            stopsAdded: added, stopsRemoved: removed, reordered: reordered, tripsPerDay: trips)
    }

    private func newStopId(_ id: String) -> String { renumberedStops[id] ?? id }

    /// First occurrences, in order (a loop's list can pass a stop twice).
    private func unique(_ ids: [String]) -> [String] {
        var seen: Set<String> = []
        return ids.filter { seen.insert($0).inserted }
    }
}
