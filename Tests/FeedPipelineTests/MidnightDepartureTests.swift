import BundleFormat
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// After midnight the departures query covers the previous service day too: at 00:15 on
/// Wednesday 2026-05-06 a WMATA rider at platform PF_D08_C sees Tuesday's 24:18 and 24:22
/// trains before Wednesday's first at 05:08. Needs ../shared (skipped in a clone without it;
/// always run on CI).
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
struct MidnightDepartureTests {
    @Test func thePreviousDaysLateTrainsShowAfterMidnight() throws {
        let workspace = Workspace()
        let report = try workspace.build(workspace.config(sources: [("wmata", SharedData.url("gtfs/medium/wmata_2026_tlib.zip"))]))
        try #require(report.status == .published, "\(report.reason ?? "")")
        let (database, cleanup) = try BundleFile.open(try workspace.latestBundle())
        defer { cleanup() }
        let zone = TimeZone(identifier: try #require(try database.scalar("SELECT timezone FROM agencies")?.string))!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let asked = calendar.date(from: DateComponents(year: 2026, month: 5, day: 6, hour: 0, minute: 15))!
        let time = ServiceTime(asked, timeZone: zone)
        #expect(time == ServiceTime(date: 20260506, after: 900, previousAfter: 87300))
        let rows = try AppQueries.run(
            "next_departures", on: database,
            time.parameters.merging(["stop_id": .text("PF_D08_C"), "limit": .integer(3)]) { a, _ in a })
        #expect(rows.map { $0[5].int } == [20260505, 20260505, 20260506])
        #expect(rows.map { $0[3].int } == [24 * 3600 + 18 * 60, 24 * 3600 + 22 * 60, 5 * 3600 + 8 * 60])
        #expect(rows.map { $0[6].int } == [180, 420, 5 * 3600 + 8 * 60 - 900])
        // Back to clock times: 00:18 and 00:22 that night, 05:08 in the morning.
        let clock = rows.map { row -> String in
            let moment = ServiceTime.instant(serviceDate: row[5].int!, seconds: row[3].int!, timeZone: zone)
            let c = calendar.dateComponents([.day, .hour, .minute], from: moment)
            return String(format: "%02d %02d:%02d", c.day!, c.hour!, c.minute!)
        }
        #expect(clock == ["06 00:18", "06 00:22", "06 05:08"])
    }
}
