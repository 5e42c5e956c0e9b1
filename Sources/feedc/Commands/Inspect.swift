import ArgumentParser
import BundleFormat
import FeedModel
import Foundation

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a bundle's version, content digest and row counts.",
        discussion: "Reads .sqlite and .sqlite.gz files; the digest is recomputed from the rows.")

    @Argument(help: "A bundle file (.sqlite.gz or .sqlite).")
    var bundle: String

    @Flag(help: "Print as JSON.")
    var json = false

    @Flag(help: "Print each route's directions: name, headsign, terminals, ordered stops and trips.")
    var routes = false

    @Flag(help: "Print every opposite-stop link: stop, opposite stop, lines, distance in metres, confidence.")
    var opposites = false

    func run() throws {
        guard FileManager.default.fileExists(atPath: bundle) else {
            Terminal.fail("\(bundle): no such file", code: .fileNotFound, file: bundle)
        }
        if opposites {
            try printOpposites()
            return
        }
        if routes {
            try printRoutes()
            return
        }
        let inspection = read(BundleInspection.init(file:))
        if json {
            Terminal.printJSON(inspection)
            return
        }
        print(
            "bundle   \(inspection.bundle ?? "?") version \(inspection.version.map(String.init) ?? "?") (format \(inspection.format.map(String.init) ?? "?"))")
        print("digest   \(inspection.digest)")
        if let start = inspection.serviceStart, let end = inspection.serviceEnd { print("service  \(start) … \(end)") }
        print("rows")
        for (table, count) in inspection.rows.sorted(by: { $0.key < $1.key }) {
            print("  \(table.padding(toLength: 16, withPad: " ", startingAt: 0)) \(count)")
        }
    }

    /// The bundle read by `make`; a file it cannot read ends the command with its error.
    private func read<T>(_ make: (URL) throws -> T) -> T {
        do {
            return try make(URL(fileURLWithPath: bundle))
        } catch {
            Terminal.fail(error, file: bundle)
        }
    }

    private func printRoutes() throws {
        let inspection = read(RouteInspection.init(file:))
        if json {
            Terminal.printJSON(inspection.routes)
            return
        }
        for (route, directions) in inspection.routes.sorted(by: { $0.key < $1.key }) {
            print("route \(route)")
            for d in directions {
                print("  [\(d.index)] \(d.name) — \(d.headsign)\(d.isLoop ? " (loop)" : "") [\(d.source)]: \(d.stopIds.count) stops, \(d.tripIds.count) trips")
                print("      stops: \(d.stopIds.joined(separator: " "))")
                print("      trips: \(d.tripIds.prefix(20).joined(separator: " "))\(d.tripIds.count > 20 ? " … and \(d.tripIds.count - 20) more" : "")")
            }
        }
    }

    private func printOpposites() throws {
        let inspection = read(OppositeInspection.init(file:))
        if json {
            Terminal.printJSON(inspection.links)
            return
        }
        for link in inspection.links {
            print(
                "\(link.stopId) ↔ \(link.oppositeStopId)  \(Int(link.distanceM.rounded())) m  confidence \(link.confidence)\(link.mutual ? "" : " (not mutual)")  lines \(link.routeIds.joined(separator: ","))"
            )
        }
    }
}
