import BundleFormat
import FeedSQLite

// The rows of one network of the bundle's sources (``TransfersCompiler``, ``NetworkCompiler``):
// transfers, shared places, walks and real-time trip ids; one struct a table, its fields its
// columns in order (``BundleRow``).

/// A `transfers` row (``BundleSchema/transfers``): a row of transfers.txt, '' for an id the feed
/// leaves out.
struct TransferRow: BundleRow {
    static let table = BundleSchema.transfers
    let fromStopId: String
    let toStopId: String
    let fromRouteId: String
    let toRouteId: String
    let fromTripId: String
    let toTripId: String
    let transferType: Int
    let minTransferTime: Int?

    @inline(__always) consuming func values() -> [SQLValue] {
        [
            fromStopId.sqlValue, toStopId.sqlValue, fromRouteId.sqlValue, toRouteId.sqlValue, fromTripId.sqlValue,
            toTripId.sqlValue, transferType.sqlValue, minTransferTime.sqlValue,
        ]
    }
    static func read(_ c: inout RowCursor) -> Self {
        Self(
            fromStopId: c.next(), toStopId: c.next(), fromRouteId: c.next(), toRouteId: c.next(), fromTripId: c.next(),
            toTripId: c.next(), transferType: c.next(), minTransferTime: c.next())
    }
}

/// A `same_places` row (``BundleSchema/samePlaces``): two stops that are one place for a rider.
struct SamePlaceRow: BundleRow {
    static let table = BundleSchema.samePlaces
    let stopId: String
    let otherStopId: String
    let distanceM: Double
    let confidence: Double
    let evidence: String

    @inline(__always) consuming func values() -> [SQLValue] {
        [stopId.sqlValue, otherStopId.sqlValue, distanceM.sqlValue, confidence.sqlValue, evidence.sqlValue]
    }
    static func read(_ c: inout RowCursor) -> Self {
        Self(stopId: c.next(), otherStopId: c.next(), distanceM: c.next(), confidence: c.next(), evidence: c.next())
    }
}

/// A `stop_transfers` row (``BundleSchema/stopTransfers``): a transfer a rider makes on foot.
struct StopTransferRow: BundleRow {
    static let table = BundleSchema.stopTransfers
    let fromStopId: String
    let toStopId: String
    /// A ``StopTransfer/Kind`` raw value: `feed`, `pathway`, `station` or `walk`.
    let kind: String
    let seconds: Int
    let distanceM: Double?

    @inline(__always) consuming func values() -> [SQLValue] { [fromStopId.sqlValue, toStopId.sqlValue, kind.sqlValue, seconds.sqlValue, distanceM.sqlValue] }
    static func read(_ c: inout RowCursor) -> Self {
        Self(fromStopId: c.next(), toStopId: c.next(), kind: c.next(), seconds: c.next(), distanceM: c.next())
    }
}

/// A `realtime_trips` row (``BundleSchema/realtimeTrips``): a trip a real-time id may name.
struct RealtimeTripRow: BundleRow {
    static let table = BundleSchema.realtimeTrips
    let sourceId: String
    let realtimeTripId: String
    let tripId: String

    @inline(__always) consuming func values() -> [SQLValue] { [sourceId.sqlValue, realtimeTripId.sqlValue, tripId.sqlValue] }
    static func read(_ c: inout RowCursor) -> Self { Self(sourceId: c.next(), realtimeTripId: c.next(), tripId: c.next()) }
}
