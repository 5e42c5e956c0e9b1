import ArgumentParser
import BundleFormat

struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the bundle schema: SQL DDL, or the Markdown table reference of docs/bundle-format.md.")

    @Flag(help: "Print the Markdown table reference instead of SQL.")
    var markdown = false

    @Option(
        name: .customLong("sqlite-module"), help: "Include an optional virtual table, as `sqlite_modules:` in pipeline.yaml does: rtree or fts5 (repeatable).")
    var modules: [String] = []

    func validate() throws {
        for name in modules where !SQLiteModules.names.contains(where: { $0.0 == name }) {
            throw ValidationError("unknown SQLite module `\(name)`: rtree or fts5")
        }
    }

    func run() {
        let chosen = SQLiteModules(SQLiteModules.names.filter { modules.contains($0.0) }.map(\.1))
        print(markdown ? BundleDocs.markdown : BundleSchema.ddl(modules: chosen).joined(separator: ";\n\n") + ";", terminator: markdown ? "" : "\n")
    }
}
