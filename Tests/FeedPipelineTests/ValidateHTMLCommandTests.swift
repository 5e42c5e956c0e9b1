import Foundation
import TestSupport
import Testing

/// `feedc validate DUMP --html FILE` as a program: the page is written, standard output and the
/// exit status are those of the plain command, and a path that cannot be written is a clear
/// error with exit status 2.
@Suite(.enabled(if: FeedcBinary.suitesRun, "needs the feedc binary of this build"))
struct ValidateHTMLCommandTests {
    @Test func writesThePageAndKeepsTheTextReport() throws {
        let feedc = try #require(FeedcBinary.url)
        let folder = TemporaryFolder()
        let dump = folder.feed("dump", ValidationHTMLTests.hostile)
        let page = folder.url.appendingPathComponent("report.html")
        let plain = try Subprocess.run(feedc, ["validate", dump.path])
        let run = try Subprocess.run(feedc, ["validate", dump.path, "--html", page.path])
        #expect(run.status == 1)
        #expect(run.status == plain.status)
        #expect(
            run.output.replacingOccurrences(of: #"\d+\.\d+ s"#, with: "", options: .regularExpression)
                == plain.output.replacingOccurrences(of: #"\d+\.\d+ s"#, with: "", options: .regularExpression))
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("<h1>Validation report: dump</h1>"))
        #expect(html.contains("<code>foreign_key_violation</code> × 2"))
        #expect(html.contains("<td>feedc</td><td>0.1.0</td>"))
        // Atomic: nothing but the page is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["dump", "report.html"])

        // With --json: the JSON report on standard output, the page all the same; replaced whole.
        let json = try Subprocess.run(feedc, ["validate", dump.path, "--json", "--html", page.path, "--html-examples", "1"])
        #expect(json.status == 1)
        #expect(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) is [String: Any])
        #expect(try String(contentsOf: page, encoding: .utf8).contains("… and 1 more (not shown)"))

        // A clean feed: exit 0, page written.
        let clean = try Subprocess.run(feedc, ["validate", folder.feed("clean", TinyFeed.files).path, "--html", page.path])
        #expect(clean.status == 0)
        #expect(try String(contentsOf: page, encoding: .utf8).contains("<h1>Validation report: clean</h1>"))
    }

    @Test func anUnwritablePathExitsTwoWithAClearMessage() throws {
        let feedc = try #require(FeedcBinary.url)
        let folder = TemporaryFolder()
        let dump = folder.feed("dump", TinyFeed.files)
        let missing = folder.url.appendingPathComponent("no/such/folder/report.html").path
        let run = try Subprocess.run(feedc, ["validate", dump.path, "--html", missing])
        #expect(run.status == 2)
        #expect(run.error == "error: cannot write \(missing): No such file or directory\n")
        #expect(run.output.isEmpty, "the page is written first: a failure prints no report")

        let json = try Subprocess.run(feedc, ["validate", dump.path, "--json", "--html", dump.path])
        #expect(json.status == 2)
        #expect(json.error.hasPrefix("error: cannot write \(dump.path): "))
        let error = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: [String: Any]])
        #expect(error["error"]?["code"] as? String == "tool_error")
        #expect(!json.error.contains("Fatal error") && !json.error.contains("Stack"))
    }
}
