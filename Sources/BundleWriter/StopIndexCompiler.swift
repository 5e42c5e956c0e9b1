import BundleFormat
import FeedSQLite

/// Fills the portable search tables from the bundle's stops: `stop_grid` (nearby stops) and
/// `stop_tokens` (name search: names, codes, and the stops' names in every language of
/// `translations`), plain tables any SQLite reads, so no R-tree or FTS5 is needed.
struct StopIndexCompiler {
    func compile(into content: inout BundleContent) {
        let columns = BundleSchema.stops.columnNames
        let (id, code, name, lat, lon) = (
            columns.firstIndex(of: "stop_id")!, columns.firstIndex(of: "code")!,
            columns.firstIndex(of: "name")!, columns.firstIndex(of: "lat")!, columns.firstIndex(of: "lon")!
        )
        // A stop is found by any of its names: "Helsingfors" finds what "Helsinki" finds.
        var translated: [String: [String]] = [:]
        let t = BundleSchema.translations.columnNames
        let (table, field, record, text) = (
            t.firstIndex(of: "table_name")!, t.firstIndex(of: "field_name")!,
            t.firstIndex(of: "record_id")!, t.firstIndex(of: "translation")!
        )
        for row in content.rows[BundleSchema.translations.name] ?? []
        where row[table].string == "stops" && row[field].string == "name" {
            if let stop = row[record].string, let name = row[text].string { translated[stop, default: []].append(name) }
        }
        for stop in content.rows[BundleSchema.stops.name] ?? [] {
            if let latitude = stop[lat].double, let longitude = stop[lon].double {
                content.append(BundleSchema.stopGrid, [.integer(StopGrid.strip(latitude: latitude)), .real(longitude), stop[id]])
            }
            var tokens = SearchText.indexTokens(stop[name].string ?? "")
            tokens.formUnion(SearchText.words(stop[code].string ?? ""))
            for other in translated[stop[id].string ?? ""] ?? [] { tokens.formUnion(SearchText.indexTokens(other)) }
            for token in tokens.sorted() { content.append(BundleSchema.stopTokens, [.text(token), stop[id]]) }
        }
    }
}
