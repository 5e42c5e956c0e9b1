import FeedModel

/// One check of a feed, with its repair.
///
/// A rule reports each problem it finds to the sink, with MobilityData's code and severity, and
/// repairs the feed in the way its notices state (rows dropped, values cleared). It marks a notice
/// as blocking only when no repair can give a correct bundle.
package protocol ValidationRule: Sendable {
    /// False for a rule that never changes the feed: the ``Validator`` may then run it beside the
    /// rules after it, on the feed as the rules before it left it. True (the default) keeps the
    /// rule in line.
    var repairs: Bool { get }
    /// True for a rule that reads what earlier rules reported (through the sink): it runs once
    /// every earlier rule has ended and its notices are in.
    var readsEarlierNotices: Bool { get }
    func apply(to feed: inout Feed, sink: NoticeSink)
}

extension ValidationRule {
    package var repairs: Bool { true }
    package var readsEarlierNotices: Bool { false }
}

extension NoticeSink {
    /// Records a repair that dropped rows of a table.
    func dropped(_ count: Int, from table: Table) {
        recordDropped(count, from: table.schema.fileName)
    }
}

extension Feed {
    /// Drops the trips whose ids are in `trips`, with their stop_times and frequencies.
    /// Returns the number of trip rows removed.
    @discardableResult
    mutating func dropTrips(_ trips: Set<String>, sink: NoticeSink, leftOut: Bool = false) -> Int {
        guard !trips.isEmpty else { return 0 }
        for name in ["trips", "stop_times", "frequencies"] {
            let table = self[name]
            guard table.isPresent else { continue }
            let ids = table.texts(.tripId)
            let keep = ids.map { $0.map { !trips.contains($0) } ?? true }
            let removed = keep.lazy.filter { !$0 }.count
            if leftOut { sink.recordLeftOut(removed, from: table.schema.fileName) } else { sink.dropped(removed, from: table) }
            self[name] = table.keeping(keep)
        }
        return trips.count
    }
}
