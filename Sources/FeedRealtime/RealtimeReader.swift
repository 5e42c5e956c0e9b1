import Foundation
import SwiftProtobuf

/// The bounds a message is read within (docs/live.md, section 1).
public struct RealtimeLimits: Sendable, Hashable {
    /// The largest message read, bytes; checked before decoding.
    public var maxBytes: Int = 16 << 20
    /// The most entities a message may hold.
    public var maxEntities: Int = 100_000
    /// The most stop time updates, over all of a message's trip updates.
    public var maxStopTimeUpdates: Int = 1_000_000
    /// The deepest nesting of messages (the schema's deepest path is 7).
    public var maxDepth: Int = 32

    public static let `default` = RealtimeLimits()

    public init(maxBytes: Int = 16 << 20, maxEntities: Int = 100_000, maxStopTimeUpdates: Int = 1_000_000, maxDepth: Int = 32) {
        self.maxBytes = maxBytes
        self.maxEntities = maxEntities
        self.maxStopTimeUpdates = maxStopTimeUpdates
        self.maxDepth = maxDepth
    }
}

/// Why a message cannot be read: a typed code (docs/live.md, section 1) and a sentence.
public struct LiveError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        case tooLarge = "too_large"
        case malformed
        case tooDeep = "too_deep"
        case tooManyEntities = "too_many_entities"
        case tooManyUpdates = "too_many_updates"
        case unsupportedVersion = "unsupported_version"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

/// Reads a GTFS-Realtime `FeedMessage` with swift-protobuf (the generated code of
/// scripts/proto/gtfs-realtime.proto, committed), within ``RealtimeLimits``. Unknown fields
/// (extensions such as NYCT's) are discarded while decoding; an enum value the schema does not
/// know reads as the field's default (proto2).
public enum RealtimeReader {
    public static func read(_ data: Data, limits: RealtimeLimits = .default) throws(LiveError) -> RealtimeMessage {
        guard data.count <= limits.maxBytes else {
            throw LiveError(.tooLarge, "the message is \(data.count) bytes; at most \(limits.maxBytes) are read")
        }
        var options = BinaryDecodingOptions()
        options.messageDepthLimit = limits.maxDepth
        options.discardUnknownFields = true
        let feed: TransitRealtime_FeedMessage
        do {
            feed = try TransitRealtime_FeedMessage(serializedBytes: data, options: options)
        } catch BinaryDecodingError.messageDepthLimit {
            throw LiveError(.tooDeep, "messages nest deeper than \(limits.maxDepth)")
        } catch BinaryDecodingError.missingRequiredFields {
            throw LiveError(.malformed, "not a GTFS-Realtime FeedMessage: a required field (the header, its version, an entity id) is missing")
        } catch BinaryDecodingError.truncated {
            throw LiveError(.malformed, "not a GTFS-Realtime FeedMessage: the bytes end inside a field (truncated)")
        } catch BinaryDecodingError.invalidUTF8 {
            throw LiveError(.malformed, "not a GTFS-Realtime FeedMessage: a string is not UTF-8")
        } catch {
            throw LiveError(.malformed, "not a GTFS-Realtime FeedMessage (\(error))")
        }
        let version = feed.header.gtfsRealtimeVersion
        guard let major = version.split(separator: ".").first.flatMap({ Int($0) }), major == 1 || major == 2 else {
            throw LiveError(.unsupportedVersion, "gtfs_realtime_version `\(version.prefix(40))`; versions 1.x and 2.x are read")
        }
        guard feed.entity.count <= limits.maxEntities else {
            throw LiveError(.tooManyEntities, "\(feed.entity.count) entities; at most \(limits.maxEntities) are read")
        }
        let updates = feed.entity.reduce(0) { $0 + $1.tripUpdate.stopTimeUpdate.count }
        guard updates <= limits.maxStopTimeUpdates else {
            throw LiveError(.tooManyUpdates, "\(updates) stop time updates; at most \(limits.maxStopTimeUpdates) are read")
        }
        return RealtimeMessage(
            version: version, isDifferential: feed.header.incrementality == .differential,
            timestamp: feed.header.hasTimestamp ? seconds(feed.header.timestamp) : nil,
            entities: feed.entity.map(entity))
    }

    private static func seconds(_ value: UInt64) -> Int64? { value <= UInt64(Int64.max) ? Int64(value) : nil }

    private static func entity(_ e: TransitRealtime_FeedEntity) -> RealtimeEntity {
        RealtimeEntity(
            id: e.id, isDeleted: e.isDeleted,
            tripUpdate: e.hasTripUpdate ? tripUpdate(e.tripUpdate) : nil,
            vehicle: e.hasVehicle ? vehicle(e.vehicle) : nil,
            alert: e.hasAlert ? alert(e.alert) : nil)
    }

    private static func trip(_ t: TransitRealtime_TripDescriptor) -> RealtimeTrip {
        let relationship: TripRelationship =
            switch t.scheduleRelationship {
            case .scheduled: .scheduled
            case .added: .added
            case .unscheduled: .unscheduled
            case .canceled: .canceled
            case .replacement: .replacement
            case .duplicated: .duplicated
            case .deleted: .deleted
            case .new: .new
            }
        return RealtimeTrip(
            tripID: t.hasTripID ? t.tripID : nil, routeID: t.hasRouteID ? t.routeID : nil,
            directionID: t.hasDirectionID ? Int(t.directionID) : nil, startTime: t.hasStartTime ? t.startTime : nil,
            startDate: t.hasStartDate ? t.startDate : nil, relationship: relationship)
    }

    private static func tripUpdate(_ u: TransitRealtime_TripUpdate) -> RealtimeTripUpdate {
        RealtimeTripUpdate(
            trip: trip(u.trip), vehicleID: u.hasVehicle && u.vehicle.hasID ? u.vehicle.id : nil,
            timestamp: u.hasTimestamp ? seconds(u.timestamp) : nil, delay: u.hasDelay ? Int(u.delay) : nil,
            updates: u.stopTimeUpdate.map(stopTimeUpdate),
            duplicateTripID: u.hasTripProperties && u.tripProperties.hasTripID ? u.tripProperties.tripID : nil,
            duplicateStartDate: u.hasTripProperties && u.tripProperties.hasStartDate ? u.tripProperties.startDate : nil,
            duplicateStartTime: u.hasTripProperties && u.tripProperties.hasStartTime ? u.tripProperties.startTime : nil)
    }

    private static func event(_ e: TransitRealtime_TripUpdate.StopTimeEvent) -> RealtimeEvent {
        RealtimeEvent(time: e.hasTime ? e.time : nil, delay: e.hasDelay ? Int(e.delay) : nil)
    }

    private static func stopTimeUpdate(_ s: TransitRealtime_TripUpdate.StopTimeUpdate) -> RealtimeStopTimeUpdate {
        let relationship: StopRelationship =
            switch s.scheduleRelationship {
            case .scheduled: .scheduled
            case .skipped: .skipped
            case .noData: .noData
            case .unscheduled: .unscheduled
            }
        return RealtimeStopTimeUpdate(
            stopSequence: s.hasStopSequence ? Int(s.stopSequence) : nil, stopID: s.hasStopID ? s.stopID : nil,
            arrival: s.hasArrival ? event(s.arrival) : nil, departure: s.hasDeparture ? event(s.departure) : nil,
            relationship: relationship)
    }

    private static func vehicle(_ v: TransitRealtime_VehiclePosition) -> RealtimeVehicle {
        let status: VehicleStatus =
            switch v.currentStatus {
            case .incomingAt: .incomingAt
            case .stoppedAt: .stoppedAt
            case .inTransitTo: .inTransitTo
            }
        let position = v.hasPosition && v.position.latitude.isFinite && v.position.longitude.isFinite ? v.position : nil
        return RealtimeVehicle(
            trip: v.hasTrip ? trip(v.trip) : nil, vehicleID: v.hasVehicle && v.vehicle.hasID ? v.vehicle.id : nil,
            label: v.hasVehicle && v.vehicle.hasLabel ? v.vehicle.label : nil,
            latitude: position.map { Double($0.latitude) }, longitude: position.map { Double($0.longitude) },
            currentStopSequence: v.hasCurrentStopSequence ? Int(v.currentStopSequence) : nil, stopID: v.hasStopID ? v.stopID : nil,
            status: status, timestamp: v.hasTimestamp ? seconds(v.timestamp) : nil)
    }

    private static func texts(_ t: TransitRealtime_TranslatedString) -> [TranslatedText] {
        t.translation.map { TranslatedText($0.text, language: $0.hasLanguage ? $0.language : nil) }
    }

    private static func alert(_ a: TransitRealtime_Alert) -> RealtimeAlert {
        RealtimeAlert(
            activePeriods: a.activePeriod.map { .init(start: $0.hasStart ? seconds($0.start) : nil, end: $0.hasEnd ? seconds($0.end) : nil) },
            informed: a.informedEntity.map { e in
                InformedEntity(
                    agencyID: e.hasAgencyID ? e.agencyID : nil, routeID: e.hasRouteID ? e.routeID : nil,
                    routeType: e.hasRouteType ? Int(e.routeType) : nil, directionID: e.hasDirectionID ? Int(e.directionID) : nil,
                    trip: e.hasTrip ? trip(e.trip) : nil, stopID: e.hasStopID ? e.stopID : nil)
            },
            cause: causeNames[a.cause.rawValue] ?? "UNKNOWN_CAUSE", effect: effectNames[a.effect.rawValue] ?? "UNKNOWN_EFFECT",
            header: texts(a.headerText), description: texts(a.descriptionText), url: texts(a.url))
    }

    static let causeNames: [Int: String] = [
        1: "UNKNOWN_CAUSE", 2: "OTHER_CAUSE", 3: "TECHNICAL_PROBLEM", 4: "STRIKE", 5: "DEMONSTRATION", 6: "ACCIDENT", 7: "HOLIDAY",
        8: "WEATHER", 9: "MAINTENANCE", 10: "CONSTRUCTION", 11: "POLICE_ACTIVITY", 12: "MEDICAL_EMERGENCY", 13: "SPECIAL_EVENT",
    ]
    static let effectNames: [Int: String] = [
        1: "NO_SERVICE", 2: "REDUCED_SERVICE", 3: "SIGNIFICANT_DELAYS", 4: "DETOUR", 5: "ADDITIONAL_SERVICE", 6: "MODIFIED_SERVICE",
        7: "OTHER_EFFECT", 8: "UNKNOWN_EFFECT", 9: "STOP_MOVED", 10: "NO_EFFECT", 11: "ACCESSIBILITY_ISSUE",
    ]
}
