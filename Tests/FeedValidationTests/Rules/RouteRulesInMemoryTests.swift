import FeedModel
import Testing

@testable import FeedValidation

/// RouteNameRule, DuplicateRouteNameRule, RouteColorContrastRule, RouteTextRule and
/// UrlConsistencyRule, each alone on in-memory routes (and agencies and stops for URLs).
@Suite struct RouteRulesInMemoryTests {
    private func routes(_ rows: [InMemoryRow]) -> Feed { InMemoryFeed.feed(["routes": rows]) }

    @Test func routeWithoutAnyNameIsReported() throws {
        let run = RuleRun(
            RouteNameRule(),
            on: routes([
                [.routeId: "R1", .routeShortName: "10"], [.routeId: "R2", .routeType: 3], [.routeId: "R3", .routeLongName: "Centre"],
            ]))
        #expect(run.counts == ["route_both_short_and_long_name_missing": 1])
        try run.expectFirst(.routeBothShortAndLongNameMissing, .error, at: "routes.txt:3 route_id=\"R2\"")
        #expect(run.feed.routes.count == 3)
    }

    @Test func namedRoutesRaiseNothing() {
        #expect(RuleRun(RouteNameRule(), on: routes([[.routeId: "R1", .routeShortName: "10", .routeLongName: "Centre"]])).counts.isEmpty)
    }

    @Test func routeRepeatingNamesTypeAndAgencyIsReported() throws {
        let run = RuleRun(
            DuplicateRouteNameRule(),
            on: routes([
                [.routeId: "R1", .agencyId: "A", .routeShortName: "10", .routeLongName: "Centre", .routeType: 3],
                [.routeId: "R2", .agencyId: "A", .routeShortName: "10", .routeLongName: "Centre", .routeType: 0],
                [.routeId: "R3", .agencyId: "B", .routeShortName: "10", .routeLongName: "Centre", .routeType: 3],
                [.routeId: "R4", .agencyId: "A", .routeShortName: "10", .routeLongName: "Centre", .routeType: 3],
                [.routeId: "R5", .agencyId: "A", .routeShortName: "10", .routeType: 3],
            ]))
        #expect(run.counts == ["duplicate_route_name": 1])
        let notice = try run.expectFirst(.duplicateRouteName, .warning, at: "routes.txt:5 route_short_name=\"10\"")
        #expect(notice.message.contains("R4") && notice.message.contains("R1"))
    }

    @Test func routesDifferingInOneNameRaiseNothing() {
        let run = RuleRun(
            DuplicateRouteNameRule(),
            on: routes([
                [.routeId: "R1", .routeShortName: "10", .routeLongName: "Centre", .routeType: 3],
                [.routeId: "R2", .routeShortName: "10", .routeLongName: "Harbour", .routeType: 3],
            ]))
        #expect(run.counts.isEmpty)
    }

    @Test func textColourTooCloseToRouteColourIsReported() throws {
        // Lumas: 000000 is 0, 474747 is 71, 484848 is 72 (the least difference allowed).
        let run = RuleRun(
            RouteColorContrastRule(),
            on: routes([
                [.routeId: "R1", .routeColor: "000000", .routeTextColor: "474747"],
                [.routeId: "R2", .routeColor: "000000", .routeTextColor: "484848"],
                [.routeId: "R3", .routeColor: "FFFFFF", .routeTextColor: "ffffff"],
                [.routeId: "R4", .routeColor: "FFFFFF"],
            ]))
        #expect(run.counts == ["route_color_contrast": 2])
        #expect(run.notices(.routeColorContrast).map(\.location) == ["routes.txt:2 route_text_color=\"474747\"", "routes.txt:4 route_text_color=\"ffffff\""])
        #expect(run.notices(.routeColorContrast).allSatisfy { $0.severity == .warning })
    }

    @Test func contrastingColoursRaiseNothing() {
        #expect(RuleRun(RouteColorContrastRule(), on: routes([[.routeId: "R1", .routeColor: "0000FF", .routeTextColor: "FFFFFF"]])).counts.isEmpty)
    }

    @Test func routeTextProblemsAreReported() throws {
        let run = RuleRun(
            RouteTextRule(),
            on: routes([
                [.routeId: "R1", .routeShortName: "ABCDEFGHIJKLM"],
                [.routeId: "R2", .routeShortName: "ABCDEFGHIJKL", .routeLongName: "Harbour"],
                [.routeId: "R3", .routeShortName: "10", .routeLongName: "10 - Centre"],
                [.routeId: "R4", .routeShortName: "10", .routeLongName: "100 Centre"],
                [.routeId: "R5", .routeShortName: "N", .routeLongName: "n"],
                [.routeId: "R6", .routeShortName: "7", .routeLongName: "Harbour", .routeDesc: "HARBOUR"],
                [.routeId: "R7", .routeShortName: "Express", .routeDesc: "express"],
            ]))
        #expect(
            run.counts == [
                "route_short_name_too_long": 1, "route_long_name_contains_short_name": 2,
                "same_name_and_description_for_route": 2,
            ])
        try run.expectFirst(.routeShortNameTooLong, .warning, at: "routes.txt:2 route_short_name=\"ABCDEFGHIJKLM\"")
        #expect(
            run.notices(.routeLongNameContainsShortName).map(\.location)
                == ["routes.txt:4 route_long_name=\"10 - Centre\"", "routes.txt:6 route_long_name=\"n\""])
        #expect(run.notices(.routeLongNameContainsShortName).allSatisfy { $0.severity == .warning })
        // Reported as the file writes it, though compared ignoring case.
        #expect(
            run.notices(.sameNameAndDescriptionForRoute).map(\.location)
                == ["routes.txt:7 route_desc=\"HARBOUR\"", "routes.txt:8 route_desc=\"express\""])
        #expect(run.notices(.sameNameAndDescriptionForRoute).allSatisfy { $0.severity == .warning })
    }

    @Test func distinctRouteTextsRaiseNothing() {
        let run = RuleRun(
            RouteTextRule(),
            on: routes([
                [.routeId: "R1", .routeShortName: "10", .routeLongName: "Centre", .routeDesc: "Through the old town"]
            ]))
        #expect(run.counts.isEmpty)
    }

    @Test func urlsRepeatingTheAgencysOrRoutesAreReported() throws {
        let run = RuleRun(
            UrlConsistencyRule(),
            on: InMemoryFeed.feed([
                "agency": [[.agencyName: "A", .agencyUrl: "https://a.example"]],
                "routes": [
                    [.routeId: "R1", .routeUrl: "HTTPS://A.EXAMPLE"], [.routeId: "R2", .routeUrl: "https://r.example"],
                    [.routeId: "R3", .routeUrl: "https://r.example"],
                ],
                "stops": [
                    [.stopId: "S1", .stopUrl: "https://a.example"], [.stopId: "S2", .stopUrl: "https://R.example"],
                    [.stopId: "S3", .stopUrl: "https://s3.example"],
                ],
            ]))
        // One notice per pair: S1's URL is the agency's and R1's, S2's that of two routes.
        #expect(run.counts == ["same_route_and_agency_url": 1, "same_stop_and_agency_url": 1, "same_stop_and_route_url": 3])
        try run.expectFirst(.sameRouteAndAgencyUrl, .warning, at: "routes.txt:2 route_url=\"HTTPS://A.EXAMPLE\"")
        try run.expectFirst(.sameStopAndAgencyUrl, .warning, at: "stops.txt:2 stop_url=\"https://a.example\"")
        #expect(
            run.notices(.sameStopAndRouteUrl).map(\.location)
                == ["stops.txt:2 stop_url=\"https://a.example\""] + Array(repeating: "stops.txt:3 stop_url=\"https://R.example\"", count: 2))
    }

    @Test func pagesOfTheirOwnRaiseNothing() {
        let run = RuleRun(
            UrlConsistencyRule(),
            on: InMemoryFeed.feed([
                "agency": [[.agencyName: "A", .agencyUrl: "https://a.example"]],
                "routes": [[.routeId: "R1", .routeUrl: "https://a.example/r1"]],
                "stops": [[.stopId: "S1", .stopUrl: "https://a.example/s1"]],
            ]))
        #expect(run.counts.isEmpty)
    }
}
