import FeedModel
import Foundation

/// The map of the HTML report, as inline SVG: the changed lines along their stops, the added,
/// removed, moved and renumbered stops, and the new side's other stops faintly for context. An
/// equirectangular projection fitted to what changed; no tiles, nothing fetched.
struct DiffMapSVG {
    var width = 960.0
    var margin = 24.0
    var maxDrawnHeight = 640.0

    private struct Mark {
        var lat: Double
        var lon: Double
        var kind: String
        var title: String
    }

    func render(_ diff: FeedDiff) -> String? {
        var marks: [Mark] = []
        for s in diff.stops.added { if let lat = s.lat, let lon = s.lon { marks.append(Mark(lat: lat, lon: lon, kind: "added", title: "added: \(s.label)")) } }
        for s in diff.stops.removed {
            if let lat = s.lat, let lon = s.lon { marks.append(Mark(lat: lat, lon: lon, kind: "removed", title: "removed: \(s.label)")) }
        }
        for s in diff.stops.renumbered {
            if let lat = s.lat, let lon = s.lon {
                marks.append(Mark(lat: lat, lon: lon, kind: "renumbered", title: "renumbered: \(s.oldStopId) → \(s.newStopId) \(s.name ?? "")"))
            }
        }
        for s in diff.stops.moved {
            marks.append(Mark(lat: s.new[0], lon: s.new[1], kind: "moved", title: "moved \(Int(s.distanceM.rounded())) m: \(s.name ?? "") (\(s.stopId))"))
        }
        var points = marks.map { ($0.lat, $0.lon) } + diff.stops.moved.map { ($0.old[0], $0.old[1]) }
        for line in diff.geometry.lines { for path in line.paths { points += path.map { ($0[0], $0[1]) } } }
        points = points.filter { $0.0.isFinite && $0.1.isFinite && !($0.0 == 0 && $0.1 == 0) }
        guard let minLat = points.map(\.0).min(), let maxLat = points.map(\.0).max(),
            let minLon = points.map(\.1).min(), let maxLon = points.map(\.1).max()
        else { return nil }

        // Fit the box (at least ~1 km across) into the drawing, keeping the aspect.
        let midLat = (minLat + maxLat) / 2, k = cos(midLat * .pi / 180)
        let spanX = max((maxLon - minLon) * k, 0.01), spanY = max(maxLat - minLat, 0.01)
        let s = min((width - 2 * margin) / spanX, maxDrawnHeight / spanY)
        let height = max(spanY * s, 160) + 2 * margin
        let cx = (minLon + maxLon) / 2, cy = (minLat + maxLat) / 2
        func x(_ lon: Double) -> String { fmt(width / 2 + (lon - cx) * k * s) }
        func y(_ lat: Double) -> String { fmt(height / 2 - (lat - cy) * s) }
        let pad = 0.1 * max(maxLat - minLat, 0.005)

        var svg =
            "<svg id=\"map\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(fmt(width)) \(fmt(height))\" width=\"\(fmt(width))\" height=\"\(fmt(height))\" role=\"img\" aria-label=\"Map of the changed lines and stops\">\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"#f8f8f4\"/>\n<g class=\"context\">"
        for p in diff.geometry.contextStops where p[0] >= minLat - pad && p[0] <= maxLat + pad && p[1] >= minLon - pad / k && p[1] <= maxLon + pad / k {
            svg += "<circle cx=\"\(x(p[1]))\" cy=\"\(y(p[0]))\" r=\"1.3\"/>"
        }
        svg += "</g>\n<g class=\"lines\">\n"
        for line in diff.geometry.lines {
            let colour = line.status == .changed ? (line.color ?? "#4575b4") : (line.status == .added ? "#1a9850" : "#d73027")
            for path in line.paths {
                let pointsText = path.map { "\(x($0[1])),\(y($0[0]))" }.joined(separator: " ")
                svg +=
                    "<polyline class=\"line \(line.status.rawValue)\" points=\"\(pointsText)\" stroke=\"\(colour)\"><title>\(HTMLPage.escape(line.label)) (\(line.status.rawValue))</title></polyline>\n"
            }
        }
        svg += "</g>\n<g class=\"stops\">\n"
        for move in diff.stops.moved {
            svg += "<line class=\"move\" x1=\"\(x(move.old[1]))\" y1=\"\(y(move.old[0]))\" x2=\"\(x(move.new[1]))\" y2=\"\(y(move.new[0]))\"/>"
        }
        for mark in marks {
            svg +=
                "<circle class=\"stop \(mark.kind)\" cx=\"\(x(mark.lon))\" cy=\"\(y(mark.lat))\" r=\"4.5\"><title>\(HTMLPage.escape(mark.title))</title></circle>\n"
        }
        svg += "</g>\n</svg>"
        return svg
    }

    private func fmt(_ v: Double) -> String { String(format: "%.1f", v) }
}
