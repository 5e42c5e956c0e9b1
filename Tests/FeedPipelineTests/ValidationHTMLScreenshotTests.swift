import FeedPipeline
import Foundation
import TestSupport
import Testing

/// `feedc validate --html`'s page opened in headless Chromium: it draws (the screenshot is not
/// blank), the browser parses the notices' tables, and the hostile stop name stays text.
/// Skipped only off CI without Chromium: under CI a missing Chromium fails.
@Suite(.enabled(if: Chromium.isRequired, "needs chromium (apt-get install chromium)"))
struct ValidationHTMLScreenshotTests {
    @Test func pageRendersAndKeepsFeedTextAsText() throws {
        let folder = TemporaryFolder()
        let chromium = Chromium(program: try #require(Chromium.url), folder: folder.url)
        let report = ValidationHTMLTests.check(ValidationHTMLTests.hostile, folder)
        let html = ValidationHTML(version: "0.1.0").render(report)
        let page = folder.url.appendingPathComponent("validation.html")
        try ReportFile.write(html, to: page.path)
        // Self-contained: no script, nothing fetched (links only within the page).
        #expect(Chromium.outsideReferences(in: html).isEmpty)
        #expect(Chromium.looksDrawn(try chromium.screenshot(page)), "the page is blank")

        let dom = try chromium.dom(page)
        #expect(dom.contains("<section class=\"code\" id=\"code-foreign_key_violation\">"))
        #expect(dom.contains("Wrong foreign key."))
        // The stop name reached the DOM as text, not as a script element.
        #expect(dom.contains("&lt;script&gt;alert('x')&lt;/script&gt; &amp; \"more\""))
        #expect(!dom.contains("<script"))
    }
}
