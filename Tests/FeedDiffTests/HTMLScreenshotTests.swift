import FeedDiff
import FeedPipeline
import Foundation
import Testing
import TestSupport

/// The HTML report opened in headless Chromium: the page renders (the screenshot is not blank)
/// and the map's SVG is in the DOM. Skipped where Chromium is not installed
/// (`scripts/html-screenshot.sh` runs the same check by hand).
/// Skipped only off CI without Chromium: `.ci/run` installs it, so under CI a missing Chromium fails.
@Suite(.enabled(if: Tools.chromium != nil || ProcessInfo.processInfo.environment["CI"] != nil,
                "needs chromium (apt-get install chromium)"))
struct HTMLScreenshotTests {
    @Test func reportRendersWithItsMap() throws {
        let chromium = try #require(Tools.chromium)
        let folder = TemporaryFolder()
        let diff = try DiffRunner().diff(folder.feed("old", TinyFeed.files).path, folder.feed("new", SampleDiffTests.newFeed).path)
        let page = folder.url.appendingPathComponent("diff.html")
        let html = DiffHTML().render(diff)
        try html.write(to: page, atomically: true, encoding: .utf8)
        // Self-contained: nothing is fetched (the SVG namespace is a name, not a download).
        for reference in ["src=", "href=", "url(", "<link", "<script", "@import"] {
            #expect(!html.contains(reference), "\(reference)")
        }

        let profile = folder.url.appendingPathComponent("profile").path
        let common = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=\(profile)", "--window-size=1200,1400"]
        let screenshot = folder.url.appendingPathComponent("diff.png")
        _ = try Tools.run(chromium, common + ["--screenshot=\(screenshot.path)", page.absoluteString])
        let png = try PNGImage([UInt8](Data(contentsOf: screenshot)))
        #expect(png.width == 1200 && png.height == 1400)
        #expect(png.inkShare > 0.02, "the page is blank")
        #expect(png.colourCount > 20)

        let dom = try Tools.run(chromium, common + ["--dump-dom", page.absoluteString]).output
        #expect(dom.contains("<svg id=\"map\""))
        #expect(dom.contains("class=\"stop added\""))
        #expect(dom.contains("class=\"line added\""))
        #expect(dom.contains("Route 1X"))
    }
}
