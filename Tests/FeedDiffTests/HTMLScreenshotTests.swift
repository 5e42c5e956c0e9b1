import FeedDiff
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// The HTML report opened in headless Chromium: the page renders (the screenshot is not blank)
/// and the map's SVG is in the DOM. Skipped where Chromium is not installed
/// (`scripts/html-screenshot.sh` runs the same check by hand).
/// Skipped only off CI without Chromium: `.ci/run` installs it, so under CI a missing Chromium fails.
@Suite(.enabled(if: Chromium.isRequired, "needs chromium (apt-get install chromium)"))
struct HTMLScreenshotTests {
    @Test func reportRendersWithItsMap() throws {
        let folder = TemporaryFolder()
        let chromium = Chromium(program: try #require(Chromium.url), folder: folder.url)
        let diff = try DiffRunner().diff(folder.feed("old", TinyFeed.files).path, folder.feed("new", SampleDiffTests.newFeed).path)
        let page = folder.url.appendingPathComponent("diff.html")
        let html = DiffHTML().render(diff)
        try html.write(to: page, atomically: true, encoding: .utf8)
        // Self-contained: no script, nothing fetched (the SVG namespace is a name, not a download).
        #expect(Chromium.outsideReferences(in: html).isEmpty)
        #expect(Chromium.looksDrawn(try chromium.screenshot(page)), "the page is blank")

        let dom = try chromium.dom(page)
        #expect(dom.contains("<svg id=\"map\""))
        #expect(dom.contains("class=\"stop added\""))
        #expect(dom.contains("class=\"line added\""))
        #expect(dom.contains("Route 1X"))
    }
}
