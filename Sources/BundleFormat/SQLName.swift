/// A table or column name as SQL text: double-quoted, `"` doubled. For names read from a file
/// (the content digest, the packed bundle), never spliced in bare.
enum SQLName {
    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
