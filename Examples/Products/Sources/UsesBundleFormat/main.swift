import BundleFormat

// The bundle format as another tool reads it: the schema's tables.
print(BundleSchema.tables.map(\.name).joined(separator: " "))
