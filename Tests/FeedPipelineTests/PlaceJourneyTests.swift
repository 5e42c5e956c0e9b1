import Foundation
import TestSupport
import Testing

/// A stop id names its place (issue 43): planning to a platform ends at whichever stop of its
/// station, or of a station `same_places` links it to, is reached first; the same from it.
@Suite(.enabled(if: SharedData.isAvailable && FeedcBinary.suitesRun, "needs ../shared/data and the feedc binary"))
struct PlaceJourneyTests {
    private func arrival(_ bundle: URL, from: String, to: String, depart: String) throws -> (arrival: String?, legs: [[String: Any]]) {
        let feedc = try #require(FeedcBinary.url)
        let run = try Subprocess.run(feedc, ["plan", bundle.path, "--from", from, "--to", to, "--depart", depart, "--json"], timeout: 120)
        #expect(run.status == 0, "\(run.error)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let first = (answer["journeys"] as? [[String: Any]])?.first
        return (first?["arrival"] as? String, first?["legs"] as? [[String: Any]] ?? [])
    }

    /// Palo Alto's Caltrain platforms `70171` and `70172`, 11 m apart (linked in `same_places`),
    /// are one place: from Embarcadero at 08:00 on 13 June 2018 both arrive when the first of them
    /// is reached, without a last walk between the platforms. Millbrae's Caltrain platforms
    /// `70061` and `70062` are one place with BART's Millbrae (`MLBR`), so all three arrive when
    /// the BART train does.
    @Test func aPlacesStopsArriveTogether() throws {
        let bundle = try NetworkRegions.bundle("bay2018", NetworkRegions.bay2018).sqlite
        let south = try arrival(bundle, from: "bart:EMBR", to: "caltrain:70171", depart: "2018-06-13T08:00")
        let north = try arrival(bundle, from: "bart:EMBR", to: "caltrain:70172", depart: "2018-06-13T08:00")
        #expect(south.arrival != nil && south.arrival == north.arrival, "\(south.arrival ?? "-") \(north.arrival ?? "-")")
        #expect(south.legs.last?["mode"] as? String == "ride", "no walk between platforms at the end: \(south.legs)")
        let millbrae = try ["bart:MLBR", "caltrain:70061", "caltrain:70062"].map {
            try arrival(bundle, from: "bart:EMBR", to: $0, depart: "2018-06-13T08:00").arrival
        }
        #expect(millbrae[0] != nil && Set(millbrae).count == 1, "\(millbrae)")
        // And from a platform: any stop of the place may be left from.
        let back = try arrival(bundle, from: "caltrain:70171", to: "bart:EMBR", depart: "2018-06-13T09:00")
        let other = try arrival(bundle, from: "caltrain:70172", to: "bart:EMBR", depart: "2018-06-13T09:00")
        #expect(back.arrival != nil && back.arrival == other.arrival)
    }
}
