/// What a delta changes, per table.
public struct DeltaStatistics: Codable, Sendable, Equatable {
    /// The changes to one table.
    public struct Table: Codable, Sendable, Equatable {
        /// Rows added.
        public var inserted = 0
        /// Rows changed in place (same key).
        public var updated = 0
        /// Rows removed.
        public var deleted = 0
        /// Rows in the older version and the newer one.
        public var before = 0
        /// Rows in the newer version.
        public var after = 0

        /// Counts for one table; zero where not given.
        public init(inserted: Int = 0, updated: Int = 0, deleted: Int = 0, before: Int = 0, after: Int = 0) {
            self.inserted = inserted
            self.updated = updated
            self.deleted = deleted
            self.before = before
            self.after = after
        }
    }

    /// The changes by table name.
    public var tables: [String: Table] = [:]

    /// No changes.
    public init() {}

    /// Tables whose ids were mostly replaced: most old rows deleted and most new rows inserted.
    /// An agency renumbering its trips or stops wholesale shows here.
    public var renumbered: [String] {
        // Only tables keyed by the agency's ids: churn in content-derived keys (patterns,
        // timings) or dated keys (calendar_dates) is change of content, not renumbering.
        tables.filter { name, t in
            ["agencies", "routes", "stops", "trips"].contains(name) && t.before >= 20 && t.after >= 20 && Double(t.deleted) > 0.5 * Double(t.before)
                && Double(t.inserted) > 0.5 * Double(t.after)
        }.keys.sorted()
    }
}
