import BundleFormat
import FeedEnhancement
import FeedModel

/// Turns stop_times into patterns and timings: a trip becomes one row naming its stop pattern
/// (the ordered stops with their GTFS `stop_sequence` numbers and pickup and drop-off rules) and its timing (offsets from its
/// start), each shared by every trip that runs alike. Also derives which lines serve each stop.
/// Trip counts (`patterns.trip_count`, `stop_routes.trip_count`) count runs: a frequency-based
/// trip once per run of its windows.
///
/// It needs nothing of the enhancement stages but the user-facing direction of each pattern's
/// first trip, which ``CompiledTimetable/writePatterns(directions:into:)`` adds last: the rest
/// can be compiled while the directions are still being worked out (``DraftedTimetable``).
struct TimetableCompiler {
    let feed: Feed
    /// The source's prefix, put before every id.
    let prefix: String
    let runs: TripRuns

    init(feed: Feed, prefix: String, runs: TripRuns) {
        self.feed = feed
        self.prefix = prefix
        self.runs = runs
    }

    init(source: SourceFeed, runs: TripRuns) {
        self.init(feed: source.feed, prefix: source.prefix, runs: runs)
    }

    private struct Pattern {
        var id: String
        var route: String
        var direction: Int
        var shape: String?
        var firstTripRows: [Int]
        /// The feed's id of its first trip, whose user-facing direction is the pattern's.
        var firstTrip: String
        var tripCount = 0
        var headsigns: [String: Int] = [:]
    }

    private func ns(_ id: String?) -> String? { id.map { prefix + $0 } }

    /// Writes the timetable's rows but `patterns`' (written by the returned value's
    /// ``CompiledTimetable/writePatterns(directions:into:)``); returns each trip's pattern and each
    /// pattern's headsign, which translations refer to.
    @discardableResult
    func compile(into content: inout BundleContent) -> CompiledTimetable {
        var compiled = CompiledTimetable()
        let stopTimes = feed.stopTimes
        let trips = feed.trips
        let groups = stopTimes.groups(by: .tripId, orderedBy: .stopSequence)
        var tripRow: [String: Int] = [:]
        for (row, id) in trips.texts(.tripId).enumerated() { if let id { tripRow[id] = row } }

        let stopIds = stopTimes.texts(.stopId)
        // Stops by their numbers, shared with the rules and the enhancement (``TextCodes``).
        let stopCodes = stopTimes.codes(.stopId).codes
        // Most feeds have no stop_headsign column: then no numbers (every value missing, -1).
        let headsignCodes = stopTimes.has(.stopHeadsign) ? stopTimes.codes(.stopHeadsign).codes : nil
        // Optional columns most feeds lack: read without arrays of missing values.
        let pickups = stopTimes.integerValues(.pickupType)
        let dropOffs = stopTimes.integerValues(.dropOffType)
        let stopHeadsigns = stopTimes.textValues(.stopHeadsign)
        let distances = stopTimes.realValues(.shapeDistTraveled)
        let timepoints = stopTimes.integerValues(.timepoint)
        let sequences = stopTimes.integers(.stopSequence)
        let arrivals = stopTimes.integers(.arrivalTime)
        let departures = stopTimes.integers(.departureTime)
        let routeIds = trips.texts(.routeId)
        let directions = trips.integers(.directionId)
        let shapeIds = trips.texts(.shapeId)
        let headsigns = trips.texts(.tripHeadsign)
        // Each field looked up once, not once per trip.
        let reader = Reader(table: trips, prefix: prefix)
        let tripIdField = reader.field(.tripId), routeIdField = reader.field(.routeId)
        let serviceIdField = reader.field(.serviceId), headsignField = reader.field(.tripHeadsign)
        let shortNameField = reader.field(.tripShortName), directionField = reader.field(.directionId)
        let blockField = reader.field(.blockId), wheelchairField = reader.field(.wheelchairAccessible)
        let bikesField = reader.field(.bikesAllowed)
        let null = Column.nullInteger

        // Patterns and timings are keyed by integer arrays (stop numbers, interned texts and the
        // values of each stop time): exact, and cheap to hash. The text a pattern id derives from is built once
        // per distinct pattern.
        var interned = Interner()
        // Each pattern is found by its key once per trip and changed where it lies: taking it
        // out of a dictionary and storing it back copied its headsign counts for every trip.
        var patternIndex: [[Int]: Int] = [:]
        var patterns: [Pattern] = []
        var patternIds: Set<String> = []
        var timings: [[Int]: String] = [:]
        var timingIds: Set<String> = []
        var timingRows: [(id: String, offsets: [Int])] = []
        var key: [Int] = []
        var timing: [Int] = []
        // A trip each: grown insert by insert, the dictionary was rehashed about 15 times on
        // Bydgoszcz's 25k trips.
        compiled.tripPatterns.reserveCapacity(groups.keys.count)

        for (g, rows) in groups.rows.enumerated() {
            guard let row = tripRow[groups.keys[g]], let route = routeIds[row] else { continue }
            key.removeAll(keepingCapacity: true)
            key.append(interned[route])
            key.append(shapeIds[row].map { interned[$0] } ?? -1)
            key.append(directions[row])
            for r in rows {
                key.append(Int(stopCodes[r]))
                key.append(sequences[r])
                key.append(pickups[r])
                key.append(dropOffs[r])
                key.append(timepoints[r])
                key.append(Int(truncatingIfNeeded: distances[r].bitPattern))
                key.append(headsignCodes.map { Int($0[r]) } ?? -1)
            }
            let number: Int
            if let known = patternIndex[key] {
                number = known
            } else {
                let description = describe(
                    route: route, direction: directions[row], shape: shapeIds[row], rows: rows,
                    stopIds, sequences, pickups, dropOffs, stopHeadsigns, distances, timepoints)
                var id = prefix + StableID.make(from: description)
                // Two different patterns with one 48-bit id are astronomically rare; should it
                // happen, the later one (in trip order) takes a suffix rather than failing.
                var n = 1
                while !patternIds.insert(id).inserted {
                    n += 1
                    id = prefix + StableID.make(from: description) + "~\(n)"
                }
                number = patterns.count
                patternIndex[key] = number
                patterns.append(
                    Pattern(
                        id: id, route: route, direction: directions[row], shape: shapeIds[row], firstTripRows: rows,
                        firstTrip: groups.keys[g]))
            }
            patterns[number].tripCount += runs.count(groups.keys[g])
            let patternId = patterns[number].id
            compiled.tripPatterns[groups.keys[g]] = patternId
            if let headsign = headsigns[row] { patterns[number].headsigns[headsign, default: 0] += 1 }

            let start = departures[rows[0]]
            timing.removeAll(keepingCapacity: true)
            for r in rows {
                timing.append(arrivals[r] == null ? null : arrivals[r] - start)
                timing.append(departures[r] == null ? null : departures[r] - start)
            }
            let timingId: String
            if let existing = timings[timing] {
                timingId = existing
            } else {
                let text = timing.map { $0 == null ? "-" : String($0) }.joined(separator: ",")
                var id = prefix + StableID.make(from: text)
                var n = 1
                while !timingIds.insert(id).inserted {
                    n += 1
                    id = prefix + StableID.make(from: text) + "~\(n)"
                }
                timingId = id
                timings[timing] = timingId
                timingRows.append((timingId, timing))
            }
            content.append(
                TripRow(
                    tripId: tripIdField.id(row), routeId: routeIdField.id(row), serviceId: serviceIdField.id(row),
                    patternId: patternId, timingId: timingId, startTime: start,
                    headsign: headsignField.text(row), shortName: shortNameField.text(row), directionId: directionField.int(row),
                    blockId: blockField.id(row), wheelchairAccessible: wheelchairField.int(row), bikesAllowed: bikesField.int(row)))
        }

        var stopRoutes: [String: Int] = [:]
        for pattern in patterns {
            let headsign = pattern.headsigns.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
            compiled.patternHeadsigns[pattern.id] = headsign
            // The direction index is the first trip's, once it is known.
            compiled.patterns.append(
                (
                    firstTrip: pattern.firstTrip,
                    row: PatternRow(
                        patternId: pattern.id, routeId: prefix + pattern.route, directionId: pattern.direction.nilIfMissing,
                        directionIndex: 0, shapeId: ns(pattern.shape), headsign: headsign, stopCount: pattern.firstTripRows.count,
                        tripCount: pattern.tripCount)
                ))
            var seen: Set<String> = []
            for (index, r) in pattern.firstTripRows.enumerated() {
                content.append(
                    PatternStopRow(
                        patternId: pattern.id, stopIndex: index, stopSequence: sequences[r] == null ? index : sequences[r], stopId: ns(stopIds[r]),
                        pickupType: pickups[r].nilIfMissing,
                        dropOffType: dropOffs[r].nilIfMissing, headsign: stopHeadsigns[r], shapeDistTraveled: distances[r].nilIfMissing,
                        timepoint: timepoints[r].nilIfMissing))
                if let stop = stopIds[r], seen.insert(stop).inserted {
                    stopRoutes[stop + "\u{1F}" + pattern.route, default: 0] += pattern.tripCount
                }
            }
        }
        for (key, count) in stopRoutes {
            let parts = key.split(separator: "\u{1F}", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            content.append(StopRouteRow(stopId: prefix + parts[0], routeId: prefix + parts[1], tripCount: count))
        }
        for timing in timingRows {
            for index in 0..<timing.offsets.count / 2 {
                content.append(
                    TimingStopRow(
                        timingId: timing.id, stopIndex: index, arrivalOffset: timing.offsets[2 * index].nilIfMissing,
                        departureOffset: timing.offsets[2 * index + 1].nilIfMissing))
            }
        }
        return compiled
    }

    /// The text a pattern's id is derived from: everything that makes two patterns differ.
    private func describe(
        route: String, direction: Int, shape: String?, rows: [Int], _ stopIds: [String?], _ sequences: [Int],
        _ pickups: ColumnValues<Int>, _ dropOffs: ColumnValues<Int>, _ stopHeadsigns: ColumnValues<String?>,
        _ distances: ColumnValues<Double>, _ timepoints: ColumnValues<Int>
    ) -> String {
        var text = "\(prefix)\(route)\u{1E}\(direction)\u{1E}\(shape ?? "")"
        for r in rows {
            text +=
                "\u{1E}\(stopIds[r] ?? "")\u{1F}\(sequences[r])\u{1F}\(pickups[r])\u{1F}\(dropOffs[r])\u{1F}\(stopHeadsigns[r] ?? "")\u{1F}\(distances[r])\u{1F}\(timepoints[r])"
        }
        return text
    }
}

/// What later compilers need of the timetable: the pattern of each trip (by the feed's trip id)
/// and the headsign of each pattern (by bundle pattern id); and the `patterns` rows, which wait
/// for the directions stage.
struct CompiledTimetable: Sendable {
    var tripPatterns: [String: String] = [:]
    var patternHeadsigns: [String: String?] = [:]
    /// Each pattern's row with its direction index left 0, and its first trip's feed id.
    var patterns: [(firstTrip: String, row: PatternRow)] = []

    /// Writes the `patterns` rows, each with the user-facing direction of its first trip.
    func writePatterns(directions: FeedDirections, into content: inout BundleContent) {
        for var pattern in patterns {
            pattern.row.directionIndex = directions.tripDirection[pattern.firstTrip] ?? 0
            content.append(pattern.row)
        }
    }
}
