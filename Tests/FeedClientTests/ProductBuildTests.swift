import BundleFormat
import FeedPipeline
import Foundation
import Testing
import TestSupport

/// Every library product builds on its own, in a package of its own that depends on feedc by
/// path, from a clean build folder — as an app developer's package does. Inside this package a
/// missing dependency declaration can hide behind another target that builds the module first.
@Suite(.serialized, .enabled(if: ProductBuild.swift != nil, "needs the swift toolchain on PATH"))
struct ProductBuildTests {
    /// The modules a product may compile: its own and what it declares, none of the compiler's
    /// parsers, YAML, XML or zip code.
    static let compilerModules: Set<String> = [
        "FeedSources", "FeedXML", "FeedLegacySources", "FeedValidation", "FeedEnhancement", "BundleWriter",
        "FeedPipeline", "FeedDiff", "feedc", "Yams", "ZIPFoundation", "ArgumentParser",
    ]

    @Test(arguments: [
        ("UsesBundleFormat", "BundleFormat", ["FeedSources", "FeedPipeline", "FeedDiff", "Yams", "ZIPFoundation"]),
        ("UsesFeedDiff", "FeedDiff", ["FeedSources", "FeedPipeline", "Yams", "ZIPFoundation", "FeedXML"]),
        ("UsesFeedCompiler", "FeedPipeline", ["feedc", "ArgumentParser", "FeedClient"]),
    ])
    func productBuildsAlone(executable: String, module: String, absent: [String]) throws {
        let build = try ProductBuild(package: "Examples/Products", product: executable)
        #expect(build.result.status == 0, "\(executable) did not build on its own:\n\(build.result.output.suffix(3000))\(build.result.error.suffix(2000))")
        let modules = build.compiledModules
        #expect(modules.contains(module))
        for name in absent { #expect(!modules.contains(name), "\(executable) compiled \(name)") }
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

        let folder = TemporaryFolder()
        let yaml = folder.url.appendingPathComponent("pipeline.yaml")
        try "output: out\nbundles:\n  - name: m\n    sources:\n      - id: m\n        path: \(SharedData.sample("metro").path)\n".write(to: yaml, atomically: true, encoding: .utf8)
        _ = try BuildRunner(config: PipelineConfigParser().parse(contentsOf: yaml)).run()
        let nginx = try Nginx(serving: folder.url.appendingPathComponent("out"))
        let db = folder.url.appendingPathComponent("app.sqlite")
        // Through the 4 KB/s location: the first update is cancelled halfway, the second resumes.
        let manifest = nginx.url("slow/m/manifest.json").absoluteString
        let first = try Subprocess.run(build.binary, [manifest, db.path])
        #expect(first.status == 0, "\(first.error)")
        let lines = first.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("first update: the update was cancelled"), "\(first.output)")
        #expect(lines.contains("update: downloaded full bundle (version 1), \(try bundleBytes(folder))"), "\(first.output)")
        #expect(nginx.requests.contains { $0.hasPrefix("GET /slow/m/bundles/") && $0.hasSuffix(" 206") }, "the second update resumed")
        let downloads = lines.filter { $0.hasPrefix("progress: download ") }
        #expect(downloads.count > 3, "\(first.output)")
        #expect(lines.contains("version: 1"))
        #expect(lines.contains { $0.hasPrefix("nearby: s") }, "\(first.output)")
        #expect(lines.contains { $0.hasPrefix("directions of ") && $0.contains("to ") }, "\(first.output)")
        #expect(lines.contains { $0.hasPrefix("across the street from ") }, "\(first.output)")
        let second = try Subprocess.run(build.binary, [manifest, db.path])
        #expect(second.status == 0, "\(second.error)")
        #expect(second.output.contains("update: up to date (version 1)"), "\(second.output)")
    }
}

private func bundleBytes(_ folder: TemporaryFolder) throws -> String {
    let manifest = try Manifest.decode(Data(contentsOf: folder.url.appendingPathComponent("out/m/manifest.json")))
    return "\(manifest.latest.bytes) bytes"
}

/// `swift build --product` of an example package into a new scratch folder.
struct ProductBuild {
    static var swift: URL? { Subprocess.which("swift") }

    let scratch = TemporaryFolder()
    let result: Subprocess.Result
    let binary: URL

    init(package: String, product: String) throws {
        let swift = try #require(Self.swift)
        result = try Subprocess.run(swift, [
            "build", "--package-path", SharedData.projectRoot.appendingPathComponent(package).path,
            "--scratch-path", scratch.url.path, "--product", product,
        ], timeout: 900)
        binary = scratch.url.appendingPathComponent("debug").appendingPathComponent(product)
    }

    /// The Swift modules the build compiled.
    var compiledModules: Set<String> {
        let folder = scratch.url.appendingPathComponent("debug/Modules")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return Set(names.filter { $0.hasSuffix(".swiftmodule") }.map { String($0.dropLast(".swiftmodule".count)) })
    }
}
