import BundleFormat
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// A delta over `max_delta_share` is not published, and the build says so: in the report's
/// `dropped_deltas` and in its text, with the delta's size and the share (issue 32).
@Suite struct DroppedDeltaTests {
    @Test func aDeltaOverTheShareIsListedWithItsReason() throws {
        let workspace = Workspace()
        let folder = TemporaryFolder()
        let dump = folder.url.appendingPathComponent("metro")
        try FileManager.default.copyItem(at: SharedData.sample("metro"), to: dump)
        let strict = "    max_delta_share: 0.001\n"
        let first = try workspace.build(workspace.config(sources: [("metro", dump)], extra: strict))
        #expect(first.status == .published && first.droppedDeltas == nil, "the first version has no older one")
        let stops = dump.appendingPathComponent("stops.txt")
        let text = try String(contentsOf: stops, encoding: .utf8)
        try text.replacingOccurrences(of: "s101,10101,Rockridge Station", with: "s101,10101,Rockridge").write(to: stops, atomically: true, encoding: .utf8)
        let second = try workspace.build(workspace.config(sources: [("metro", dump)], extra: strict))
        #expect(second.status == .published)
        #expect(second.deltas == [], "no delta is that small")
        let dropped = try #require(second.droppedDeltas?.first)
        #expect(dropped.from == 1 && (dropped.bytes ?? 0) > 0)
        #expect(dropped.reason.hasSuffix("% of the bundle, over max_delta_share 0.001"), "\(dropped.reason)")
        let words = ReportText.render(second)
        #expect(
            words.contains(
                "  deltas: 0 published, 1 dropped (clients at those versions download the full bundle):\n    from version 1: \(dropped.bytes ?? 0) bytes, "),
            "\(words)")
        let json = String(decoding: try JSONEncoder().encode(second), as: UTF8.self)
        #expect(json.contains("\"dropped_deltas\""), "\(json)")

        // With the default share, the same change has its delta.
        try text.replacingOccurrences(of: "s101,10101,Rockridge Station", with: "s101,10101,Rockridge Stn").write(to: stops, atomically: true, encoding: .utf8)
        let third = try workspace.build(workspace.config(sources: [("metro", dump)]))
        #expect(third.deltas?.count == 2 && third.droppedDeltas == nil, "\(third.droppedDeltas ?? [])")
    }
}
