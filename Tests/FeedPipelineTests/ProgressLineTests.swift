import Foundation
import TestSupport
import Testing

@testable import FeedPipeline

/// `feedc build` on a terminal shows one progress line rewritten in place (stage, source, rows
/// per second); with `--json`, or when standard error is not a terminal, it shows none. The
/// terminal is a pseudo-terminal from util-linux `script`.
@Suite(.enabled(if: FeedcBinary.suitesRun && Subprocess.which("script") != nil, "needs the feedc binary and script(1)"))
struct ProgressLineTests {
    private func build(json: Bool, terminal: Bool) throws -> String {
        let feedc = try #require(FeedcBinary.url)
        let workspace = Workspace()
        let config = try workspace.config(sources: [("metro", SharedData.sample("metro")), ("rail", SharedData.sample("rail"))])
        let command = "\(feedc.path) build --config \(config.file.path)" + (json ? " --json" : "")
        let result =
            terminal
            ? try Subprocess.run(try #require(Subprocess.which("script")), ["-qec", command, "/dev/null"])
            : try Subprocess.run(feedc, Array(command.split(separator: " ").dropFirst().map(String.init)))
        #expect(result.status == 0, "\(result.error)")
        return result.output + result.error
    }

    @Test func aTerminalGetsOneRewrittenLineWithRowsPerSecond() throws {
        let output = try build(json: false, terminal: true)
        #expect(output.contains("\r\u{1B}[2K· b: "), "\(output.debugDescription)")
        #expect(output.contains("metro read and validated"))
        #expect(output.contains("rows/s"))
        #expect(output.contains("writing the bundle"))
    }

    @Test func noProgressWithJSONOrWithoutATerminal() throws {
        for output in [try build(json: true, terminal: true), try build(json: false, terminal: false)] {
            #expect(!output.contains("rows/s"), "\(output.debugDescription)")
            #expect(!output.contains("\u{1B}[2K"))
        }
    }

    @Test func ratesAreReadable() {
        #expect(RowRate.describe(rows: 583_402, seconds: 0.5) == "583,402 rows, 1.17M rows/s")
        #expect(RowRate.describe(rows: 3_771, seconds: 0.25) == "3,771 rows, 15k rows/s")
        #expect(RowRate.describe(rows: 12, seconds: 0) == "12 rows")
    }
}
