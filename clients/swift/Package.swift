// swift-tools-version: 6.1
// The client apps embed, as a package of its own: an app that depends on it resolves and builds
// only what `FeedClient` needs (swift-crypto, swift-protobuf, and the system's SQLite and zlib), never the
// compiler's dependencies (Yams, ZIPFoundation, swift-argument-parser). Its sources are the
// repository's own (Sources/, linked): the root package's `FeedClient` product is the same code.
import PackageDescription

let package = Package(
    name: "FeedClient",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "FeedClient", targets: ["FeedClient"]),
        .library(name: "BundleFormat", targets: ["BundleFormat"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    ],
    targets: [
        .systemLibrary(name: "CFeedSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CFeedZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "FeedModel"),
        .target(name: "FeedSQLite", dependencies: ["CFeedSQLite"]),
        .target(name: "BundleFormat", dependencies: [
            "FeedModel", "FeedSQLite", "CFeedZlib",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .target(name: "FeedHTTP"),
        .target(name: "FeedRealtime", dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")]),
        .target(name: "FeedClient", dependencies: ["BundleFormat", "FeedModel", "FeedSQLite", "FeedHTTP", "FeedRealtime"]),
    ]
)
