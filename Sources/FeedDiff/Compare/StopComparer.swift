import Foundation

/// Compares the stops of two sides: added, removed, renamed, moved, renumbered, and opposite
/// links changed.
///
/// A stop whose id is gone is *renumbered* when a new stop (an id the old side lacks) has the
/// same name (case and spacing aside) within `samePlaceMetres`; pairs are taken nearest first,
/// each stop in at most one pair. A stop kept under its id is *moved* when it lies more than
/// `samePlaceMetres` from where it was.
struct StopComparer {
    let old: SideData
    let new: SideData
    let settings: DiffSettings

    struct Result {
        var changes: StopChanges
        /// Old id → new id, for every renumbered stop.
        var renumbered: [String: String]
    }

    func compare() -> Result {
        var changes = StopChanges()
        let removedIds = old.stops.keys.filter { new.stops[$0] == nil }.sorted()
        let addedIds = new.stops.keys.filter { old.stops[$0] == nil }.sorted()
        let renumbered = renumbering(removed: removedIds, added: addedIds)
        let renumberedTargets = Set(renumbered.values)

        changes.removed = removedIds.filter { renumbered[$0] == nil }.map(old.stopRef)
        changes.added = addedIds.filter { !renumberedTargets.contains($0) }.map(new.stopRef)
        changes.renumbered = renumbered.sorted { $0.key < $1.key }.map { oldId, newId in
            let a = old.stops[oldId]!, b = new.stops[newId]!
            let distance = a.position.flatMap { p in b.position.map { metres(p, $0) } } ?? 0
            return StopRenumber(
                oldStopId: oldId, newStopId: newId, name: b.name, distanceM: rounded1(distance),
                lat: b.lat.map(rounded6), lon: b.lon.map(rounded6))
        }

        for id in old.stops.keys.sorted() {
            guard let a = old.stops[id], let b = new.stops[id] else { continue }
            if (a.name ?? "") != (b.name ?? "") {
                changes.renamed.append(StopRename(stopId: id, oldName: a.name, newName: b.name))
            }
            if let p = a.position, let q = b.position {
                let distance = metres(p, q)
                if distance > settings.samePlaceMetres {
                    changes.moved.append(
                        StopMove(
                            stopId: id, name: b.name, distanceM: rounded1(distance),
                            old: [rounded6(p.lat), rounded6(p.lon)], new: [rounded6(q.lat), rounded6(q.lon)]))
                }
            }
        }
        changes.oppositeChanged = oppositeChanges(renumbered)
        return Result(changes: changes, renumbered: renumbered)
    }

    /// Pairs removed and added stops of the same name and place, nearest first.
    private func renumbering(removed: [String], added: [String]) -> [String: String] {
        var addedByName: [String: [String]] = [:]
        for id in added {
            guard let name = new.stops[id]?.name, new.stops[id]?.position != nil else { continue }
            addedByName[Self.nameKey(name), default: []].append(id)
        }
        var candidates: [(distance: Double, old: String, new: String)] = []
        for id in removed {
            guard let stop = old.stops[id], let name = stop.name, let p = stop.position else { continue }
            for other in addedByName[Self.nameKey(name)] ?? [] {
                let distance = metres(p, new.stops[other]!.position!)
                if distance <= settings.samePlaceMetres { candidates.append((distance, id, other)) }
            }
        }
        candidates.sort { ($0.distance, $0.old, $0.new) < ($1.distance, $1.old, $1.new) }
        var pairs: [String: String] = [:]
        var taken: Set<String> = []
        for candidate in candidates where pairs[candidate.old] == nil && !taken.contains(candidate.new) {
            pairs[candidate.old] = candidate.new
            taken.insert(candidate.new)
        }
        return pairs
    }

    /// Stops on both sides (by id, or renumbered) whose opposite stops differ, with old ids
    /// translated to new ones.
    private func oppositeChanges(_ renumbered: [String: String]) -> [OppositeChange] {
        let newIdOf = { (id: String) in renumbered[id] ?? id }
        var oldByNewId: [String: Set<String>] = [:]
        for (stop, opposites) in old.opposites {
            oldByNewId[newIdOf(stop)] = Set(opposites.map(newIdOf))
        }
        var out: [OppositeChange] = []
        let oldIdOf = Dictionary(uniqueKeysWithValues: renumbered.map { ($0.value, $0.key) })
        for id in Set(oldByNewId.keys).union(new.opposites.keys).sorted() {
            // Only stops both sides hold: a stop added or removed takes its links with it.
            guard new.stops[id] != nil, old.stops[oldIdOf[id] ?? id] != nil else { continue }
            let before = oldByNewId[id] ?? [], after = new.opposites[id] ?? []
            if before != after {
                out.append(OppositeChange(stopId: id, name: new.stops[id]?.name, old: before.sorted(), new: after.sorted()))
            }
        }
        return out
    }

    /// A name compared case-insensitively, spaces collapsed.
    static func nameKey(_ name: String) -> String {
        name.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
