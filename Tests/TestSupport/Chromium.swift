import Foundation

/// Debian's headless Chromium, for the tests that open feedc's HTML reports: a screenshot (is the
/// page drawn at all?) and the DOM as the browser parsed it.
///
/// Suites using it are enabled with ``isRequired``: skipped off CI where Chromium is missing,
/// failing under CI (`CI` set; `.ci/run` installs it), where a missing browser is a broken setup.
public struct Chromium {
    public let program: URL
    /// The browser's profile and the screenshots go here.
    public let folder: URL
    public static let windowSize = (width: 1200, height: 1400)

    /// Debian's `chromium` (or another Chromium-based browser), when installed.
    public static var url: URL? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].map(URL.init(fileURLWithPath:))
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// True when the tests should run: Chromium is here, or this is CI (where its absence fails).
    public static var isRequired: Bool { url != nil || ProcessInfo.processInfo.environment["CI"] != nil }

    public init(program: URL, folder: URL) {
        self.program = program
        self.folder = folder
    }

    private var common: [String] {
        [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
            "--window-size=\(Self.windowSize.width),\(Self.windowSize.height)",
        ]
    }

    /// What in a page would make the browser fetch something or run a script (`src=`, `<link`,
    /// `<script`, a link that leaves the page…): empty for a self-contained report. Links within
    /// the page (`href="#…"`) are fine.
    public static func outsideReferences(in html: String) -> [String] {
        var found = ["src=", "url(", "<link", "<script", "@import"].filter { html.contains($0) }
        if html.range(of: #"href="[^#]"#, options: .regularExpression) != nil { found.append("href") }
        return found
    }

    /// The page drawn in a window of ``windowSize``, decoded.
    public func screenshot(_ page: URL) throws -> PNGImage {
        let png = folder.appendingPathComponent(page.deletingPathExtension().lastPathComponent + ".png")
        _ = try Subprocess.run(program, common + ["--screenshot=\(png.path)", page.absoluteString])
        return try PNGImage([UInt8](Data(contentsOf: png)))
    }

    /// Whether a screenshot shows a drawn page: the window's size, with ink (more than 2% of
    /// the pixels not white) in more than 20 colours.
    public static func looksDrawn(_ png: PNGImage) -> Bool {
        png.width == windowSize.width && png.height == windowSize.height && png.inkShare > 0.02 && png.colourCount > 20
    }

    /// The document as the browser parsed it, serialised.
    public func dom(_ page: URL) throws -> String {
        try Subprocess.run(program, common + ["--dump-dom", page.absoluteString]).output
    }
}
