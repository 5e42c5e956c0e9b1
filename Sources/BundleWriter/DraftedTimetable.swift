import FeedModel

/// A source's timetable compiled from its frozen feed before the enhancement stages end: it needs
/// nothing of them but each pattern's direction, added when the source is compiled
/// (``CompiledTimetable/writePatterns(directions:into:)``). A build with a worker to spare drafts
/// it beside the directions stage, on a thread of its own, and hands it to
/// ``BundleCompiler/compile(source:drafting:)``; the rows are the same as compiled in line.
package struct DraftedTimetable: Sendable {
    /// The timetable's rows but `patterns`'.
    let content: BundleContent
    let compiled: CompiledTimetable

    /// Compiles the timetable of `feed`, whose ids take `prefix` in the bundle.
    package init(feed: Feed, prefix: String) {
        var content = BundleContent()
        compiled = TimetableCompiler(feed: feed, prefix: prefix, runs: TripRuns(feed)).compile(into: &content)
        self.content = content
    }
}
