import FeedRealtime
import Foundation

extension FeedDatabase {
    /// What of `feeds` joins the bundle at `moment` and what does not, with reasons and examples
    /// (docs/live.md, section 7).
    public func liveReport(feeds: [LiveFeed], moment: Date = Date()) throws(ClientError) -> LiveReport {
        var context = LiveContext(moment: moment, zone: try agencyTimeZone())
        var report = LiveReport()
        report.messages = feeds.reduce(0) { $0 + $1.messages }
        report.stale = feeds.contains { $0.isStale(at: moment) }
        for feed in feeds {
            let prefix = try livePrefix(feed.source, &context)
            for entity in feed.entities {
                if let update = entity.tripUpdate {
                    report.tripUpdates.total += 1
                    report.stopTimeUpdates.total += update.updates.count
                    if update.trip.relationship == .added || update.trip.relationship == .new {
                        if let added = try addedTrip(update, entity: entity.id, source: feed.source, &context) {
                            report.tripUpdates.joined += 1
                            report.stopTimeUpdates.joined += added.calls.count
                        }
                    } else if let joined = try joinTrip(
                        update.trip, entity: entity, stamp: update.timestamp ?? feed.messageTimestamp(of: entity.id), source: feed.source, &context)
                    {
                        report.tripUpdates.joined += 1
                        if joined.kind != .canceled {
                            let matched = TripPredictor.match(update.updates, to: joined.run, prefix: prefix, entity: entity.id, reasons: &context.reasons)
                            report.stopTimeUpdates.joined += matched.count
                            var ignored = LiveReasons()
                            _ = TripPredictor.predict(joined.run, update: update, canceled: false, prefix: prefix, entity: entity.id, reasons: &ignored)
                            for reason in [LiveReason.timeOutOfRange, .timesOutOfOrder] {
                                for _ in 0..<(ignored.counts[reason]?.count ?? 0) { context.reasons.add(reason, entity.id) }
                            }
                        }
                    }
                }
                if let vehicle = entity.vehicle {
                    report.vehicles.total += 1
                    if let trip = vehicle.trip,
                        let joined = try joinTrip(
                            trip, entity: entity, stamp: vehicle.timestamp ?? feed.messageTimestamp(of: entity.id), source: feed.source, &context)
                    {
                        report.vehicles.joined += 1
                        _ = place(vehicle, entity: entity, on: joined.run, prefix: prefix, reasons: &context.reasons)
                    } else if vehicle.trip == nil {
                        context.reasons.add(.unknownTrip, entity.id)
                    }
                }
                if let alert = entity.alert {
                    report.alerts.total += 1
                    var check = context
                    check.reasons = LiveReasons()
                    _ = try named(alert, prefix: prefix, entity: entity.id, source: feed.source, &check)
                    let unknown = check.reasons.counts[.unknownInformedEntity]?.count ?? 0
                    if unknown < max(1, alert.informed.count) { report.alerts.joined += 1 }
                    for _ in 0..<unknown { context.reasons.add(.unknownInformedEntity, entity.id) }
                }
            }
        }
        report.reasons = context.reasons
        return report
    }
}
