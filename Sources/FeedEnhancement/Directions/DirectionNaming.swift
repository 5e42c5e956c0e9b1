/// The name, headsign summary and terminals of one direction, from its patterns.
///
/// A branch terminal is the last stop of a pattern that no other pattern of the direction runs
/// through: a short turn's last stop lies on the line, so it is not one. Terminals are listed by
/// the trips that end there, most first; the name is "to" the first of them.
struct DirectionNaming {
    var name: String
    var headsign: String
    var terminals: [String]

    init(members: [RoutePattern], names: StopNames, isLoop: Bool) {
        guard let main = members.first, let start = main.stops.first else {
            name = ""
            headsign = ""
            terminals = []
            return
        }
        if isLoop {
            let mostCommon = members.flatMap { $0.headsigns }.reduce(into: [String: Int]()) { $0[$1.key, default: 0] += $1.value }
                .max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
            name = DirectionWording.loop(from: names[start])
            headsign = mostCommon ?? name
            terminals = [start]
            return
        }
        var passedThrough: Set<String> = []
        for pattern in members { passedThrough.formUnion(pattern.places.dropLast()) }
        var endings: [String: (trips: Int, place: String)] = [:]
        for pattern in members {
            guard let last = pattern.stops.last, let place = pattern.places.last else { continue }
            endings[last, default: (0, place)].trips += pattern.weight
        }
        var candidates = endings.filter { !passedThrough.contains($0.value.place) }
        if candidates.isEmpty, let last = main.stops.last { candidates = [last: (main.weight, main.places.last!)] }
        terminals = candidates.sorted { ($0.value.trips, $1.key) > ($1.value.trips, $0.key) }.map(\.key)
        var seen: Set<String> = []
        let terminalNames = terminals.map { names[$0] }.filter { seen.insert($0).inserted }
        name = DirectionWording.name(toward: terminalNames)
        headsign = DirectionWording.headsign(toward: terminalNames)
    }
}
