import BundleFormat
import FeedEnhancement
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

/// The `same_places` rows of the network stage's links, made as they are written: each the
/// ``SamePlaceRow`` of one ``PlaceLink``, its values in the same order.
struct SamePlaceRows: GeneratedRows {
    let links: PlaceLinks

    var count: Int { links.count }

    func value(_ row: Int, _ column: Int) -> SQLValue {
        switch column {
        case 0: links.stop(at: row).sqlValue
        case 1: links.other(at: row).sqlValue
        default: Self.row(links[row]).values()[column]
        }
    }

    func read(_ row: Int, into buffer: inout [SQLValue]) {
        for (column, value) in Self.row(links[row]).values().enumerated() { buffer[column] = value }
    }

    static func row(_ link: PlaceLink) -> SamePlaceRow {
        SamePlaceRow(stopId: link.stop, otherStopId: link.other, distanceM: link.distance, confidence: link.confidence, evidence: link.evidence)
    }
}

/// The `stop_transfers` rows of the network stage's walks, made as they are written: each the
/// ``StopTransferRow`` of one ``StopTransfer``, its values in the same order.
struct StopTransferRows: GeneratedRows {
    let walks: StopTransfers

    var count: Int { walks.count }

    func value(_ row: Int, _ column: Int) -> SQLValue {
        switch column {
        case 0: walks.from(at: row).sqlValue
        case 1: walks.to(at: row).sqlValue
        default: Self.row(walks[row]).values()[column]
        }
    }

    func read(_ row: Int, into buffer: inout [SQLValue]) {
        for (column, value) in Self.row(walks[row]).values().enumerated() { buffer[column] = value }
    }

    static func row(_ walk: StopTransfer) -> StopTransferRow {
        StopTransferRow(fromStopId: walk.from, toStopId: walk.to, kind: walk.kind.rawValue, seconds: walk.seconds, distanceM: walk.distance)
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
