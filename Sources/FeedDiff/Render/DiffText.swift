/// The diff as readable text for a terminal: sides, summary, id churn, lines, stops, calendar;
/// every list capped at `limit` items with "… and N more".
public struct DiffText {
    /// Items printed per list before "… and N more"; 0 prints every item.
    public var limit: Int

    /// `limit` 0 prints every item.
    public init(limit: Int = 10) {
        self.limit = limit
    }

    /// The diff as text, sections in the order above.
    public func render(_ diff: FeedDiff) -> String {
        var out: [String] = []
        out.append("feedc diff: \(sideTitle(diff.old)) → \(sideTitle(diff.new))")
        for (tag, side) in [("old", diff.old), ("new", diff.new)] {
            var line = "  \(tag)  \(DiffText.shortDigest(side.digest))"
            if let start = side.serviceStart, let end = side.serviceEnd { line += "  service \(start) … \(end)" }
            line += "  (\(side.label))"
            out.append(line)
        }
        let days = DayType.allCases.compactMap { type -> String? in
            guard let a = diff.old.dayTypeDates[type.rawValue], let b = diff.new.dayTypeDates[type.rawValue] else { return nil }
            return "\(type.label) \(a) → \(b)"
        }
        if !days.isEmpty { out.append("  trips per day are counted on: " + days.joined(separator: ", ")) }
        out.append("")
        if diff.identical {
            out.append("No changes: both sides hold the same content.")
            return out.joined(separator: "\n") + "\n"
        }
        out += summary(diff)
        out += churn(diff)
        out += lines(diff)
        out += stops(diff)
        out += calendar(diff.calendar)
        out += translations(diff.translations)
        out += network(diff.network)
        return out.joined(separator: "\n") + "\n"
    }

    private func sideTitle(_ side: DiffSide) -> String {
        let name = side.bundle ?? "bundle"
        return side.version.map { "\(name) version \($0)" } ?? "\(name) (compiled from the dump)"
    }

    static func shortDigest(_ digest: String) -> String {
        digest.hasPrefix("sha256:") ? String(digest.prefix(7 + 12)) : digest
    }

    /// Friendly names of the tables, in the order the summary lists them.
    static let kinds: [(table: String, label: String)] = [
        ("routes", "lines"), ("stops", "stops"), ("trips", "trips"), ("calendar", "services"),
        ("calendar_dates", "calendar dates"), ("frequencies", "frequencies"), ("directions", "directions"),
        ("direction_stops", "direction stops"), ("stop_directions", "stop directions"), ("stop_opposites", "opposite links"),
        ("stop_routes", "stop lines"), ("patterns", "stop patterns"), ("pattern_stops", "pattern stops"),
        ("timing_stops", "timings"), ("shapes", "shapes"), ("agencies", "agencies"), ("feeds", "feed info"),
        ("translations", "translations"), ("same_places", "same places"), ("stop_transfers", "walks"),
        ("transfers", "feed transfers"), ("realtime_trips", "real-time ids"), ("stop_opposite_routes", "opposite lines"),
        ("stop_grid", "stop grid"), ("stop_tokens", "stop name words"),
    ]

    /// The tables a summary lists, in order: the known ones by name, then any other table counted
    /// (a newer schema's) by its table name, so no change goes unlisted.
    static func summaryKinds(_ counts: [String: ChangeCounts]) -> [(table: String, label: String)] {
        let known = Set(kinds.map(\.table))
        return kinds + counts.keys.filter { !known.contains($0) }.sorted().map { (table: $0, label: $0) }
    }

    private func summary(_ diff: FeedDiff) -> [String] {
        var out = ["Summary", "  " + "kind".padded(16) + ["old", "new", "added", "removed", "changed", "renumbered"].map { $0.leftPadded(10) }.joined()]
        for (table, label) in Self.summaryKinds(diff.counts) {
            guard let c = diff.counts[table], !c.isZero else { continue }
            let values = [c.old, c.new, c.added, c.removed, c.changed].map { String($0).leftPadded(10) }.joined()
            out.append("  " + label.padded(16) + values + (c.renumbered.map { String($0).leftPadded(10) } ?? ""))
        }
        return out + [""]
    }

    private func churn(_ diff: FeedDiff) -> [String] {
        guard !diff.idChurn.isEmpty else { return [] }
        var out = ["Id churn"]
        for c in diff.idChurn {
            let label = Self.kinds.first { $0.table == c.kind }?.label ?? c.kind
            let share = Int((c.replacedShare * 100).rounded())
            var line = "  \(label): \(share)% of the old ids replaced (\(c.old) → \(c.new), \(c.kept) kept)"
            switch c.kind {
            case "routes": line += "; lines matched by name where the name is unique"
            case "stops": line += "; stops matched by name and place (renumbered), not listed one by one"
            case "trips", "calendar": line += "; service compared by line, direction and day type, not by id"
            default: break
            }
            out.append(line)
        }
        return out + [""]
    }

    private func lines(_ diff: FeedDiff) -> [String] {
        let lines = diff.lines
        guard !lines.isEmpty else { return [] }
        var out = ["Lines"]
        out += capped("added", lines.added) { "+ \($0.title) (type \($0.type)): \(Self.days($0.tripsPerDay)) trips" }
        out += capped("removed", lines.removed) { "- \($0.title) (type \($0.type)): had \(Self.days($0.tripsPerDay)) trips" }
        if !lines.changed.isEmpty {
            out.append("  changed (\(lines.changed.count))")
            for line in limited(lines.changed) {
                out += lineBlock(line).map { "    " + $0 }
            }
            if let more = more(lines.changed) { out.append("    " + more) }
        }
        return out + [""]
    }

    private func lineBlock(_ line: LineChange) -> [String] {
        var out = [line.title + (line.oldRouteId.map { " (id \($0) → \(line.routeId))" } ?? "")]
        if let r = line.renamed { out.append("  renamed \"\(r.old)\" → \"\(r.new)\"") }
        if let c = line.recoloured { out.append("  recoloured \(c.old) → \(c.new)") }
        if let t = line.typeChanged { out.append("  type \(t.old) → \(t.new)") }
        if !line.otherFields.isEmpty { out.append("  also changed: " + line.otherFields.joined(separator: ", ")) }
        if line.tripsPerDay.old != line.tripsPerDay.new {
            out.append("  \(line.label) " + Self.tripChanges(nil, line.tripsPerDay).joined(separator: ", "))
        }
        for d in line.directions {
            var head = "  \(d.name)"
            if d.oldIndex == nil { head += " (new direction)" }
            if d.index == nil { head += " (direction gone)" }
            if let r = d.renamed { head += " (was \"\(r.old)\")" }
            if d.tripsPerDay.old != d.tripsPerDay.new {
                head += ": " + Self.tripChanges(nil, d.tripsPerDay).joined(separator: ", ")
            }
            out.append(head)
            if !d.stopsAdded.isEmpty { out.append("    + \(d.stopsAdded.count) stop\(d.stopsAdded.count == 1 ? "" : "s"): " + list(d.stopsAdded.map(\.label))) }
            if !d.stopsRemoved.isEmpty {
                out.append("    − \(d.stopsRemoved.count) stop\(d.stopsRemoved.count == 1 ? "" : "s"): " + list(d.stopsRemoved.map(\.label)))
            }
            if d.reordered { out.append("    stop order changed") }
        }
        return out
    }

    /// "Route 12 weekday: 48 → 36 trips" for each day type whose count changed.
    static func tripChanges(_ label: String?, _ trips: Change<DayCounts>) -> [String] {
        DayType.allCases.compactMap { type in
            let a = trips.old[type], b = trips.new[type]
            guard a != b else { return nil }
            return "\(label.map { $0 + " " } ?? "")\(type.label): \(a) → \(b) trips"
        }
    }

    static func days(_ counts: DayCounts) -> String {
        "weekday \(counts.weekday), Saturday \(counts.saturday), Sunday \(counts.sunday)"
    }

    private func stops(_ diff: FeedDiff) -> [String] {
        let s = diff.stops
        guard !s.isEmpty else { return [] }
        var out = ["Stops"]
        if diff.churned("stops") {
            // Said once in "Id churn"; here only the counts.
            let counts = [("added", s.added.count), ("removed", s.removed.count), ("renumbered", s.renumbered.count)]
                .filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
            if !counts.isEmpty { out.append("  " + counts.joined(separator: ", ") + " (most stop ids changed: not listed; the JSON lists them)") }
        } else {
            out += capped("added", s.added) { "+ \($0.label)" }
            out += capped("removed", s.removed) { "- \($0.label)" }
            out += capped("renumbered", s.renumbered) { "\($0.oldStopId) → \($0.newStopId) \($0.name ?? "")" }
        }
        out += capped("renamed", s.renamed) { "\($0.stopId): \"\($0.oldName ?? "")\" → \"\($0.newName ?? "")\"" }
        out += capped("moved", s.moved) { "\($0.name ?? "") (\($0.stopId)): \(Int($0.distanceM.rounded())) m" }
        out += capped("opposite stop changed", s.oppositeChanged) { change in
            let before = change.old.isEmpty ? "none" : change.old.joined(separator: ", ")
            let after = change.new.isEmpty ? "none" : change.new.joined(separator: ", ")
            return "\(change.name ?? "") (\(change.stopId)): \(before) → \(after)"
        }
        return out + [""]
    }

    private func calendar(_ c: CalendarChanges) -> [String] {
        guard !c.isEmpty else { return [] }
        var out = ["Calendar"]
        out.append("  service window \(c.oldWindow?.label ?? "none") → \(c.newWindow?.label ?? "none")")
        out += capped("gained service", c.gained) { $0.label }
        out += capped("lost service", c.lost) { $0.label }
        if c.changedDates > 0 { out.append("  \(c.changedDates) dates with service on both sides run a different number of trips") }
        return out + [""]
    }

    private func translations(_ t: TranslationChanges) -> [String] {
        guard !t.isEmpty else { return [] }
        var out = ["Translations"]
        out += capped("added", t.added) { "+ \($0.label): \"\($0.new ?? "")\"" }
        out += capped("removed", t.removed) { "- \($0.label): \"\($0.old ?? "")\"" }
        out += capped("changed", t.changed) { "\($0.label): \"\($0.old ?? "")\" → \"\($0.new ?? "")\"" }
        return out + [""]
    }

    private func network(_ n: NetworkChanges) -> [String] {
        guard !n.isEmpty else { return [] }
        var out = ["Network"]
        out += capped("places linked", n.linked) { "+ \($0.label) (\($0.evidence))" }
        out += capped("places split", n.split) { "- \($0.label) (\($0.evidence))" }
        out += capped("walks and transfers added", n.walksAdded) { "+ \($0.label)" }
        out += capped("walks and transfers removed", n.walksRemoved) { "- \($0.label)" }
        out += capped("walks and transfers changed", n.walksChanged) { $0.label }
        return out + [""]
    }

    // MARK: capping

    private func capped<T>(_ title: String, _ items: [T], _ text: (T) -> String) -> [String] {
        guard !items.isEmpty else { return [] }
        var out = ["  \(title) (\(items.count))"]
        out += limited(items).map { "    " + text($0) }
        if let more = more(items) { out.append("    " + more) }
        return out
    }

    private func limited<T>(_ items: [T]) -> ArraySlice<T> { limit > 0 ? items.prefix(limit) : items[...] }

    private func more<T>(_ items: [T]) -> String? {
        limit > 0 && items.count > limit ? "… and \(items.count - limit) more" : nil
    }

    private func list(_ names: [String]) -> String {
        let shown = limited(names).joined(separator: ", ")
        return limit > 0 && names.count > limit ? shown + " … and \(names.count - limit) more" : shown
    }
}

extension String {
    func padded(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
    func leftPadded(_ width: Int) -> String { count >= width ? " " + self : String(repeating: " ", count: width - count) + self }
}
