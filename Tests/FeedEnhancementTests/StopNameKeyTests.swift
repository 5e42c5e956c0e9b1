import Testing

@testable import FeedEnhancement

/// The opposite-stop rule's names compare after NFKC and lower case (issue 41): full-width
/// letters, ligatures and decomposed accents are the same words as their plain forms.
@Suite struct StopNameKeyTests {
    @Test func namesAreNormalisedBeforeTheyCompare() {
        #expect(StopNameKey("Ｃｏｌｌｅｇｅ Ａｖｅ ＆ Ｂｒｏａｄｗａｙ").words == StopNameKey("College Ave & Broadway").words)
        #expect(StopNameKey("ﬁfth St").words == StopNameKey("Fifth Street").words)
        #expect(StopNameKey("Cafe\u{0301} Sq").similarity(StopNameKey("Café Square")) == 1)
        #expect(StopNameKey("College Ave").similarity(StopNameKey("Broadway")) == 0)
    }
}
