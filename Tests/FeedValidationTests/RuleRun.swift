import FeedModel
import Testing

@testable import FeedValidation

/// One rule applied on its own to a feed (usually an ``InMemoryFeed``): the feed as the rule
/// left it and what it reported.
struct RuleRun {
    let feed: Feed
    let sink: NoticeSink

    /// Applies `rule` to `feed`, into `sink` (a fresh one unless the test stands in for the
    /// notices of earlier rules, for a rule that reads them).
    init(_ rule: some ValidationRule, on feed: Feed, sink: NoticeSink = NoticeSink()) {
        var repaired = feed
        rule.apply(to: &repaired, sink: sink)
        self.feed = repaired
        self.sink = sink
    }

    /// Every code raised, with its count.
    var counts: [String: Int] { sink.counts }

    /// The stored notices of `kind`, in the order raised.
    func notices(_ kind: NoticeKind) -> [Notice] { sink.samples.filter { $0.code == kind.code } }

    /// Expects the first notice of `kind` to be at `severity` and at `location` (``Notice/location``:
    /// file, line, field and value); returns it for further checks.
    @discardableResult
    func expectFirst(
        _ kind: NoticeKind, _ severity: Severity, at location: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Notice {
        let notice = try first(kind, sourceLocation: sourceLocation)
        #expect(notice.severity == severity, "\(kind.code)", sourceLocation: sourceLocation)
        #expect(notice.location == location, "\(kind.code)", sourceLocation: sourceLocation)
        return notice
    }

    /// The first notice of `kind`; a test failure when there is none.
    func first(_ kind: NoticeKind, sourceLocation: SourceLocation = #_sourceLocation) throws -> Notice {
        try #require(notices(kind).first, "no \(kind.code) among \(counts)", sourceLocation: sourceLocation)
    }
}
