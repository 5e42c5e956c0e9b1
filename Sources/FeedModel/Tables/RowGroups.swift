/// Rows of a table grouped by one text field and ordered within each group by an integer
/// field: the stop_times of each trip in stop_sequence order, the points of each shape.
public struct RowGroups: Sendable {
    /// Group keys in order of first appearance in the table.
    public let keys: [String]
    /// Row indices of each group, ordered by the order field.
    public let rows: [[Int]]

    public init(_ table: Table, by keyField: String, orderedBy orderField: String) {
        let keyValues = table.texts(keyField)
        let order = table.integers(orderField)
        var index: [String: Int] = [:]
        var keys: [String] = []
        var rows: [[Int]] = []
        var lastKey: String?
        var lastGroup = -1
        for row in 0..<table.count {
            guard let key = keyValues[row] else { continue }
            if key != lastKey {
                if let existing = index[key] {
                    lastGroup = existing
                } else {
                    lastGroup = keys.count
                    index[key] = lastGroup
                    keys.append(key)
                    rows.append([])
                }
                lastKey = key
            }
            rows[lastGroup].append(row)
        }
        for g in rows.indices {
            let group = rows[g]
            var sorted = true
            for i in group.indices.dropFirst() where order[group[i - 1]] > order[group[i]] {
                sorted = false
                break
            }
            if !sorted { rows[g] = group.sorted { order[$0] < order[$1] } }
        }
        self.keys = keys
        self.rows = rows
    }
}
