import FeedModel

/// The diff as one self-contained HTML page: inline CSS, the map as inline SVG, no script and
/// nothing fetched, so it opens offline and can be attached to a CI run.
public struct DiffHTML {
    /// Rows shown per table; the JSON holds them all.
    public var rowLimit: Int

    /// `rowLimit` rows per table at most.
    public init(rowLimit: Int = 500) {
        self.rowLimit = rowLimit
    }

    /// The whole page, ready to be written to a `.html` file.
    public func render(_ diff: FeedDiff) -> String {
        var body = "<h1>\(HTMLPage.escape(title(diff.old))) → \(HTMLPage.escape(title(diff.new)))</h1>\n"
        body += table(
            ["", "label", "digest", "service", "weekday", "Saturday", "Sunday"],
            [diff.old, diff.new].enumerated().map { i, side in
                [
                    i == 0 ? "old" : "new", side.label, DiffText.shortDigest(side.digest),
                    "\(side.serviceStart ?? "?") … \(side.serviceEnd ?? "?")",
                ] + DayType.allCases.map { side.dayTypeDates[$0.rawValue] ?? "" }
            }, caption: "Sides (the day-type dates are those trips per day are counted on)")
        if diff.identical {
            body += "<p class=\"same\">No changes: both sides hold the same content.</p>\n"
            return page(diff, body)
        }
        body += summary(diff)
        if !diff.idChurn.isEmpty {
            body +=
                "<h2>Id churn</h2>\n<ul>"
                + diff.idChurn.map { c in
                    let label = DiffText.kinds.first { $0.table == c.kind }?.label ?? c.kind
                    return
                        "<li>\(HTMLPage.escape(label)): \(Int((c.replacedShare * 100).rounded()))% of the old ids replaced (\(c.old) → \(c.new), \(c.kept) kept)</li>"
                }.joined() + "</ul>\n"
        }
        body += "<h2>Map</h2>\n"
        if let svg = DiffMapSVG().render(diff) {
            body +=
                "<figure>\(svg)<figcaption><span class=\"k added\"></span>added <span class=\"k removed\"></span>removed "
                + "<span class=\"k moved\"></span>moved <span class=\"k renumbered\"></span>renumbered "
                + "<span class=\"k changed\"></span>line with changed stops; grey dots: the new side's other stops</figcaption></figure>\n"
        } else {
            body += "<p>No changed stop or line to draw.</p>\n"
        }
        body += lines(diff.lines)
        body += stops(diff.stops)
        body += calendar(diff.calendar)
        body += translations(diff.translations)
        body += network(diff.network)
        return page(diff, body)
    }

    private func title(_ side: DiffSide) -> String {
        "\(side.bundle ?? "bundle") " + (side.version.map { "version \($0)" } ?? "(compiled from the dump)")
    }

    private func summary(_ diff: FeedDiff) -> String {
        let rows = DiffText.summaryKinds(diff.counts).compactMap { kind -> [String]? in
            guard let c = diff.counts[kind.table], !c.isZero else { return nil }
            return [kind.label] + [c.old, c.new, c.added, c.removed, c.changed].map(String.init) + [c.renumbered.map(String.init) ?? ""]
        }
        return "<h2>Summary</h2>\n" + table(["kind", "old", "new", "added", "removed", "changed", "renumbered"], rows)
    }

    private func lines(_ lines: LineChanges) -> String {
        guard !lines.isEmpty else { return "" }
        var out = "<h2>Lines</h2>\n"
        let head = ["line", "id", "type", "weekday", "Saturday", "Sunday"]
        func row(_ l: LineRef) -> [String] {
            [
                l.title, l.routeId, String(l.type),
                String(l.tripsPerDay.weekday), String(l.tripsPerDay.saturday), String(l.tripsPerDay.sunday),
            ]
        }
        if !lines.added.isEmpty { out += table(head, lines.added.map(row), caption: "Added (trips per day)") }
        if !lines.removed.isEmpty { out += table(head, lines.removed.map(row), caption: "Removed (trips per day before)") }
        if !lines.changed.isEmpty {
            let rows = lines.changed.map { l -> [String] in
                var what: [String] = []
                if let id = l.oldRouteId { what.append("id \(id) → \(l.routeId)") }
                if let r = l.renamed { what.append("renamed \(r.old) → \(r.new)") }
                if let c = l.recoloured { what.append("recoloured \(c.old) → \(c.new)") }
                if let t = l.typeChanged { what.append("type \(t.old) → \(t.new)") }
                if !l.otherFields.isEmpty { what.append("also " + l.otherFields.joined(separator: ", ")) }
                return [l.title, what.joined(separator: "; ")] + DayType.allCases.map { arrow(l.tripsPerDay.old[$0], l.tripsPerDay.new[$0]) }
            }
            out += table(["line", "changes", "weekday", "Saturday", "Sunday"], rows, caption: "Changed (trips per day, before → after)")
            let directions = lines.changed.flatMap { l in l.directions.map { (l, $0) } }
            if !directions.isEmpty {
                out += table(
                    ["line", "direction", "stops added", "stops removed", "weekday", "Saturday", "Sunday"],
                    directions.map { l, d in
                        var name = d.name
                        if d.oldIndex == nil { name += " (new)" }
                        if d.index == nil { name += " (gone)" }
                        if d.reordered { name += " (stop order changed)" }
                        return [l.title, name, d.stopsAdded.map(\.label).joined(separator: ", "), d.stopsRemoved.map(\.label).joined(separator: ", ")]
                            + DayType.allCases.map { arrow(d.tripsPerDay.old[$0], d.tripsPerDay.new[$0]) }
                    }, caption: "Directions")
            }
        }
        return out
    }

    private func stops(_ s: StopChanges) -> String {
        guard !s.isEmpty else { return "" }
        var out = "<h2>Stops</h2>\n"
        if !s.added.isEmpty { out += table(["stop", "name", "lat", "lon"], s.added.map(stopRow), caption: "Added") }
        if !s.removed.isEmpty { out += table(["stop", "name", "lat", "lon"], s.removed.map(stopRow), caption: "Removed") }
        if !s.renamed.isEmpty {
            out += table(["stop", "old name", "new name"], s.renamed.map { [$0.stopId, $0.oldName ?? "", $0.newName ?? ""] }, caption: "Renamed")
        }
        if !s.moved.isEmpty {
            out += table(["stop", "name", "metres"], s.moved.map { [$0.stopId, $0.name ?? "", String(Int($0.distanceM.rounded()))] }, caption: "Moved")
        }
        if !s.renumbered.isEmpty {
            out += table(
                ["old id", "new id", "name", "metres"], s.renumbered.map { [$0.oldStopId, $0.newStopId, $0.name ?? "", String(Int($0.distanceM.rounded()))] },
                caption: "Renumbered")
        }
        if !s.oppositeChanged.isEmpty {
            out += table(
                ["stop", "name", "opposite before", "opposite after"],
                s.oppositeChanged.map {
                    [$0.stopId, $0.name ?? "", $0.old.joined(separator: ", "), $0.new.joined(separator: ", ")]
                }, caption: "Opposite stop changed")
        }
        return out
    }

    private func stopRow(_ s: StopRef) -> [String] {
        [s.stopId, s.name ?? "", s.lat.map { String($0) } ?? "", s.lon.map { String($0) } ?? ""]
    }

    private func calendar(_ c: CalendarChanges) -> String {
        guard !c.isEmpty else { return "" }
        var out =
            "<h2>Calendar</h2>\n<p>Service window: \(HTMLPage.escape(c.oldWindow?.label ?? "none")) → \(HTMLPage.escape(c.newWindow?.label ?? "none"))</p>\n"
        if !c.gained.isEmpty { out += table(["gained service"], c.gained.map { [$0.label] }) }
        if !c.lost.isEmpty { out += table(["lost service"], c.lost.map { [$0.label] }) }
        if c.changedDates > 0 { out += "<p>\(c.changedDates) dates with service on both sides run a different number of trips.</p>\n" }
        return out
    }

    private func translations(_ t: TranslationChanges) -> String {
        guard !t.isEmpty else { return "" }
        let head = ["table", "record or value", "field", "language", "old", "new"]
        func row(_ c: TranslationChange) -> [String] {
            [
                c.table, c.recordId.map { id in c.recordSubId.map { "\(id)/\($0)" } ?? id } ?? "\"\(c.fieldValue ?? "")\"", c.field, c.language, c.old ?? "",
                c.new ?? "",
            ]
        }
        var out = "<h2>Translations</h2>\n"
        if !t.added.isEmpty { out += table(head, t.added.map(row), caption: "Added") }
        if !t.removed.isEmpty { out += table(head, t.removed.map(row), caption: "Removed") }
        if !t.changed.isEmpty { out += table(head, t.changed.map(row), caption: "Changed") }
        return out
    }

    private func network(_ n: NetworkChanges) -> String {
        guard !n.isEmpty else { return "" }
        let linkHead = ["stop", "other stop", "distance", "evidence"]
        func link(_ l: PlaceLink) -> [String] {
            [
                l.stopName.map { "\(l.stopId) (\($0))" } ?? l.stopId, l.otherStopName.map { "\(l.otherStopId) (\($0))" } ?? l.otherStopId,
                "\(Int(l.distanceM.rounded())) m", l.evidence,
            ]
        }
        let walkHead = ["from", "to", "kind", "seconds"]
        func walk(_ w: WalkChange) -> [String] {
            func pair<T: Equatable>(_ a: T?, _ b: T?, _ text: (T) -> String) -> String {
                switch (a, b) {
                case (nil, let b?): text(b)
                case (let a?, nil): text(a)
                case (let a?, let b?): a == b ? text(a) : "\(text(a)) → \(text(b))"
                default: ""
                }
            }
            return [w.fromStopId, w.toStopId, pair(w.oldKind, w.newKind) { $0 }, pair(w.oldSeconds, w.newSeconds) { String($0) }]
        }
        var out = "<h2>Network</h2>\n"
        if !n.linked.isEmpty { out += table(linkHead, n.linked.map(link), caption: "Places linked") }
        if !n.split.isEmpty { out += table(linkHead, n.split.map(link), caption: "Places split") }
        if !n.walksAdded.isEmpty { out += table(walkHead, n.walksAdded.map(walk), caption: "Walks and transfers added") }
        if !n.walksRemoved.isEmpty { out += table(walkHead, n.walksRemoved.map(walk), caption: "Walks and transfers removed") }
        if !n.walksChanged.isEmpty { out += table(walkHead, n.walksChanged.map(walk), caption: "Walks and transfers changed") }
        return out
    }

    private func arrow(_ a: Int, _ b: Int) -> String { a == b ? String(a) : "\(a) → \(b)" }

    private func table(_ head: [String], _ rows: [[String]], caption: String? = nil) -> String {
        HTMLPage.table(head, rows, caption: caption, limit: rowLimit, overflowNote: "(see the JSON)")
    }

    private func page(_ diff: FeedDiff, _ body: String) -> String {
        HTMLPage.document(
            title: "feedc diff: \(title(diff.old)) → \(title(diff.new))", css: Self.css,
            body: body + """
                <footer><p>feedc diff, format \(diff.format). Trips per day: trips running on each side's representative date of the day type (the busiest one within the first \(diff.settings.representativeWindowDays) days of full service: from the first date with at least half the trips of the busiest date).</p></footer>

                """)
    }

    /// The map's and the legend's style, beside ``HTMLPage/baseCSS``.
    private static let css = """
        .same { font-size: 18px; color: #1a9850; }
        figure { margin: 0; } svg { max-width: 100%; height: auto; border: 1px solid #ccc; }
        .context circle { fill: #c8c8c8; }
        polyline.line { fill: none; stroke-width: 3; stroke-opacity: 0.8; stroke-linejoin: round; }
        polyline.removed { stroke-dasharray: 6 4; }
        line.move { stroke: #f39c12; stroke-width: 2; }
        circle.stop { stroke: #fff; stroke-width: 1; }
        circle.added, .k.added { fill: #1a9850; background: #1a9850; }
        circle.removed, .k.removed { fill: #d73027; background: #d73027; }
        circle.moved, .k.moved { fill: #f39c12; background: #f39c12; }
        circle.renumbered, .k.renumbered { fill: #8e44ad; background: #8e44ad; }
        .k.changed { background: #4575b4; }
        .k { display: inline-block; width: 12px; height: 12px; border-radius: 6px; margin: 0 4px 0 12px; vertical-align: middle; }
        """
}
