import FeedModel
import FeedXML

/// One `Service` while its elements stream by.
struct KalkatiService {
    let id: String?
    let line: Int
    var company: String?
    var number: String?
    var name: String?
    var footnote: String?
    var mode: String?
    private var previous: Int?
    private var dayOffset = 0

    init(id: String?, line: Int) {
        self.id = id
        self.line = line
    }

    mutating func add(_ node: XMLNode, state: inout KalkatiState) {
        switch node.name {
        case "ServiceNbr":
            if number == nil {
                company = node["CompanyId"]
                number = node["ServiceNbr"]
                name = node["Name"]
            } else {
                state.report(
                    .kalkatiPartialServiceIgnored, line: node.line, field: "ServiceNbr", value: node["ServiceNbr"],
                    "Only the first ServiceNbr of a service names its route.")
            }
        case "ServiceValidity":
            if footnote == nil {
                footnote = node["FootnoteId"]
            } else {
                state.report(
                    .kalkatiPartialServiceIgnored, line: node.line, field: "ServiceValidity", value: node["FootnoteId"],
                    "Only the first ServiceValidity of a service gives its days.")
            }
        case "ServiceTrnsmode":
            if mode == nil { mode = node["TrnsmodeId"] }
        default:  // Stop
            stop(node, state: &state)
        }
    }

    private mutating func stop(_ node: XMLNode, state: inout KalkatiState) {
        guard let trip = id, let station = node["StationId"], let sequence = node["Ix"].flatMap({ Int($0) }) else {
            state.report(
                .kalkatiInvalidStop, line: node.line, field: "Stop", value: node["StationId"],
                "The stop has no StationId or Ix.", repair: "stop time dropped")
            return
        }
        if node["Type"] == "P" { return }  // passes without stopping
        var arrival = node["Arrival"].flatMap(KalkatiValues.seconds)
        var departure = node["Departure"].flatMap(KalkatiValues.seconds)
        for (name, text, value) in [("Arrival", node["Arrival"], arrival), ("Departure", node["Departure"], departure)] where text != nil && value == nil {
            state.report(.invalidTime, line: node.line, field: "Stop/@\(name)", value: text, "The time is not HHMM.", repair: "time cleared")
        }
        arrival = arrival.map { $0 + dayOffset }
        departure = departure.map { $0 + dayOffset }
        // Times written modulo 24 hours: a time before the previous one is on the next day.
        if let previous, let first = arrival ?? departure, first < previous, first < 86_400 + dayOffset {
            dayOffset += 86_400
            arrival = arrival.map { $0 + 86_400 }
            departure = departure.map { $0 + 86_400 }
        }
        if let a = arrival, let d = departure, d < a, d + 86_400 - a < 43_200 {
            departure = d + 86_400  // departs after midnight, arrived before
            dayOffset += 86_400
        }
        previous = departure ?? arrival ?? previous
        state.stopTime(
            trip: trip, arrival: arrival ?? departure, departure: departure ?? arrival, station: station,
            sequence: sequence, line: node.line)
    }
}

/// Routes keyed by company and `ServiceNbr`, in order of first appearance.
struct KalkatiRoutes {
    struct Route {
        var company: String
        var number: String
        var name: String?
        var type: Int
        var line: Int
    }

    private(set) var all: [Route] = []
    private var index: [String: Int] = [:]

    mutating func index(company: String, number: String, name: String?, type: Int, line: Int) -> Int {
        let key = company + "\u{1F}" + number
        if let known = index[key] { return known }
        all.append(Route(company: company, number: number, name: name, type: type, line: line))
        index[key] = all.count - 1
        return all.count - 1
    }

    /// Route ids: the `ServiceNbr`, or `CompanyId:ServiceNbr` when several companies use it.
    func ids() -> [String] {
        var companiesPerNumber: [String: Set<String>] = [:]
        for route in all { companiesPerNumber[route.number, default: []].insert(route.company) }
        return all.map { companiesPerNumber[$0.number]!.count > 1 ? "\($0.company):\($0.number)" : $0.number }
    }
}
