import FeedModel
import Testing

@testable import FeedValidation

/// IdCharactersRule, MixedCaseRule and StopDescriptionRule, each alone on in-memory tables.
@Suite struct TextRulesInMemoryTests {
    @Test func idsOutsidePrintableAsciiAreReported() throws {
        let run = RuleRun(
            IdCharactersRule(),
            on: InMemoryFeed.feed([
                "stops": [[.stopId: "S1"], [.stopId: "Sé"], [.stopId: "Sé"], [.stopId: "S\t4"]],
                "routes": [[.routeId: "R1", .agencyId: "Ä"]],
                // feedc reads these as ids, MobilityData does not: not reported.
                "frequencies": [[.tripId: "Té"]],
                "translations": [[.recordId: "Ré"]],
            ]))
        #expect(run.counts == ["non_ascii_or_non_printable_char": 4])
        let notices = run.notices(.nonAsciiOrNonPrintableChar)
        #expect(
            notices.map(\.location) == [
                "stops.txt:3 stop_id=\"Sé\"", "stops.txt:4 stop_id=\"Sé\"", "stops.txt:5 stop_id=\"S\t4\"",
                "routes.txt:2 agency_id=\"Ä\"",
            ])
        #expect(notices.allSatisfy { $0.severity == .warning && $0.repair == nil })
    }

    @Test func printableAsciiIdsRaiseNothing() {
        let run = RuleRun(IdCharactersRule(), on: InMemoryFeed.feed(["stops": [[.stopId: "S-1_a.b:c~"], [.stopId: "S 2"]]]))
        #expect(run.counts.isEmpty)
    }

    @Test func namesWithoutMixedCaseAreReported() throws {
        let run = RuleRun(
            MixedCaseRule(),
            on: InMemoryFeed.feed([
                "stops": [
                    [.stopId: "S1", .stopName: "main street"], [.stopId: "S2", .stopName: "MAIN STREET"],
                    [.stopId: "S3", .stopName: "Main Street"], [.stopId: "S4", .stopName: "ABC"],
                    [.stopId: "S5", .stopName: "route 1"], [.stopId: "S6", .stopName: "10"],
                ],
                "routes": [[.routeId: "R1", .routeLongName: "CENTRE - HARBOUR"], [.routeId: "R2", .routeShortName: "a"]],
                "agency": [[.agencyName: "city transit"]],
            ]))
        #expect(run.counts == ["mixed_case_recommended_field": 5])
        let notices = run.notices(.mixedCaseRecommendedField)
        #expect(
            notices.map(\.location) == [
                "agency.txt:2 agency_name=\"city transit\"", "stops.txt:2 stop_name=\"main street\"", "stops.txt:3 stop_name=\"MAIN STREET\"",
                "stops.txt:6 stop_name=\"route 1\"", "routes.txt:2 route_long_name=\"CENTRE - HARBOUR\"",
            ])
        #expect(notices.allSatisfy { $0.severity == .warning })
    }

    @Test func mixedCaseNamesRaiseNothing() {
        let run = RuleRun(
            MixedCaseRule(),
            on: InMemoryFeed.feed([
                "stops": [[.stopId: "S1", .stopName: "Zürich HB"], [.stopId: "S2", .stopName: "A1"]],
                "trips": [[.tripId: "T1", .tripHeadsign: "To the Harbour"]],
            ]))
        #expect(run.counts.isEmpty)
    }

    @Test func descriptionRepeatingTheNameIsReported() throws {
        let run = RuleRun(
            StopDescriptionRule(),
            on: InMemoryFeed.feed([
                "stops": [
                    [.stopId: "S1", .stopName: "Main Street", .stopDesc: "MAIN STREET"],
                    [.stopId: "S2", .stopName: "Main Street", .stopDesc: "By the main street bridge"],
                    [.stopId: "S3", .stopDesc: "Main Street"],
                ]
            ]))
        #expect(run.counts == ["same_name_and_description_for_stop": 1])
        try run.expectFirst(.sameNameAndDescriptionForStop, .warning, at: "stops.txt:2 stop_desc=\"MAIN STREET\"")
    }

    @Test func descriptionAddingToTheNameRaisesNothing() {
        let run = RuleRun(StopDescriptionRule(), on: InMemoryFeed.feed(["stops": [[.stopId: "S1", .stopName: "Main St", .stopDesc: "Main Street"]]]))
        #expect(run.counts.isEmpty)
    }
}
