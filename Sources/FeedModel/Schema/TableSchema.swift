/// Whether a dump must contain a file.
package enum FileRequirement: Sendable, Equatable {
    /// A bundle cannot be built without it.
    case required
    /// Required unless another file stands in (calendar.txt / calendar_dates.txt).
    case requiredUnless(String)
    case optional
}

/// One GTFS file, declared once. Its loader, its field checks, its key checks and the bundle
/// columns copied from it are all derived from this declaration.
public struct TableSchema: Sendable, Equatable {
    /// Table name, the file name without `.txt`.
    public var name: String
    package var requirement: FileRequirement
    package var fields: [FieldSchema]
    /// Field names whose values together identify a row; empty for single-row files.
    public var primaryKey: [String]
    /// False for files that are read and checked but not compiled into bundles (transfers,
    /// pathways, fares): their problems are reported and nothing is repaired, since the bundle
    /// does not hold them.
    public var isCompiled: Bool
    /// The file's name in the dump: the table name with `.txt`, unless told otherwise
    /// (`locations.geojson`).
    public var fileName: String

    package init(
        _ name: String, _ requirement: FileRequirement, primaryKey: [String], fields: [FieldSchema],
        isCompiled: Bool = true, fileName: String? = nil
    ) {
        self.name = name
        self.fileName = fileName ?? name + ".txt"
        self.requirement = requirement
        self.primaryKey = primaryKey
        self.fields = fields
        self.isCompiled = isCompiled
    }

    /// The position of `field` among ``fields``; nil when the table has no such field.
    public func index(of field: String) -> Int? {
        fields.firstIndex { $0.name == field }
    }

    package func field(_ name: String) -> FieldSchema? {
        fields.first { $0.name == name }
    }
}
