import Foundation
import TestSupport
import Testing

/// `feedc unpack` as a program: a published packed bundle installs with the manifest's digest
/// (exit 0, `--json` for scripts); a damaged one exits 1 and leaves no output file; an existing
/// output is never overwritten (exit 2).
@Suite(.enabled(if: Tools.feedc != nil, "needs the feedc binary of this build"))
struct UnpackCommandTests {
    @Test func installsTimesAndRefuses() throws {
        let feedc = try #require(Tools.feedc)
        let folder = TemporaryFolder()
        let yaml = folder.url.appendingPathComponent("pipeline.yaml")
        try "output: out\nbundles:\n  - name: m\n    sources:\n      - id: m\n        path: \(SharedData.sample("metro").path)\n"
            .write(to: yaml, atomically: true, encoding: .utf8)
        #expect(try Tools.run(feedc, ["build", "--config", yaml.path]).status == 0)
        let out = folder.url.appendingPathComponent("out/m")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json"))) as? [String: Any])
        let latest = try #require(manifest["latest"] as? [String: Any])
        let packed = try #require((latest["encodings"] as? [[String: Any]])?.first?["file"] as? String)

        let installed = folder.url.appendingPathComponent("installed.sqlite")
        let run = try Tools.run(feedc, ["unpack", "--json", out.appendingPathComponent(packed).path, "-o", installed.path])
        #expect(run.status == 0, "\(run.output)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(result["digest"] as? String == latest["digest"] as? String)
        #expect((result["install_s"] as? Double).map { $0 >= 0 } == true)
        #expect(try Tools.run(feedc, ["unpack", out.appendingPathComponent(packed).path, "-o", installed.path]).status == 2, "an existing output")

        let plain = try #require(latest["file"] as? String)
        let refused = folder.url.appendingPathComponent("refused.sqlite")
        let wrong = try Tools.run(feedc, ["unpack", out.appendingPathComponent(plain).path, "-o", refused.path])
        #expect(wrong.status == 1, "a plain bundle is not a packed one: \(wrong.output)")
        #expect(!FileManager.default.fileExists(atPath: refused.path))
    }
}
