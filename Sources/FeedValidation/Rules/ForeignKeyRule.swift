import FeedModel

/// Every reference must resolve (`foreign_key_violation`, error), for each foreign key the schema
/// declares. Repair, derived from the field's presence: a row whose required reference dangles is
/// dropped (a stop_time of an unknown trip); a dangling optional reference is cleared (a trip's
/// unknown shape_id). Rows that go because their parent was dropped here are counted once, as
/// `rows_removed_with_parent`, not reported one by one. Files only checked, not compiled
/// (transfers, pathways, fares), are reported and left as they are.
struct ForeignKeyRule: ValidationRule {
    init() {}

    func apply(to feed: inout Feed, sink: NoticeSink) {
        /// Keys dropped by this rule, per table and field, to tell cascades from real violations.
        var droppedKeys: [String: Set<String>] = [:]
        for schema in GTFSSchema.tables {
            var table = feed[schema.name]
            guard table.isPresent, !table.isEmpty else { continue }
            var keep = Array(repeating: true, count: table.count)
            var cascaded = 0
            for field in schema.fields {
                guard let reference = field.references, table.has(field.key) else { continue }
                let targets = reference.targets.filter { feed[$0.table].isPresent }
                let valid = targets.reduce(into: Set<String>()) { set, target in
                    for case let value? in feed[target.table].texts(FieldKey(target.field)) { set.insert(value) }
                }
                let parentDropped = targets.reduce(into: Set<String>()) { $0.formUnion(droppedKeys["\($1.table).\($1.field)"] ?? []) }
                let values = table.texts(field.key)
                // References to stops change from row to row (a stop_time's stop, where its trip
                // comes in a run of rows): those are checked once per distinct stop, through the
                // numbers the other rules and stages share (``TextCodes``).
                let coded = reference.targets.contains { $0.table == "stops" } ? table.codes(field.key) : nil
                let validCodes = coded.map { $0.values.map { valid.contains($0) } }
                var cleared: [Int] = []
                var lastValid: String?
                for row in 0..<table.count where keep[row] {
                    if let coded, let validCodes {
                        let code = coded.codes[row]
                        if code == TextCodes.missing || validCodes[Int(code)] { continue }
                    }
                    guard let value = values[row], value != lastValid else { continue }
                    if valid.contains(value) {
                        lastValid = value
                        continue
                    }
                    if !schema.isCompiled {
                        // Reported only, as the raw feed has it: the bundle does not hold this file.
                        if parentDropped.contains(value) { continue }
                    } else if field.presence == .required || field.presence == .conditionallyRequired {
                        keep[row] = false
                        if parentDropped.contains(value) {
                            cascaded += 1
                            continue
                        }
                    } else {
                        cleared.append(row)
                    }
                    let target = targets.map { "\($0.table).\($0.field)" }.joined(separator: " or ")
                    sink.add(.foreignKeyViolation) {
                        Notice(
                            .foreignKeyViolation, file: schema.fileName,
                            line: Int(table.lines[row]), field: field.name, value: value,
                            message: "No \(target.isEmpty ? reference.targets[0].table : target) has this id.",
                            repair: !schema.isCompiled
                                ? nil : (field.presence == .required || field.presence == .conditionallyRequired) ? "row dropped" : "value cleared")
                    }
                }
                if schema.isCompiled { table.clear(field.key, rows: cleared) }
            }
            guard schema.isCompiled else { continue }
            if cascaded > 0 {
                sink.add(
                    Notice(
                        .rowsRemovedWithParent, file: schema.fileName,
                        value: String(cascaded),
                        message: "\(cascaded) rows referred to rows dropped by earlier repairs.", repair: "rows dropped"))
            }
            let removed = keep.lazy.filter { !$0 }.count
            if removed > 0 {
                if let keyField = schema.primaryKey.first, schema.primaryKey.count == 1 {
                    let ids = table.texts(FieldKey(keyField))
                    droppedKeys["\(schema.name).\(keyField)"] = Set(keep.indices.compactMap { keep[$0] ? nil : ids[$0] })
                }
                sink.dropped(removed, from: table)
                table = table.keeping(keep)
            }
            feed[schema.name] = table
        }
    }
}
