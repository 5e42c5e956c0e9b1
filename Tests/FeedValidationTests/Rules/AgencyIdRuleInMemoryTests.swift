import FeedModel
import Testing

@testable import FeedValidation

/// AgencyIdRule alone on in-memory agencies, routes and fares.
@Suite struct AgencyIdRuleInMemoryTests {
    @Test func severalAgenciesNeedIdsAndOneTimeZone() throws {
        let run = RuleRun(
            AgencyIdRule(),
            on: InMemoryFeed.feed([
                "agency": [
                    [.agencyId: "A1", .agencyName: "One", .agencyTimezone: "Europe/Warsaw"],
                    [.agencyName: "Two", .agencyTimezone: "Europe/Warsaw"],
                    [.agencyName: "Three", .agencyTimezone: "Europe/Berlin"],
                ],
                "routes": [[.routeId: "R1", .agencyId: "A1"], [.routeId: "R2"]],
                "fare_attributes": [[.fareId: "F1", .agencyId: "A1"], [.fareId: "F2"]],
            ]))
        #expect(run.counts == ["missing_required_agency_id": 4, "inconsistent_agency_timezone": 1])
        let missing = run.notices(.missingRequiredAgencyId)
        #expect(
            missing.map(\.location) == [
                "agency.txt:3 agency_id", "agency.txt:4 agency_id", "fare_attributes.txt:3 agency_id",
                "routes.txt:3 agency_id",
            ])
        #expect(missing.allSatisfy { $0.severity == .error })
        #expect(missing.map(\.repair) == ["kept as the agency with an empty id", "row dropped", nil, "the route is given the first agency"])
        try run.expectFirst(.inconsistentAgencyTimezone, .error, at: "agency.txt:4 agency_timezone=\"Europe/Berlin\"")
        // The second agency without an id goes; the route keeps its empty agency_id (the
        // bundle writer gives it the first agency).
        #expect(run.feed.agency.texts(.agencyName) == ["One", "Two"])
        #expect(run.sink.droppedRows == ["agency.txt": 1])
        #expect(run.feed.routes.texts(.agencyId) == ["A1", nil])
    }

    @Test func oneAgencyIsRecommendedIds() throws {
        let run = RuleRun(
            AgencyIdRule(),
            on: InMemoryFeed.feed([
                "agency": [[.agencyName: "One", .agencyTimezone: "Europe/Warsaw"]],
                "routes": [[.routeId: "R1"], [.routeId: "R2"]],
            ]))
        #expect(run.counts == ["missing_recommended_field": 3])
        let notices = run.notices(.missingRecommendedField)
        #expect(notices.map(\.location) == ["agency.txt:2 agency_id", "routes.txt:2 agency_id", "routes.txt:3 agency_id"])
        #expect(notices.allSatisfy { $0.severity == .warning })
        #expect(run.feed.agency.count == 1)
    }

    @Test func identifiedAgenciesInOneTimeZoneRaiseNothing() {
        let run = RuleRun(
            AgencyIdRule(),
            on: InMemoryFeed.feed([
                "agency": [[.agencyId: "A1", .agencyTimezone: "Europe/Warsaw"], [.agencyId: "A2", .agencyTimezone: "Europe/Warsaw"]],
                "routes": [[.routeId: "R1", .agencyId: "A2"]],
            ]))
        #expect(run.counts.isEmpty)
        #expect(run.feed.agency.count == 2)
    }
}
