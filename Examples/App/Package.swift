// swift-tools-version: 6.1
// An app as app developers write one: its own package, depending on feedc by path and using
// only the `FeedClient` product. CI builds it from a clean build folder and runs it against
// nginx (Tests/FeedClientTests/ProductBuildTests.swift), which proves the product builds on its
// own and links none of the compiler's modules.
import PackageDescription

let package = Package(
    name: "FeedApp",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "feedc", path: "../..")],
    targets: [
        .executableTarget(name: "FeedApp", dependencies: [.product(name: "FeedClient", package: "feedc")]),
        // docs/client.md's code, extracted as written (scripts/extract-client-guide.py).
        .executableTarget(name: "ClientGuide", dependencies: [.product(name: "FeedClient", package: "feedc")]),
    ]
)
