import FeedClient
import Foundation

// What a rider app does, without a screen: on launch, bring the local timetable up to date
// (showing progress; the first attempt is cancelled halfway, as when the rider leaves the screen),
// then answer each screen's question from the local database.
// Usage: FeedApp MANIFEST-URL DATABASE-PATH
let arguments = CommandLine.arguments
guard arguments.count == 3, let manifest = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: FeedApp MANIFEST-URL DATABASE-PATH\n".utf8))
    exit(64)
}
let database = URL(fileURLWithPath: arguments[2])
let client = FeedClient(manifest: manifest, database: database)

/// Cancels the task it is given once a download is half done.
final class HalfwayCanceller: @unchecked Sendable {
    // @unchecked: `task` is set once before the update starts reporting, and only read after.
    var task: Task<UpdateResult, any Error>?
    func observe(_ event: UpdateProgress) {
        print("progress: \(event)")
        if let fraction = event.fraction, fraction >= 0.5, fraction < 1 { task?.cancel() }
    }
}

// 1. An update cancelled halfway: the database stays as it was; the bytes received are kept.
if client.localVersion == nil {
    let canceller = HalfwayCanceller()
    let task = Task { try await client.update { canceller.observe($0) } }
    canceller.task = task
    do {
        print("first update: \(try await task.value)")
    } catch {
        print("first update: \(error)")
    }
}

// 2. The update again, to the end: it resumes the download.
do {
    let result = try await client.update { print("progress: \($0)") }
    print("update: \(result)")
} catch {
    // What the rider sees; the saved timetable (if any) stays usable.
    print("update failed: \(error.errorDescription ?? "\(error)")")
    exit(1)
}

// 3. The screens.
do {
    let app = try FeedDatabase(path: database)
    print("version: \(try await app.version)")
    // A line, from the stops whose names hold "station" (or any stop), and where it starts.
    let found = try await app.searchStops("station")
    guard let first = found.first else { print("no stops"); exit(0) }
    let firstLine = try await app.lines(at: first.id).first?.id ?? ""
    guard let place = try await app.stops(of: firstLine, direction: 0).first?.coordinate else { print("no line"); exit(0) }
    let nearby = try await app.stops(near: place, radius: 300)
    print("nearby: \(nearby.map { "\($0.id) \($0.name ?? "")" }.joined(separator: ", "))")
    print("search \"station\": \(found.map(\.id).joined(separator: ", "))")
    guard let stop = nearby.first, let line = try await app.lines(at: stop.id).first else { exit(0) }
    print("lines at \(stop.id): \(try await app.lines(at: stop.id).map { $0.shortName ?? $0.id }.joined(separator: ", "))")
    let directions = try await app.directions(of: line.id)
    print("directions of \(line.id): \(directions.map(\.name).joined(separator: " | "))")
    print("stops of \(line.id) \(directions.first?.name ?? ""): \(try await app.stops(of: line.id, direction: directions.first?.index ?? 0).map(\.id).joined(separator: " "))")
    print("across the street from \(stop.id): \(try await app.oppositeStop(of: stop.id).map(\.stopID).joined(separator: ", "))")
} catch {
    print("query failed: \(error)")
    exit(1)
}
