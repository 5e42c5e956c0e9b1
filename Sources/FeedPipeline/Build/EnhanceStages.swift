import BundleWriter
import FeedEnhancement
import FeedModel

/// The enhance stages, in order, on one frozen feed: directions, then opposite stops (which use
/// the directions), then walks through the feed's pathways. (Links across sources are made
/// once the sources are joined: ``NetworkCompiler``.) Shared by `feedc build` and by `feedc diff` when a side is a dump.
enum EnhanceStages {
    /// The feed ready for the bundle compiler, and what the stages decided, for the report.
    /// `lap` is called after each stage with its name, for timing.
    static func run(
        _ feed: Feed, source id: String, prefix: String, opposites settings: OppositeStopsSettings,
        network: NetworkSettings = NetworkSettings(),
        lap: (String) -> Void = { _ in }
    ) -> (source: SourceFeed, report: EnhancementReport) {
        let sink = NoticeSink()
        let directions = DirectionsStage().run(feed, sink: sink)
        lap("directions")
        let opposites = OppositeStopsStage(settings: settings).run(feed, directions: directions, sink: sink)
        lap("opposites")
        let walks = PathwayWalks(settings: network).transfers(feed)
        lap("pathways")
        return (
            SourceFeed(
                id: id, prefix: prefix, feed: feed, directions: directions, opposites: opposites,
                network: network, pathwayWalks: walks),
            EnhancementReport(source: id, directions: directions, opposites: opposites, runs: TripRuns(feed), sink: sink)
        )
    }
}
