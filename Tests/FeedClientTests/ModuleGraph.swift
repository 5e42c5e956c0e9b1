import Foundation

/// The package's targets and products as SwiftPM reports them (`swift package describe --type
/// json`), and the modules each one compiles: a target builds exactly its declared dependencies,
/// transitively, so a product whose targets import only declared modules builds alone, as in an
/// app's package, and compiles nothing outside its closure.
struct ModuleGraph {
    struct Target {
        var name: String
        var path: String
        var targetDependencies: [String]
        var productDependencies: [String]
    }

    var targets: [String: Target]
    var products: [String: [String]]

    /// A module a target imports that its declared closure does not provide.
    struct UndeclaredImport: Equatable, CustomStringConvertible {
        var target: String
        var module: String
        var file: String
        var description: String { "\(file) imports \(module), which \(target) does not declare (directly or through its dependencies)" }
    }

    init(targets: [Target], products: [String: [String]]) {
        self.targets = Dictionary(uniqueKeysWithValues: targets.map { ($0.name, $0) })
        self.products = products
    }

    /// Parses `swift package describe --type json`.
    init(describeJSON data: Data) throws {
        struct Describe: Decodable {
            struct T: Decodable {
                var name: String
                var path: String
                var type: String
                var target_dependencies: [String]?
                var product_dependencies: [String]?
            }
            struct P: Decodable {
                var name: String
                var targets: [String]
            }
            var targets: [T]
            var products: [P]
        }
        let described = try JSONDecoder().decode(Describe.self, from: data)
        self.init(
            targets: described.targets.filter { $0.type != "test" }.map {
                Target(name: $0.name, path: $0.path, targetDependencies: $0.target_dependencies ?? [], productDependencies: $0.product_dependencies ?? [])
            }, products: Dictionary(uniqueKeysWithValues: described.products.map { ($0.name, $0.targets) }))
    }

    /// The modules `target` compiles: itself, its target dependencies' closures, and the products
    /// it depends on (named as their modules; for this package's dependencies they are the same).
    func closure(of target: String) -> Set<String> {
        var seen: Set<String> = []
        var stack = [target]
        while let next = stack.popLast() {
            guard seen.insert(next).inserted, let t = targets[next] else { continue }
            seen.formUnion(t.productDependencies)
            stack += t.targetDependencies
        }
        return seen
    }

    /// The modules a product compiles.
    func closure(ofProduct product: String) -> Set<String> {
        (products[product] ?? []).reduce(into: Set<String>()) { $0.formUnion(closure(of: $1)) }
    }

    /// Modules that must be declared to be imported: this package's targets and the products its
    /// targets depend on. Any other import is the platform's (Foundation, Glibc, …).
    var packageModules: Set<String> {
        Set(targets.keys).union(targets.values.flatMap(\.productDependencies))
    }

    /// Each import, in each Swift file of each target, of a package module outside the target's
    /// closure. `sources` gives a target's files as (path, text).
    func undeclaredImports(sources: (Target) throws -> [(String, String)]) rethrows -> [UndeclaredImport] {
        var found: [UndeclaredImport] = []
        for target in targets.values.sorted(by: { $0.name < $1.name }) {
            let allowed = closure(of: target.name)
            for (file, text) in try sources(target) {
                for module in Self.imports(in: text) where packageModules.contains(module) && !allowed.contains(module) {
                    found.append(UndeclaredImport(target: target.name, module: module, file: file))
                }
            }
        }
        return found
    }

    /// The modules a Swift file imports (`import X`, `@testable import X`, `import struct X.Y`,
    /// `@_exported import X`, with access levels), whatever `#if` surrounds them.
    static func imports(in text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            while let first = words.first, first.hasPrefix("@") || ["public", "package", "internal", "private", "fileprivate"].contains(first) {
                words.removeFirst()
            }
            guard words.first == "import", words.count >= 2 else { return nil }
            let kinds: Set<String> = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"]
            let path = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
            return path.split(separator: ".").first.map(String.init)
        }
    }

    /// The Swift files of `target` under `root`, as (path relative to root, text).
    static func swiftFiles(of target: Target, root: URL) throws -> [(String, String)] {
        let folder = root.appendingPathComponent(target.path)
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return try walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { relative in
            (target.path + "/" + relative, try String(contentsOf: folder.appendingPathComponent(relative), encoding: .utf8))
        }
    }
}
