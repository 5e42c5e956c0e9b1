import Yams

/// Typed access to YAML nodes that reports every mismatch with the node's line and column.
struct YAMLReader {
    let file: String

    func error(_ node: Node, _ message: String) -> ConfigError {
        ConfigError(file: file, line: node.mark?.line, column: node.mark?.column, message)
    }

    /// A mapping whose keys must all be in `allowed`; an unknown key is reported with a hint.
    func mapping(_ node: Node, allowed: [String], context: String) throws(ConfigError) -> [String: Node] {
        guard case .mapping(let mapping) = node else {
            throw error(node, "\(context) must be a mapping of keys (\(allowed.joined(separator: ", ")))")
        }
        var out: [String: Node] = [:]
        for (keyNode, value) in mapping {
            guard let key = keyNode.string else { throw error(keyNode, "keys must be text") }
            guard allowed.contains(key) else {
                let hint = allowed.min { distance($0, key) < distance($1, key) }.flatMap { distance($0, key) <= 3 ? " (did you mean `\($0)`?)" : nil } ?? ""
                throw error(keyNode, "unknown key `\(key)` in \(context)\(hint); allowed: \(allowed.joined(separator: ", "))")
            }
            guard out[key] == nil else { throw error(keyNode, "key `\(key)` appears twice") }
            out[key] = value
        }
        return out
    }

    func sequence(_ node: Node, _ key: String) throws(ConfigError) -> [Node] {
        guard case .sequence(let sequence) = node else { throw error(node, "`\(key)` must be a list (items start with `- `)") }
        return Array(sequence)
    }

    func string(_ node: Node, _ key: String, allowEmpty: Bool = false) throws(ConfigError) -> String {
        guard case .scalar(let scalar) = node, allowEmpty || !scalar.string.isEmpty else {
            throw error(node, "`\(key)` must be a non-empty text value")
        }
        return scalar.string
    }

    func int(_ node: Node, _ key: String, min minimum: Int) throws(ConfigError) -> Int {
        guard case .scalar = node, let value = node.int else { throw error(node, "`\(key)` must be a whole number") }
        guard value >= minimum else { throw error(node, "`\(key)` must be at least \(minimum)") }
        return value
    }

    func double(_ node: Node, _ key: String) throws(ConfigError) -> Double {
        guard case .scalar = node, let value = node.float else { throw error(node, "`\(key)` must be a number") }
        return value
    }

    func bool(_ node: Node, _ key: String) throws(ConfigError) -> Bool {
        guard case .scalar = node, let value = node.bool else { throw error(node, "`\(key)` must be true or false") }
        return value
    }

    /// Edit distance, for "did you mean" hints.
    private func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
