// swift-tools-version: 6.1
// One executable per library product of feedc, each depending on that product alone. CI builds
// each from a clean build folder (Tests/FeedClientTests/ProductBuildTests.swift): a product that
// needs a module it does not declare fails here, as it would in a user's package.
import PackageDescription

let package = Package(
    name: "FeedcProducts",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "feedc", path: "../..")],
    targets: [
        .executableTarget(name: "UsesBundleFormat", dependencies: [.product(name: "BundleFormat", package: "feedc")]),
        .executableTarget(name: "UsesFeedDiff", dependencies: [.product(name: "FeedDiff", package: "feedc")]),
        .executableTarget(name: "UsesFeedCompiler", dependencies: [.product(name: "FeedCompiler", package: "feedc")]),
    ]
)
