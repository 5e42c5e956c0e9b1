import FeedModel

/// Turns ``StopToShapeMatcher``'s problems into notices for ``ShapeToStopMatchingRule``, as
/// MobilityData's `ShapeToStopMatchingValidator.reportProblems` does: a stop too far from a shape
/// is reported once per shape (`reported` holds the stop ids already reported).
struct ShapeMatchReporter {
    /// The trip being matched, and the stop_times rows of its matched stops.
    struct Trip {
        var id: String
        var shape: String
        var rows: [Int]
    }

    let sink: NoticeSink
    let stopTimes: Table
    let stopOfRow: [String?]
    let names: [String: String]

    func report(_ problems: [StopToShapeMatcher.Problem], _ trip: Trip, byDistance: Bool, reported: inout Set<String>) {
        for problem in problems {
            switch problem {
            case .tooFar(let stop, let match):
                let row = trip.rows[stop], id = stopOfRow[row] ?? ""
                guard reported.insert(id).inserted else { continue }
                let kind: NoticeKind = byDistance ? .stopTooFarFromShapeUsingUserDistance : .stopTooFarFromShape
                let how = byDistance ? "where the trip's shape_dist_traveled places it on" : "the nearest point of"
                add(
                    kind, row,
                    "Trip \(trip.id): stop \(describe(id)) is \(metres(match.distanceToShape)) m from \(how) shape \(trip.shape) \(Self.position(match)).")
            case .tooManyMatches(let stop, let match, let count):
                let row = trip.rows[stop], id = stopOfRow[row] ?? ""
                add(
                    .stopHasTooManyMatchesForShape, row,
                    "Trip \(trip.id): shape \(trip.shape) passes near stop \(describe(id)) \(count) times (the nearest \(metres(match.distanceToShape)) m away \(Self.position(match)))."
                )
            case .outOfOrder(let stop, let match, let previous):
                let row = trip.rows[stop], id = stopOfRow[row] ?? ""
                let before = stopOfRow[trip.rows[stop - 1]] ?? ""
                add(
                    .stopsMatchShapeOutOfOrder, row,
                    "Trip \(trip.id): stop \(describe(id)) matches shape \(trip.shape) \(Self.position(match)) before the previous stop \(describe(before)) \(Self.position(previous))."
                )
            }
        }
    }

    private func add(_ kind: NoticeKind, _ row: Int, _ message: @autoclosure () -> String) {
        sink.add(kind) {
            Notice(
                kind, file: "stop_times.txt", line: Int(stopTimes.lines[row]),
                field: "stop_id", value: stopOfRow[row], message: message())
        }
    }

    private func describe(_ stop: String) -> String {
        guard let name = names[stop], !name.isEmpty else { return stop }
        return "\(stop) (\(name))"
    }

    private func metres(_ value: Double) -> Int { Int(value.rounded()) }

    /// "at (lat, lon)" of a match, to six decimals.
    static func position(_ match: ShapeMatch) -> String {
        func degrees(_ value: Double) -> String { String((value * 1e6).rounded() / 1e6) }
        return "at (\(degrees(match.location.latitude)), \(degrees(match.location.longitude)))"
    }
}
