import BundleFormat

/// Fills the portable search tables from the bundle's stops: `stop_grid` (nearby stops) and
/// `stop_tokens` (name search: names, codes, and the stops' names in every language of
/// `translations`), plain tables any SQLite reads, so no R-tree or FTS5 is needed.
struct StopIndexCompiler {
    func compile(into content: inout BundleContent) {
        // A stop is found by any of its names: "Helsingfors" finds what "Helsinki" finds.
        var translated: [String: [String]] = [:]
        for row in content.rows(TranslationRow.self) where row.tableName == "stops" && row.fieldName == "name" {
            translated[row.recordId, default: []].append(row.translation)
        }
        for stop in content.rows(StopRow.self) {
            if let latitude = stop.lat, let longitude = stop.lon {
                content.append(StopGridRow(strip: Int(StopGrid.strip(latitude: latitude)), lon: longitude, stopId: stop.stopId))
            }
            var tokens = SearchText.indexTokens(stop.name ?? "")
            tokens.formUnion(SearchText.words(stop.code ?? ""))
            for other in translated[stop.stopId ?? ""] ?? [] { tokens.formUnion(SearchText.indexTokens(other)) }
            for token in tokens.sorted() { content.append(StopTokenRow(token: token, stopId: stop.stopId)) }
        }
    }
}
