import FeedPublish
import Foundation
import TestSupport
import Testing

/// Every `--json` output and every JSON report names its keys in snake_case (issue 15: build and
/// validate reports said `rowsDropped` beside diff's `distance_m`). Run through the real binary on
/// the samples, and on a real feed when `../shared` is there.
@Suite(.enabled(if: FeedcBinary.suitesRun, "needs the feedc binary of this build"))
struct JSONKeysTests {
    /// Objects whose keys are data (file names, stage names), not field names.
    private static let dataKeyed: Set<String> = ["rows_read", "rows_dropped", "rows_left_out", "rows_kept", "seconds"]

    /// The paths of keys that are not snake_case (`a.b[].c`), walking objects and arrays.
    private func badKeys(_ value: Any, path: String = "") -> [String] {
        if let object = value as? [String: Any] {
            return object.keys.sorted().flatMap { key -> [String] in
                let here = path.isEmpty ? key : "\(path).\(key)"
                let own = key.range(of: "^[a-z][a-z0-9]*(_[a-z0-9]+)*$", options: .regularExpression) == nil ? [here] : []
                if Self.dataKeyed.contains(key) { return own }
                return own + badKeys(object[key]!, path: here)
            }
        }
        if let array = value as? [Any] { return array.flatMap { badKeys($0, path: path + "[]") } }
        return []
    }

    private func json(_ arguments: [String], allowed: Set<Int32> = [0, 1]) throws -> Any {
        let run = try Subprocess.run(try #require(FeedcBinary.url), arguments + ["--json"])
        #expect(allowed.contains(run.status), "\(arguments): exit \(run.status)")
        return try JSONSerialization.jsonObject(with: Data(run.output.utf8))
    }

    private func sample(_ path: String) -> String { SharedData.projectRoot.appendingPathComponent(path).path }

    @Test func buildValidateInspectAndDiffSpeakSnakeCase() throws {
        let folder = TemporaryFolder()
        let config = folder.url.appendingPathComponent("pipeline.yaml")
        try Data(
            """
            output: out
            bundles:
              - name: bay
                sources:
                  - id: metro
                    path: \(sample("Samples/metro"))
                  - id: rail
                    path: \(sample("Samples/rail"))
                    prefix: 'r-'
            """.utf8
        ).write(to: config)
        var outputs: [String: Any] = [:]
        outputs["build"] = try json(["build", "--config", config.path])
        let reports = try FileManager.default.contentsOfDirectory(at: folder.url.appendingPathComponent("out/bay/reports"), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
        #expect(!reports.isEmpty)
        for report in reports { outputs[report.lastPathComponent] = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) }
        outputs["manifest"] = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.url.appendingPathComponent("out/bay/manifest.json")))
        let bundle = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("out/bay/bundles").path).first { !$0.contains(".packed.") })
        let bundlePath = folder.url.appendingPathComponent("out/bay/bundles/\(bundle)").path
        outputs["inspect"] = try json(["inspect", bundlePath])
        outputs["inspect --opposites"] = try json(["inspect", bundlePath, "--opposites"])
        // `--routes` is an object keyed by route id (data): its values are checked.
        let routes = try #require(try json(["inspect", bundlePath, "--routes"]) as? [String: Any])
        #expect(routes.keys.contains("metro:12"), "keyed by route id as it is, never re-cased: \(routes.keys.sorted())")
        outputs["inspect --routes"] = Array(routes.values)
        outputs["validate"] = try json(["validate", sample("Samples/metro")])
        outputs["diff"] = try json(["diff", sample("Samples/metro"), sample("Samples/kalkati/metro-gtfs")])
        if SharedData.isPresent {
            // Many codes and samples: repairs, dropped rows, directions of a real network.
            outputs["validate real"] = try json(["validate", SharedData.url("gtfs/medium/bydgoszcz_2020_otp.zip").path])
        }
        // The build report must actually carry the fields that were camelCase.
        let build = try #require((outputs["build"] as? [[String: Any]])?.first)
        let source = try #require((build["sources"] as? [[String: Any]])?.first)
        #expect(source["rows_read"] != nil && source["rowsRead"] == nil)
        for (name, output) in outputs.sorted(by: { $0.key < $1.key }) {
            #expect(badKeys(output).isEmpty, "\(name): \(badKeys(output))")
        }
    }

    /// The upload report appears only with an object-storage target: every field set, encoded.
    @Test func uploadReportKeys() throws {
        var report = UploadReport(target: "s3://b/p/bay/", status: .failed)
        report.version = 3
        report.liveVersion = 4
        report.uploaded = ["manifest.json"]
        report.alreadyThere = 2
        report.deleted = ["x"]
        report.pruneDeferred = 1
        report.bytes = 10
        report.retries = 1
        report.seconds = 0.5
        report.note = "n"
        report.error = "e"
        report.errorKind = .lostRace
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any]
        #expect(object?["error_kind"] as? String == "lost_race")
        #expect(object?["prune_deferred"] as? Int == 1 && object?["live_version"] as? Int == 4 && object?["already_there"] as? Int == 2)
        #expect(badKeys(object as Any).isEmpty, "\(badKeys(object as Any))")
        #expect(try JSONDecoder().decode(UploadReport.self, from: JSONEncoder().encode(report)) == report)
    }
}
