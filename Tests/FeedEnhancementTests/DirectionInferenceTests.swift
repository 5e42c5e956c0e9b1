import FeedEnhancement
import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// Inference against the agencies' own direction_id: on every feed of ../shared/data whose trips
/// all carry one, directions are inferred with direction_id hidden and compared trip by trip.
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
struct DirectionInferenceTests {
    static let feeds: [URL] =
        SharedData.zips(in: "small") + SharedData.zips(in: "medium")
        + ["caltrain", "bart", "path", "amtrak"].compactMap { SharedData.zips(in: "versions/\($0)").last }

    @Test func agreesWithTheAgencies() throws {
        var total = 0, agreeing = 0, feedsCompared = 0
        var lines: [String] = []
        for dump in Self.feeds {
            let sink = NoticeSink()
            guard let raw = GTFSReader(url: dump).read(into: sink) else { continue }
            let feed = Validator().validate(raw, sink: sink)
            let trips = feed.trips
            let directionIds = trips.integers(.directionId)
            guard trips.count > 0, trips.has(.directionId), !directionIds.contains(Column.nullInteger) else { continue }
            feedsCompared += 1
            let truth = Dictionary(uniqueKeysWithValues: zip(trips.texts(.tripId).map { $0! }, directionIds))
            let inferred = DirectionsStage(useDirectionId: false).run(feed, sink: NoticeSink())
            let patterns = RoutePatterns.extract(from: feed, useDirectionId: false)
            var feedTotal = 0, feedAgreeing = 0
            for (_, route) in inferred.routes {
                // Labels are arbitrary per route: count the better of the two pairings.
                var same = 0, swapped = 0, count = 0
                for direction in route.directions {
                    for trip in direction.trips {
                        count += 1
                        if truth[trip] == direction.index { same += 1 } else if truth[trip] == 1 - direction.index { swapped += 1 }
                    }
                    // The direction's busiest pattern keeps its stop order in the merged list.
                    let members = Set(direction.trips)
                    let busiest = try #require(patterns[route.route]?.first { members.contains($0.trips[0]) })
                    #expect(isSubsequence(busiest.stops, of: direction.stops), "\(dump.lastPathComponent) route \(route.route)")
                }
                feedTotal += count
                feedAgreeing += max(same, swapped)
                #expect(route.directions.count <= 2)
            }
            total += feedTotal
            agreeing += feedAgreeing
            lines.append(String(format: "%@: %.1f%% of %d trips", dump.lastPathComponent, 100 * Double(feedAgreeing) / Double(max(feedTotal, 1)), feedTotal))
        }
        let share = Double(agreeing) / Double(max(total, 1))
        print("direction agreement with the agencies' direction_id (hidden from inference):\n  " + lines.joined(separator: "\n  "))
        print(String(format: "overall: %.2f%% of %d trips in %d feeds", 100 * share, total, feedsCompared))
        #expect(feedsCompared >= 12)
        #expect(share >= 0.97)
    }

    private func isSubsequence(_ small: [String], of large: [String]) -> Bool {
        var i = 0
        for stop in large where i < small.count && stop == small[i] { i += 1 }
        return i == small.count
    }
}
