/// The work the planar checks may still do for one file or one rule run, shared by every
/// geometry they look at, so that a hostile file cannot make them run for hours: a budget per
/// call bounds one feature, not ten thousand of them.
///
/// Work is counted in elementary steps: segment pairs a sweep visits, and point-in-ring steps
/// (a point located in a ring of n points costs n). The default, 200 million, is a few seconds
/// at most; real files use a small part of it.
///
/// `@unchecked Sendable`: a budget belongs to one file's or one rule run's checks, which run on
/// one thread; it is handed to that work, never shared between threads at once.
package final class PlanarWorkBudget: @unchecked Sendable {
    package static let standard = 200_000_000

    package private(set) var remaining: Int
    /// Geometries (or pairs of them) left unchecked because the budget was spent.
    package private(set) var skipped = 0

    package init(_ total: Int = PlanarWorkBudget.standard) {
        remaining = total
    }

    /// Takes `amount` steps; false, taking nothing and counting a skip, when fewer are left.
    package func take(_ amount: Int) -> Bool {
        guard amount <= remaining else {
            skipped += 1
            return false
        }
        remaining -= amount
        return true
    }

    /// Takes what a bounded step used (never more than was left).
    func spend(_ amount: Int) {
        remaining = max(0, remaining - amount)
    }

    /// Counts a geometry whose check stopped where the budget ran out.
    func noteSkipped() { skipped += 1 }

    /// The most a sweep may visit now: its own bound, or what is left.
    var sweepLimit: Int { min(PlanarSegmentSweep.pairBudget, remaining) }
}
