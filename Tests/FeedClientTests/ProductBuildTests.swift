import BundleFormat
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// Every library product builds on its own, as in an app developer's package that depends on
/// feedc, and compiles none of the compiler's parsers, YAML, XML or zip code.
///
/// Proved from the module graph SwiftPM reports (`swift package describe`) and each target's
/// imports, not by building each product from a clean folder (three clean builds took most of
/// the test run): a target compiles exactly its declared dependencies, transitively, so when every
/// import of a package module is inside the importing target's declared closure, no missing
/// declaration can hide behind another target that happened to build the module first, and a
/// product compiles exactly its closure. One clean build of the example app below checks the
/// reasoning end to end for the product apps embed.
@Suite(.serialized, .enabled(if: ProductBuild.swift != nil, "needs the swift toolchain on PATH"))
struct ProductBuildTests {
    /// The modules a product may compile: its own and what it declares, none of the compiler's
    /// parsers, YAML, XML or zip code.
    static let compilerModules: Set<String> = [
        "FeedSources", "FeedXML", "FeedLegacySources", "FeedValidation", "FeedEnhancement", "BundleWriter",
        "FeedPipeline", "FeedDiff", "feedc", "Yams", "ZIPFoundation", "ArgumentParser",
    ]

    /// This package's graph as SwiftPM reports it (a scratch folder of its own: no wait on the
    /// build folder the tests run from).
    static func packageGraph() throws -> ModuleGraph {
        let swift = try #require(ProductBuild.swift)
        let scratch = TemporaryFolder()
        let described = try Subprocess.run(
            swift,
            [
                "package", "--package-path", SharedData.projectRoot.path,
                "--scratch-path", scratch.url.path, "describe", "--type", "json",
            ])
        try #require(described.status == 0, "swift package describe failed: \(described.error)")
        return try ModuleGraph(describeJSON: Data(described.output.utf8))
    }

    @Test(arguments: [
        ("BundleFormat", "BundleFormat", ["FeedSources", "FeedPipeline", "FeedDiff", "Yams", "ZIPFoundation"]),
        ("FeedDiff", "FeedDiff", ["FeedSources", "FeedPipeline", "Yams", "ZIPFoundation", "FeedXML"]),
        ("FeedCompiler", "FeedPipeline", ["feedc", "ArgumentParser", "FeedClient"]),
        ("FeedClient", "FeedClient", Array(compilerModules)),
    ])
    func productCompilesOnlyItsClosure(product: String, module: String, absent: [String]) throws {
        let modules = try Self.packageGraph().closure(ofProduct: product)
        #expect(modules.contains(module))
        for name in absent { #expect(!modules.contains(name), "\(product) compiles \(name): \(modules.sorted())") }
    }

    /// Every import of a package module is declared by the importing target (or by what it
    /// depends on): the condition under which each product builds alone.
    @Test func everyImportIsDeclared() throws {
        let graph = try Self.packageGraph()
        #expect(graph.targets.count > 15 && graph.products["FeedClient"] == ["FeedClient"], "\(graph.targets.keys.sorted())")
        let undeclared = try graph.undeclaredImports { try ModuleGraph.swiftFiles(of: $0, root: SharedData.projectRoot) }
        #expect(undeclared.isEmpty, "\(undeclared)")
    }

    /// The check itself: an import the target does not declare is found, one reached through a
    /// declared dependency is not, and the platform's modules are not the package's business.
    @Test func anUndeclaredImportIsFound() {
        let graph = ModuleGraph(
            targets: [
                .init(name: "App", path: "Sources/App", targetDependencies: ["Client"], productDependencies: []),
                .init(name: "Client", path: "Sources/Client", targetDependencies: ["Format"], productDependencies: ["Crypto"]),
                .init(name: "Format", path: "Sources/Format", targetDependencies: [], productDependencies: []),
                .init(name: "Parsers", path: "Sources/Parsers", targetDependencies: [], productDependencies: ["Yams"]),
            ], products: ["Client": ["Client"], "App": ["App"]])
        let files: [String: [(String, String)]] = [
            "App": [("a.swift", "import Foundation\n@testable import Format\nimport Crypto\n")],
            "Client": [("c.swift", "#if canImport(Glibc)\nimport Glibc\n#endif\npublic import struct Parsers.Reader\n")],
            "Format": [("f.swift", "// import Yams in a comment is not an import\nlet x = 1\n")],
            "Parsers": [("p.swift", "import Yams\n")],
        ]
        let found = graph.undeclaredImports { files[$0.name] ?? [] }
        #expect(found == [ModuleGraph.UndeclaredImport(target: "Client", module: "Parsers", file: "c.swift")])
        #expect(graph.closure(ofProduct: "App") == ["App", "Client", "Format", "Crypto"])
        #expect(
            ModuleGraph.imports(in: "import Foundation\n  @_exported import BundleFormat\nimport func Glibc.exit\nimportant()\n")
                == ["Foundation", "BundleFormat", "Glibc"])
    }

    /// The example app (Examples/App, the `FeedClient` product only) builds alone, compiles none
    /// of the compiler's modules, and updates a database from nginx as an app does on launch.
    @Test(.enabled(if: Nginx.isInstalled, "needs nginx (.ci/run installs it)"))
    func theExampleAppBuildsAloneAndUpdatesFromNginx() throws {
        let build = try ProductBuild(package: "Examples/App", product: "FeedApp")
        #expect(build.result.status == 0, "the example app did not build:\n\(build.result.output.suffix(3000))\(build.result.error.suffix(2000))")
        let modules = build.compiledModules
        #expect(modules.isSuperset(of: ["FeedApp", "FeedClient", "BundleFormat", "FeedSQLite", "FeedModel"]))
        #expect(modules.isDisjoint(with: Self.compilerModules), "compiled: \(modules.sorted())")
        // Through clients/swift, the app resolves none of the compiler's dependencies either.
        let checkouts = Set((try? FileManager.default.contentsOfDirectory(atPath: build.scratch.appendingPathComponent("checkouts").path)) ?? [])
        #expect(checkouts.contains("swift-crypto") && checkouts.isDisjoint(with: ["Yams", "ZIPFoundation", "swift-argument-parser"]), "\(checkouts.sorted())")

        let folder = TemporaryFolder()
        let yaml = folder.url.appendingPathComponent("pipeline.yaml")
        try "output: out\nbundles:\n  - name: m\n    sources:\n      - id: m\n        path: \(SharedData.sample("metro").path)\n".write(
            to: yaml, atomically: true, encoding: .utf8)
        _ = try BuildRunner(config: PipelineConfigParser().parse(contentsOf: yaml)).run()
        // Through the trickling location: three quarters of the bundle at once, the rest at 16
        // bytes a second. The first update is cancelled past halfway (it sees 75 %, and cannot
        // finish first: at 4 KB/s, a loaded run once read the second half in one go and the
        // update ended before the app could cancel it); the second resumes, the rest at once.
        let bundle = try Manifest.decode(Data(contentsOf: folder.url.appendingPathComponent("out/m/manifest.json"))).latest.fullDownload.bytes
        let nginx = try Nginx(serving: folder.url.appendingPathComponent("out"), trickleAfter: bundle * 3 / 4)
        let db = folder.url.appendingPathComponent("app.sqlite")
        let manifest = nginx.url("trickle/m/manifest.json").absoluteString
        let first = try Subprocess.run(build.binary, [manifest, db.path])
        #expect(first.status == 0, "\(first.error)")
        let lines = first.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("first update: the update was cancelled"), "\(first.output)")
        #expect(lines.contains("update: downloaded full bundle (version 1), \(try bundleBytes(folder)); first download"), "\(first.output)")
        // nginx logs a request as it finishes it, maybe a moment after the client has its bytes.
        func resumed() -> Bool { nginx.requests.contains { $0.hasPrefix("GET /trickle/m/bundles/") && $0.hasSuffix(" 206") } }
        let logged = Date().addingTimeInterval(60)
        while !resumed() && Date() < logged { Thread.sleep(forTimeInterval: 0.05) }
        #expect(resumed(), "the second update resumed: \(nginx.requests)")
        let downloads = lines.filter { $0.hasPrefix("progress: download ") }
        #expect(downloads.count > 3, "\(first.output)")
        #expect(lines.contains("version: 1"))
        #expect(lines.contains { $0.hasPrefix("nearby: s") }, "\(first.output)")
        #expect(lines.contains { $0.hasPrefix("directions of ") && $0.contains("to ") }, "\(first.output)")
        #expect(lines.contains { $0.hasPrefix("across the street from ") }, "\(first.output)")
        let second = try Subprocess.run(build.binary, [manifest, db.path])
        #expect(second.status == 0, "\(second.error)")
        #expect(second.output.contains("update: up to date (version 1)"), "\(second.output)")

        // docs/client.md's code, as written: built in the same package, run on a first launch.
        let guide = try build.building(product: "ClientGuide")
        #expect(guide.status == 0, "the guide's code did not build:\n\(guide.output.suffix(3000))\(guide.error.suffix(2000))")
        let data = folder.url.appendingPathComponent("guide-data")
        // The guide's live section reads one TripUpdates message: every trip of the sample two
        // minutes late on Monday 30 November 2026.
        let trips = try String(contentsOf: SharedData.sample("metro").appendingPathComponent("trips.txt"), encoding: .utf8)
            .split(separator: "\n").dropFirst().compactMap { $0.split(separator: ",", omittingEmptySubsequences: false).dropFirst(2).first }
        let entities = trips.map { LiveFixture.trip(String($0), [], date: "20261130", delay: 120) }
        let realtime = folder.url.appendingPathComponent("tripupdates.pb")
        try LiveFixture.message(entities, at: 1_796_047_200).write(to: realtime)
        let run = try Subprocess.run(
            build.scratch.appendingPathComponent("debug/ClientGuide"), [],
            environment: [
                "FEED_MANIFEST": nginx.url("m/manifest.json").absoluteString, "XDG_DATA_HOME": data.path, "FEED_REALTIME": realtime.path,
            ])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let said = run.output.split(separator: "\n").map(String.init)
        #expect(said.first == "banner: Downloading the timetable…", "first launch: no database yet: \(run.output)")
        #expect(said.contains("update: downloaded full bundle (version 1), \(try bundleBytes(folder)); first download"), "\(run.output)")
        #expect(said.contains { $0.hasPrefix("near: Rockridge Station [1010") && $0.hasSuffix(" m") }, "\(run.output)")
        #expect(said.contains("found: 40th St & Market St at 37.800099,-122.262033"), "\(run.output)")
        #expect(said.contains("across the street: [\"s101\"]"), "\(run.output)")
        #expect(said.contains("favourite: Rockridge Station (location type 0)"), "\(run.output)")
        #expect(said.contains { $0.hasPrefix("journey: ") && $0.hasSuffix("[\"ride\"]") }, "\(run.output)")
        // Live: the next three departures at s101 after 08:00, each two minutes late; the
        // message (08:00 Chicago) is older than 90 s at no point of the moment asked.
        let live = said.filter { $0.hasPrefix("live: ") }
        #expect(live.count == 3 && live.allSatisfy { $0.hasSuffix(", 2 min late") }, "\(run.output)")
        #expect(!said.contains("Live times are more than 90 s old."), "\(run.output)")
    }

    /// Examples/App/Sources/ClientGuide is docs/client.md's code as the page shows it.
    @Test func theGuidesCodeIsThePages() throws {
        let python = try #require(Subprocess.python3)
        let check = try Subprocess.run(python, [SharedData.projectRoot.appendingPathComponent("scripts/extract-client-guide.py").path, "--check"])
        #expect(check.status == 0, "docs/client.md changed: run scripts/extract-client-guide.py")
    }
}

private func bundleBytes(_ folder: TemporaryFolder) throws -> String {
    let manifest = try Manifest.decode(Data(contentsOf: folder.url.appendingPathComponent("out/m/manifest.json")))
    return "\(manifest.latest.fullDownload.bytes) bytes"  // the packed bundle
}

/// `swift build --product` of an example package into a scratch folder of its own under the
/// project's `.build/` (`.build/example-builds/<package>`): a fresh clone builds it from
/// nothing, a warm one again only what changed, as SwiftPM does for any package. The checks
/// below hold either way: a module of the compiler compiled there once stays in the folder, so a
/// stale folder can only fail them, never hide one (remove it to start again).
struct ProductBuild {
    static var swift: URL? { Subprocess.which("swift") }

    let scratch: URL
    let result: Subprocess.Result
    let binary: URL

    let package: String

    init(package: String, product: String) throws {
        self.package = package
        scratch = SharedData.projectRoot.appendingPathComponent(".build/example-builds")
            .appendingPathComponent(package.replacingOccurrences(of: "/", with: "-"))
        let swift = try #require(Self.swift)
        result = try Subprocess.run(
            swift,
            [
                "build", "--package-path", SharedData.projectRoot.appendingPathComponent(package).path,
                "--scratch-path", scratch.path, "--product", product,
            ], timeout: 900)
        binary = scratch.appendingPathComponent("debug").appendingPathComponent(product)
    }

    /// Another product of the same package, built into the same scratch folder (incremental).
    func building(product: String) throws -> Subprocess.Result {
        try Subprocess.run(
            try #require(Self.swift),
            [
                "build", "--package-path", SharedData.projectRoot.appendingPathComponent(package).path,
                "--scratch-path", scratch.path, "--product", product,
            ], timeout: 900)
    }

    /// The Swift modules the build compiled.
    var compiledModules: Set<String> {
        let folder = scratch.appendingPathComponent("debug/Modules")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return Set(names.filter { $0.hasSuffix(".swiftmodule") }.map { String($0.dropLast(".swiftmodule".count)) })
    }
}
