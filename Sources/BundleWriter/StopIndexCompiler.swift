import BundleFormat
import FeedSQLite

/// Fills the portable search tables from the bundle's stops: `stop_grid` (nearby stops) and
/// `stop_tokens` (name search), plain tables any SQLite reads, so no R-tree or FTS5 is needed.
struct StopIndexCompiler {
    func compile(into content: inout BundleContent) {
        let columns = BundleSchema.stops.columnNames
        let (id, code, name, lat, lon) = (columns.firstIndex(of: "stop_id")!, columns.firstIndex(of: "code")!,
                                          columns.firstIndex(of: "name")!, columns.firstIndex(of: "lat")!, columns.firstIndex(of: "lon")!)
        for stop in content.rows[BundleSchema.stops.name] ?? [] {
            if let latitude = stop[lat].double, let longitude = stop[lon].double {
                content.append(BundleSchema.stopGrid, [.integer(StopGrid.strip(latitude: latitude)), .real(longitude), stop[id]])
            }
            var tokens = SearchText.indexTokens(stop[name].string ?? "")
            tokens.formUnion(SearchText.words(stop[code].string ?? ""))
            for token in tokens.sorted() { content.append(BundleSchema.stopTokens, [.text(token), stop[id]]) }
        }
    }
}
