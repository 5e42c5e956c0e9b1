// swift-tools-version: 6.1
// An app as app developers write one: its own package, depending on the client package
// (clients/swift: `FeedClient` alone, resolving only swift-crypto) by path. CI builds it from a
// clean build folder and runs it against nginx (Tests/FeedClientTests/ProductBuildTests.swift), which proves the product builds on its
// own and links none of the compiler's modules.
import PackageDescription

let package = Package(
    name: "FeedApp",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "FeedClient", path: "../../clients/swift")],
    targets: [
        .executableTarget(name: "FeedApp", dependencies: [.product(name: "FeedClient", package: "FeedClient")]),
        // docs/client.md's code, extracted as written (scripts/extract-client-guide.py).
        .executableTarget(name: "ClientGuide", dependencies: [.product(name: "FeedClient", package: "FeedClient")]),
    ]
)
