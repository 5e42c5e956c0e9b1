import FeedModel

/// Compares when service runs: each side's window (first and last dates any trip runs) and the
/// dates that gained or lost all service, as runs of consecutive dates (dates without service on
/// either side, a Sunday of a line that never runs on Sundays, neither extend nor break a run).
struct CalendarComparer {
    let old: ServiceCalendar
    let new: ServiceCalendar

    func compare() -> CalendarChanges {
        func window(_ c: ServiceCalendar) -> DateRange? {
            guard let first = c.firstDay, let last = c.lastDay else { return nil }
            return DateRange(
                first: CivilDate.iso(first), last: CivilDate.iso(last),
                dates: (first...last).filter { c.total(on: $0) > 0 }.count)
        }
        var gained: [DateRange] = [], lost: [DateRange] = []
        var changed = 0
        let firsts = [old.firstDay, new.firstDay].compactMap { $0 }
        let lasts = [old.lastDay, new.lastDay].compactMap { $0 }
        if let first = firsts.min(), let last = lasts.max() {
            var gainedRun: (first: Int, last: Int, dates: Int)?, lostRun: (first: Int, last: Int, dates: Int)?
            func close(_ run: inout (first: Int, last: Int, dates: Int)?, into list: inout [DateRange]) {
                if let r = run { list.append(DateRange(first: CivilDate.iso(r.first), last: CivilDate.iso(r.last), dates: r.dates)) }
                run = nil
            }
            func extend(_ run: inout (first: Int, last: Int, dates: Int)?, _ day: Int) {
                run = (run?.first ?? day, day, (run?.dates ?? 0) + 1)
            }
            for day in first...last {
                let a = old.total(on: day), b = new.total(on: day)
                // A date without service on either side neither extends nor breaks a run.
                if a == 0 && b == 0 { continue }
                if a == 0 { extend(&gainedRun, day) } else { close(&gainedRun, into: &gained) }
                if b == 0 { extend(&lostRun, day) } else { close(&lostRun, into: &lost) }
                if a > 0 && b > 0 && a != b { changed += 1 }
            }
            close(&gainedRun, into: &gained)
            close(&lostRun, into: &lost)
        }
        return CalendarChanges(oldWindow: window(old), newWindow: window(new), gained: gained, lost: lost, changedDates: changed)
    }
}
