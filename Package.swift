// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "feedc",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "feedc", targets: ["feedc"]),
        .library(name: "FeedCompiler", targets: ["FeedPipeline"]),
        .library(name: "BundleFormat", targets: ["BundleFormat"]),
        // What apps embed: Foundation, SQLite, zlib, swift-crypto and swift-protobuf (GTFS-Realtime) only; none of the parsers.
        .library(name: "FeedClient", targets: ["FeedClient"]),
        .library(name: "FeedDiff", targets: ["FeedDiff"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    ],
    targets: [
        // C libraries, each wrapped once by a Swift module.
        .systemLibrary(name: "CFeedSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CFeedZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CFeedXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // glibc's mallopt, for the command's allocator settings (no library to link).
        .systemLibrary(name: "CFeedMalloc"),

        // Core: notices, schema, columnar tables. Depends on nothing.
        .target(name: "FeedModel"),
        // SQLite, wrapped once: typed errors, one owner per handle.
        .target(name: "FeedSQLite", dependencies: ["CFeedSQLite"]),
        // Readers: dump archives (zip or folder), CSV, schema-driven table loading.
        .target(name: "FeedSources", dependencies: [
            "FeedModel", "CFeedZlib",
            .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ]),
        // libxml2, wrapped once: a hardened streaming reader and XSD validation, typed errors.
        .target(name: "FeedXML", dependencies: ["CFeedXML2"]),
        // Legacy XML dumps (Kalkati.net, NextBus) read into the same GTFS-shaped Feed.
        .target(name: "FeedLegacySources", dependencies: ["FeedModel", "FeedXML"]),
        // Rules, one per file, and the repair policy.
        .target(name: "FeedValidation", dependencies: ["FeedModel"]),
        // Enhancements: take a frozen feed, return new tables (directions, then opposite stops).
        .target(name: "FeedEnhancement", dependencies: ["FeedModel"]),
        // What writer and client share: bundle DDL, digest, gzip, manifest.
        .target(name: "BundleFormat", dependencies: [
            "FeedModel", "FeedSQLite", "CFeedZlib",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // Bounded HTTP exchanges (size, idle time, deadline), shared by the client, the build's fetch and S3 publication.
        .target(name: "FeedHTTP"),
        // GTFS-Realtime messages read within bounds (swift-protobuf; the generated code is committed).
        .target(name: "FeedRealtime", dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")]),
        // The client apps embed: manifest → delta or full → verify → apply; screens, planner, live layer.
        .target(name: "FeedClient", dependencies: ["BundleFormat", "FeedModel", "FeedSQLite", "FeedHTTP", "FeedRealtime"]),
        // Feed → bundle rows → SQLite file; publication into the output folder.
        .target(name: "BundleWriter", dependencies: ["FeedModel", "FeedEnhancement", "BundleFormat", "FeedSQLite"]),
        // What changed between two bundles: compared through SQL, rendered as text, JSON or HTML.
        .target(name: "FeedDiff", dependencies: ["FeedModel", "BundleFormat", "FeedSQLite"]),
        // Publication to object storage (S3 API): SigV4, a small S3 client over FeedHTTP, the upload order.
        .target(name: "FeedPublish", dependencies: [
            "BundleFormat", "FeedModel", "FeedHTTP",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // pipeline.yaml, fetching, the stages in order, the build report.
        .target(name: "FeedPipeline", dependencies: [
            "FeedModel", "FeedSources", "FeedLegacySources", "FeedValidation", "FeedEnhancement", "BundleFormat", "BundleWriter", "FeedDiff", "FeedSQLite", "FeedPublish", "FeedHTTP",
            .product(name: "Yams", package: "Yams"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The command line: thin commands over FeedPipeline.
        .executableTarget(name: "feedc", dependencies: [
            "FeedPipeline", "FeedModel", "BundleFormat", "FeedClient", "FeedRealtime", "FeedDiff", "FeedSQLite", "FeedPublish", "CFeedMalloc",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .testTarget(name: "FeedSourcesTests", dependencies: ["FeedSources", "FeedModel", "TestSupport"]),
        .testTarget(name: "FeedValidationTests", dependencies: ["FeedValidation", "FeedSources", "FeedModel", "TestSupport"]),
        .testTarget(name: "FeedPipelineTests", dependencies: ["FeedPipeline", "FeedPublish", "FeedDiff", "FeedSources", "FeedValidation", "BundleFormat", "BundleWriter", "FeedSQLite", "FeedModel", "TestSupport"]),
        .testTarget(name: "FeedEnhancementTests", dependencies: ["FeedEnhancement", "FeedSources", "FeedValidation", "FeedModel", "TestSupport"],
                    exclude: ["Golden"]),
        .testTarget(name: "BundleFormatTests", dependencies: ["BundleFormat", "FeedSQLite"]),
        .testTarget(name: "FeedClientTests", dependencies: ["FeedClient", "FeedRealtime", "FeedHTTP", "FeedPipeline", "BundleFormat", "FeedSQLite", "TestSupport"]),
        .testTarget(name: "FeedXMLTests", dependencies: ["FeedXML", "TestSupport"]),
        .testTarget(name: "FeedLegacySourcesTests", dependencies: ["FeedLegacySources", "FeedXML", "FeedPipeline", "FeedDiff", "FeedSources", "FeedValidation", "BundleFormat", "FeedSQLite", "FeedModel", "TestSupport"]),
        .testTarget(name: "FeedDiffTests", dependencies: ["FeedDiff", "FeedPipeline", "FeedSources", "FeedModel", "BundleFormat", "FeedSQLite", "TestSupport"]),
        .testTarget(name: "FeedPublishTests", dependencies: ["FeedPublish", "FeedPipeline", "FeedClient", "BundleFormat", "FeedSQLite", "TestSupport",
                                                            .product(name: "Crypto", package: "swift-crypto")],
                    exclude: ["Fixtures"]),
        .target(name: "TestSupport", dependencies: ["FeedModel", "FeedSources", "FeedPipeline", "BundleFormat", "CFeedZlib"], path: "Tests/TestSupport", exclude: ["Fixtures"]),
    ]
)
