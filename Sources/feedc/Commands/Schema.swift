import ArgumentParser
import BundleFormat

struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the bundle schema: SQL DDL, or the Markdown table reference of docs/bundle-format.md.")

    @Flag(help: "Print the Markdown table reference instead of SQL.")
    var markdown = false

    func run() {
        print(markdown ? BundleDocs.markdown : BundleSchema.ddl.joined(separator: ";\n\n") + ";", terminator: markdown ? "" : "\n")
    }
}
