import FeedModel
import Testing

@testable import FeedValidation

/// PathwayRule and PathwayLoopRule, each alone on in-memory pathways.
@Suite struct PathwayRulesInMemoryTests {
    private let pathways: [InMemoryRow] = [
        [.pathwayId: "P1", .fromStopId: "S1", .toStopId: "S2", .pathwayMode: 7, .isBidirectional: 1],
        [.pathwayId: "P2", .fromStopId: "S1", .toStopId: "S2", .pathwayMode: 7, .isBidirectional: 0],
        [.pathwayId: "P3", .fromStopId: "S2", .toStopId: "S2", .pathwayMode: 1, .isBidirectional: 1],
        [.pathwayId: "P4", .toStopId: "S2", .pathwayMode: 1, .isBidirectional: 1],
    ]

    @Test func bidirectionalExitGateIsReported() throws {
        let run = RuleRun(PathwayRule(), on: InMemoryFeed.feed(["pathways": pathways]))
        #expect(run.counts == ["bidirectional_exit_gate": 1])
        try run.expectFirst(.bidirectionalExitGate, .error, at: "pathways.txt:2 is_bidirectional=\"P1\"")
    }

    @Test func pathwayLeadingBackToItsStartIsReported() throws {
        let run = RuleRun(PathwayLoopRule(), on: InMemoryFeed.feed(["pathways": pathways]))
        #expect(run.counts == ["pathway_loop": 1])
        try run.expectFirst(.pathwayLoop, .warning, at: "pathways.txt:4 to_stop_id=\"P3\"")
    }

    @Test func oneWayGatesBetweenTwoPlacesRaiseNothing() {
        let feed = InMemoryFeed.feed(["pathways": [pathways[1]]])
        #expect(RuleRun(PathwayRule(), on: feed).counts.isEmpty)
        #expect(RuleRun(PathwayLoopRule(), on: feed).counts.isEmpty)
    }
}
