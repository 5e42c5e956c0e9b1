import BundleFormat
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// Every documented bundle key, changed in turn after a first build of the two-source sample
/// (metro and rail): a key that shapes content makes the next build read the dumps again, and
/// publishes a new version where the content changes on this sample; a key that shapes only
/// publication (README.md, "pipeline.yaml") leaves the build at "inputs unchanged".
@Suite struct FingerprintTests {
    enum Expected {
        /// A new version is published.
        case newVersion
        /// The dumps are read again (the fingerprint differs); the content may be the same.
        case readAgain
        /// "inputs unchanged": only publication depends on it.
        case untouched
    }

    /// The setting under test: YAML lines of the bundle (before `sources:`), of each source, and
    /// files beside pipeline.yaml, for the first build and for the second (`{id}`: the source's).
    struct Change: Sendable, CustomTestStringConvertible {
        var key: String
        var before = ""
        var after = ""
        var sourceBefore = ""
        var sourceAfter = ""
        var files: [String: String] = [:]
        var filesAfter: [String: String] = [:]
        var expected: Expected
        var testDescription: String { key }
    }

    static let overrides = "overrides: places.csv"

    static let changes: [Change] = [
        Change(key: "fail_on_error", after: "    fail_on_error: true\n", expected: .readAgain),
        Change(key: "max_dropped_share", after: "    max_dropped_share: 0.5\n", expected: .readAgain),
        Change(key: "opposites.max_distance", after: "    opposites:\n      max_distance: 5\n", expected: .newVersion),
        Change(key: "opposites.rail_max_distance", after: "    opposites:\n      rail_max_distance: 900\n", expected: .readAgain),
        Change(key: "opposites.min_confidence", after: "    opposites:\n      min_confidence: 0.99\n", expected: .newVersion),
        Change(key: "network: false", after: "    network: false\n", expected: .newVersion),
        Change(key: "network.same_place_m", after: "    network:\n      same_place_m: 40\n", expected: .readAgain),
        Change(key: "network.same_name_m", after: "    network:\n      same_name_m: 100\n", expected: .readAgain),
        Change(key: "network.walk_radius_m", after: "    network:\n      walk_radius_m: 2000\n", expected: .newVersion),
        Change(key: "network.walk_speed", after: "    network:\n      walk_speed: 0.8\n", expected: .newVersion),
        Change(key: "network.detour_factor", after: "    network:\n      detour_factor: 2.0\n", expected: .newVersion),
        Change(key: "network.min_transfer_s", after: "    network:\n      min_transfer_s: 600\n", expected: .newVersion),
        Change(
            key: "network.overrides (the file's rows)", before: "    network:\n      \(overrides)\n",
            after: "    network:\n      \(overrides)\n",
            files: ["places.csv": "stop_id,other_stop_id,action\n"],
            filesAfter: ["places.csv": "stop_id,other_stop_id,action\nmetro:s101,rail:NG1,join\n"], expected: .readAgain),
        Change(key: "max_delta_share", after: "    max_delta_share: 0.3\n", expected: .readAgain),
        Change(key: "sqlite_modules", after: "    sqlite_modules: [rtree]\n", expected: .newVersion),
        Change(key: "zip_limits", after: "    zip_limits:\n      max_compression_ratio: 500\n", expected: .readAgain),
        Change(key: "sources.prefix", sourceAfter: "        prefix: \"{id}-\"\n", expected: .newVersion),
        Change(key: "sources.realtime_trip_ids", sourceAfter: "        realtime_trip_ids: nyct\n", expected: .readAgain),
        // Publication only.
        Change(key: "service_end", after: "    service_end:\n      warn_days: [90]\n      fail_within_days: 1\n", expected: .untouched),
        Change(key: "publish: false", after: "    publish: false\n", expected: .untouched),
        Change(key: "signing_key", after: "    signing_key: sample.key\n", expected: .untouched),
    ]

    private func write(_ folder: URL, bundle: String, source: String, files: [String: String]) throws {
        var yaml = "output: out\nbundles:\n  - name: b\n\(bundle)    sources:\n"
        for (id, sample) in [("metro", "metro"), ("rail", "rail")] {
            yaml += "      - id: \(id)\n        path: \(SharedData.sample(sample).path)\n" + source.replacingOccurrences(of: "{id}", with: id)
        }
        try yaml.write(to: folder.appendingPathComponent("pipeline.yaml"), atomically: true, encoding: .utf8)
        for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let key = ManifestSignature.generateKeyPair().privateKey
        try key.write(to: folder.appendingPathComponent("sample.key"), atomically: true, encoding: .utf8)
    }

    private func build(_ folder: URL) throws -> BuildReport {
        try BuildRunner(config: PipelineConfigParser().parse(contentsOf: folder.appendingPathComponent("pipeline.yaml"))).run()[0]
    }

    @Test(arguments: changes) func changingAKeyRebuildsWhatItShapes(_ change: Change) throws {
        let folder = TemporaryFolder()
        try write(folder.url, bundle: change.before, source: change.sourceBefore, files: change.files)
        let first = try build(folder.url)
        try #require(first.status == .published && first.version == 1, "\(first.status) \(first.reason ?? "")")
        let again = try build(folder.url)
        #expect(again.status == .unchanged && again.reason?.contains("nothing parsed") == true, "the same settings: \(again.reason ?? "")")

        try write(folder.url, bundle: change.after, source: change.sourceAfter, files: change.filesAfter)
        let second = try build(folder.url)
        let reason = second.reason ?? ""
        switch change.expected {
        case .newVersion:
            #expect(second.status == .published && second.version == 2, "\(change.key): \(second.status) \(reason)")
        case .readAgain:
            #expect(second.status != .failed && !reason.contains("nothing parsed"), "\(change.key): \(second.status) \(reason)")
        case .untouched:
            #expect(second.status == .unchanged && reason.contains("nothing parsed"), "\(change.key): \(second.status) \(reason)")
        }
    }

    /// Where a dump lives is not a change (its digest is): the same dumps in another folder.
    @Test func aMovedDumpIsNotAChange() throws {
        let folder = TemporaryFolder()
        try write(folder.url, bundle: "", source: "", files: [:])
        _ = try build(folder.url)
        let copy = folder.url.appendingPathComponent("copy")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        var yaml = "output: out\nbundles:\n  - name: b\n    sources:\n"
        for sample in ["metro", "rail"] {
            let moved = copy.appendingPathComponent(sample)
            try FileManager.default.copyItem(at: SharedData.sample(sample), to: moved)
            yaml += "      - id: \(sample)\n        path: \(moved.path)\n"
        }
        try yaml.write(to: folder.url.appendingPathComponent("pipeline.yaml"), atomically: true, encoding: .utf8)
        let second = try build(folder.url)
        #expect(second.status == .unchanged && second.reason?.contains("nothing parsed") == true, "\(second.reason ?? "")")
    }
}
