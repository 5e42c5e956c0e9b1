import BundleFormat
import Foundation
import Testing

/// The moment a rider asks about, as the departures query takes it: the service date and the
/// seconds since the start of it and of the previous one (local noon minus 12 hours).
@Suite struct ServiceTimeTests {
    private func instant(_ text: String, _ zone: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: text)!
    }

    @Test func anOrdinaryNight() {
        let zone = TimeZone(identifier: "America/New_York")!
        let time = ServiceTime(instant("2026-05-06 00:15", zone.identifier), timeZone: zone)
        #expect(time == ServiceTime(date: 20260506, after: 900, previousAfter: 900 + 86400))
        #expect(ServiceTime.instant(serviceDate: 20260505, seconds: 24 * 3600 + 18 * 60, timeZone: zone) == instant("2026-05-06 00:18", zone.identifier))
    }

    @Test func theNightClocksGoForward() {
        // 2026-03-08 in Los Angeles: 02:00 PST becomes 03:00 PDT. The service day starts at noon
        // PDT minus 12 hours, 23:00 PST the evening before: 00:30 is 1.5 hours into it.
        let zone = TimeZone(identifier: "America/Los_Angeles")!
        let time = ServiceTime(instant("2026-03-08 00:30", zone.identifier), timeZone: zone)
        #expect(time == ServiceTime(date: 20260308, after: 5400, previousAfter: 5400 + 82800))
        let noon = ServiceTime(instant("2026-03-08 12:00", zone.identifier), timeZone: zone)
        #expect(noon.after == 12 * 3600)
    }

    @Test func theNightClocksGoBack() {
        // 2026-11-01: 02:00 PDT becomes 01:00 PST. The service day starts at noon PST minus 12
        // hours, 01:00 PDT, an hour after midnight; the day before lasted 25 hours.
        let zone = TimeZone(identifier: "America/Los_Angeles")!
        let time = ServiceTime(instant("2026-11-01 03:00", zone.identifier), timeZone: zone)
        #expect(time == ServiceTime(date: 20261101, after: 3 * 3600, previousAfter: 3 * 3600 + 90000))
        #expect(ServiceTime(instant("2026-11-01 12:00", zone.identifier), timeZone: zone).after == 12 * 3600)
        #expect(time.parameters["previous_after"] == .integer(Int64(3 * 3600 + 90000)))
    }
}
