import Foundation
import TestSupport

/// Departures at a stop computed from a dump's CSV text by the GTFS reference's rules, apart from
/// feedc's parser, validator and compiler: a scheduled trip leaves at its stop times; a trip in
/// frequencies.txt runs from each window's `start_time`, every `headway_secs`, while before
/// `end_time`, each run keeping the template's offsets from its first stop (exact when the window
/// says `exact_times=1`).
struct RawDepartures {
    struct Departure: Hashable, CustomStringConvertible {
        var trip: String
        var route: String
        var serviceDate: Int
        /// Seconds since the start of the service day.
        var seconds: Int
        var exact: Bool
        /// Seconds from the moment asked.
        var wait: Int

        var description: String { "\(serviceDate) \(seconds) \(trip)\(exact ? "" : " ~")" }
    }

    /// A trip's call at a stop: seconds after the trip's first departure, and whether it boards.
    private struct Call {
        var trip: String
        var offset: Int
        var time: Int
        var boards: Bool
    }

    let raw: RawGTFS
    private var calls: [String: [Call]] = [:]
    private var route: [String: String] = [:]
    private var service: [String: String] = [:]

    init(_ raw: RawGTFS) {
        self.raw = raw
        for trip in raw.rows("trips.txt") {
            guard let id = trip["trip_id"] else { continue }
            route[id] = trip["route_id"]
            service[id] = trip["service_id"]
        }
        var byTrip: [String: [[String: String]]] = [:]
        for row in raw.rows("stop_times.txt") { byTrip[row["trip_id"] ?? "", default: []].append(row) }
        for (trip, rows) in byTrip where rows.count >= 2 {
            let ordered = rows.sorted { Int($0["stop_sequence"] ?? "") ?? 0 < Int($1["stop_sequence"] ?? "") ?? 0 }
            func time(_ row: [String: String]) -> Int? {
                let text = (row["departure_time"] ?? "").isEmpty ? row["arrival_time"] : row["departure_time"]
                return (text ?? "").isEmpty ? nil : RawCSV.seconds(text)
            }
            guard let first = time(ordered[0]) else { continue }
            for (index, row) in ordered.enumerated() {
                guard let stop = row["stop_id"], let t = time(row) else { continue }
                // Where it picks up, and never at its last call, where it ends.
                let boards = row["pickup_type"] != "1" && index < ordered.count - 1
                calls[stop, default: []].append(Call(trip: trip, offset: t - first, time: t, boards: boards))
            }
        }
    }

    /// Departures of service day `date` at `stop`, at or after `after` seconds.
    func departures(at stop: String, serviceDate date: Int, after: Int) -> [Departure] {
        var out: [Departure] = []
        var running: [String: Bool] = [:]
        for call in calls[stop] ?? [] where call.boards {
            guard let service = service[call.trip], let route = route[call.trip] else { continue }
            if running[service] == nil { running[service] = raw.runs(service, on: date) }
            guard running[service]! else { continue }
            let windows = raw.windows(of: call.trip)
            if windows.isEmpty {
                if call.time >= after {
                    out.append(Departure(trip: call.trip, route: route, serviceDate: date, seconds: call.time, exact: true, wait: call.time - after))
                }
                continue
            }
            for window in windows {
                let start = RawCSV.seconds(window["start_time"]), end = RawCSV.seconds(window["end_time"])
                guard let headway = Int(window["headway_secs"] ?? ""), headway > 0 else { continue }
                var run = start
                while run < end {
                    let t = run + call.offset
                    if t >= after {
                        out.append(
                            Departure(trip: call.trip, route: route, serviceDate: date, seconds: t, exact: window["exact_times"] == "1", wait: t - after))
                    }
                    run += headway
                }
            }
        }
        return out
    }

    /// Runs per route of the trips calling at `stop`, over all services (a trip once however
    /// many times it calls there).
    func runsCalling(at stop: String) -> [String: Int] {
        var out: [String: Int] = [:]
        for trip in Set((calls[stop] ?? []).map(\.trip)) {
            guard let route = route[trip] else { continue }
            out[route, default: 0] += raw.runs(of: trip)
        }
        return out
    }

    /// The stop with the most departures on service day `date` (ties: the smallest id).
    func busiestStop(on date: Int) -> String? {
        calls.keys.map { ($0, departures(at: $0, serviceDate: date, after: Int.min / 2).count) }
            .max { ($0.1, $1.0) < ($1.1, $0.0) }?.0
    }
}
