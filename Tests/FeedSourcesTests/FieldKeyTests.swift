import Foundation
import TestSupport
import Testing

@testable import FeedModel

/// Fields are named through ``FieldKey``'s constants (issue 31: a misspelt field does not
/// compile): the constants are exactly the schema's field names, and no source makes a key from
/// a literal anywhere else.
@Suite struct FieldKeyTests {
    @Test func theConstantsAreTheSchemasNames() {
        let names = FieldKey.all.map(\.name)
        #expect(Set(names).count == names.count, "a name declared twice")
        let schema = Set((GTFSSchema.tables + [GTFSSchema.locations]).flatMap { $0.fields.map(\.name) })
        #expect(
            Set(names) == schema,
            "keys without a field: \(Set(names).subtracting(schema).sorted()); fields without a key: \(schema.subtracting(names).sorted())")
        #expect(FieldKey.stopId.name == "stop_id" && GTFSSchema.stops.fields[0].key == .stopId)
        #expect(FieldKey.weekdays.map(\.name) == ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
    }

    /// `FieldKey("…")` with a literal is written only where the constants are, and for the one
    /// column feedc reads beside the schema (New York's `mta_trip_id`).
    @Test func noSourceSpellsAFieldOutsideTheConstants() throws {
        let sources = SharedData.projectRoot.appendingPathComponent("Sources")
        let allowed: Set<String> = ["FieldKey+GTFS.swift", "RealtimeTripIds.swift"]
        var found: [String] = []
        for path in try FileManager.default.subpathsOfDirectory(atPath: sources.path) where path.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            if text.contains("FieldKey(\""), !allowed.contains((path as NSString).lastPathComponent) { found.append(path) }
        }
        #expect(found.isEmpty, "fields spelt as literals: \(found)")
        // And a table is read by key: the string-taking readers are gone.
        let table = Table.missing(GTFSSchema.stops)
        #expect(table.texts(.stopName) == [] && !table.has(.stopLat))
    }
}
