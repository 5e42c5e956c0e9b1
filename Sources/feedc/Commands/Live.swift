import ArgumentParser
import BundleFormat
import FeedClient
import FeedModel
import FeedPipeline
import FeedRealtime
import Foundation

struct Live: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Join GTFS-Realtime messages to a bundle, as an app's live layer does.",
        discussion: """
            Reads GTFS-Realtime messages (TripUpdates, VehiclePositions, Alerts; --feed, in order, \
            full or differential) of one source of the bundle and answers one screen with the \
            client library's live layer (docs/live.md): a stop's live departures, the vehicles on \
            their lines, the alerts that apply, or the join report. Ids are the bundle's; --at is \
            local to the bundle's first agency (default: now).

            Exit status: 0 answered; 1 a message cannot be read (its code: too_large, malformed, \
            too_deep, too_many_entities, too_many_updates, unsupported_version); 2 a usage error \
            or a bad bundle.
            """)

    @Argument(help: "A bundle file (.sqlite, .sqlite.gz or packed).")
    var bundle: String

    @Option(help: "A GTFS-Realtime message (protobuf); repeat for several, applied in order.")
    var feed: [String] = []

    @Option(help: "The bundle's source (feeds.source_id) the messages belong to.")
    var source: String

    @Option(help: "The moment asked, local to the agency: YYYY-MM-DDTHH:MM:SS (default: now).")
    var at: String?

    @Option(help: "Seconds after which a message is stale.")
    var maxAge: Double = 90

    @Option(help: "A stop's live departures (a bundle stop id).")
    var stop: String?

    @Option(help: "A place's live departures: every stop of its station and of the stations it is the same place as.")
    var place: String?

    @Option(help: "Departures to list with --stop or --place.")
    var limit = 10

    @Flag(help: "The vehicles placed on their lines (with --route and --direction to filter).")
    var vehicles = false

    @Option(help: "Only this route's vehicles or alerts (a bundle route id).")
    var route: String?

    @Option(help: "Only this direction's vehicles (the bundle's direction_index, 0 or 1).")
    var direction: Int?

    @Flag(help: "The alerts (with --stop or --route: those that apply to it).")
    var alerts = false

    @Option(help: "The rider's language for alert texts (BCP 47, e.g. es).")
    var lang: String?

    @Flag(help: "What joined and what did not, with reasons and examples.")
    var report = false

    @Option(name: .customLong("repeat"), help: "Answer this many times from the bytes read, and print the median time on standard error (a benchmark).")
    var repeatRuns = 0

    @Flag(help: "Print the answer as JSON (docs/live.md, section 6).")
    var json = false

    func validate() throws {
        let screens = [stop != nil && !alerts, place != nil, vehicles, alerts, report].filter { $0 }.count
        guard screens == 1 else { throw ValidationError("give one of --stop, --place, --vehicles, --alerts or --report") }
        guard !feed.isEmpty else { throw ValidationError("give at least one --feed") }
        guard (1...1000).contains(limit) else { throw ValidationError("--limit is 1 to 1000") }
        guard (0...10_000).contains(repeatRuns) else { throw ValidationError("--repeat is 0 to 10000") }
    }

    func run() throws {
        // The messages first, each read and checked once, before a temporary copy of the
        // bundle is made (a failure exits without running `defer`).
        var bytes: [(file: String, data: Data)] = []
        for file in feed {
            guard let data = Self.read(file) else { Terminal.fail(ErrorReport(.fileNotFound, message: "\(file): cannot be read", file: file), status: 1) }
            do throws(LiveError) {
                _ = try RealtimeReader.read(data)
            } catch {
                Terminal.fail(ErrorReport(.toolError, message: "\(file): \(error.description)", file: file), status: 1)
            }
            bytes.append((file, data))
        }
        let opened: (URL, () -> Void)
        do {
            opened = try BundleFile.materialize(URL(fileURLWithPath: bundle))
        } catch {
            Terminal.fail(error, file: bundle)
        }
        defer { opened.1() }
        let database: FeedDatabase
        do {
            database = try FeedDatabase(path: opened.0)
        } catch {
            opened.1()
            Terminal.fail(error, file: bundle)
        }
        // One state per file (trip updates, vehicles and alerts may come from three), each
        // message kept for the report.
        func decoded() -> [(file: String, message: RealtimeMessage)] {
            bytes.map { file, data in
                do throws(LiveError) {
                    return (file, try RealtimeReader.read(data))
                } catch {
                    Terminal.fail(ErrorReport(.toolError, message: "\(file): \(error.description)", file: file), status: 1)
                }
            }
        }
        var timings: [Double] = []
        var answer: Result<String, any Error> = .success("")
        for _ in 0..<max(1, repeatRuns) {
            let clock = ContinuousClock.now
            let read = decoded()
            answer = Self.blocking { () async -> Result<String, any Error> in
                do {
                    return .success(try await self.answer(database, read))
                } catch {
                    return .failure(error)
                }
            }
            let took = ContinuousClock.now - clock
            timings.append(Double(took.components.seconds) * 1000 + Double(took.components.attoseconds) / 1e15)
        }
        if repeatRuns > 0 {
            let sorted = timings.sorted()
            let line = String(
                format: "live: %d runs, median %.2f ms (min %.2f, max %.2f): messages read, joined and answered", sorted.count, sorted[sorted.count / 2],
                sorted[0], sorted[sorted.count - 1])
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        switch answer {
        case .success(let text): print(text)
        case .failure(let error as ValidationError):
            opened.1()
            Terminal.fail(error.message, code: .usageError)
        case .failure(let error):
            opened.1()
            Terminal.fail(error, file: bundle)
        }
    }

    /// The screen asked for, as text or JSON.
    private func answer(_ database: FeedDatabase, _ messages: [(file: String, message: RealtimeMessage)]) async throws -> String {
        func state(_ message: RealtimeMessage) -> LiveFeed {
            var state = LiveFeed(source: source, maxAge: maxAge)
            state.apply(message)
            return state
        }
        let states = messages.map { state($0.message) }
        let zone = try await database.agencyTimeZone()
        let moment =
            try at.map { text in
                guard let moment = LiveOutput.moment(text, zone) else { throw ValidationError("--at is YYYY-MM-DDTHH:MM:SS: `\(text)`") }
                return moment
            } ?? Date()
        let output = LiveOutput(zone: zone, json: json)
        if let stop, !alerts {
            return output.departures(try await database.liveDepartures(at: stop, feeds: states, moment: moment, limit: limit))
        } else if let place {
            return output.departures(try await database.livePlaceDepartures(at: place, feeds: states, moment: moment, limit: limit))
        } else if vehicles {
            return output.vehicles(try await database.vehicles(feeds: states, route: route, direction: direction, moment: moment))
        } else if alerts {
            return output.alerts(try await database.alerts(feeds: states, stop: stop, route: route, moment: moment, language: lang))
        }
        // Each message joined alone, then the sums.
        var each: [LiveOutput.MessageReport] = []
        for (file, message) in messages {
            each.append(.init(file: file, source: source, message: message, report: try await database.liveReport(feeds: [state(message)], moment: moment)))
        }
        return output.report(each, stale: states.contains { $0.isStale(at: moment) })
    }

    /// `work`'s result, waited for on this (the main) thread.
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let box = Locked<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = await work()
            done.signal()
        }
        done.wait()
        return box.value!
    }

    /// The file's bytes, at most one byte past the reader's limit (so that a huge file is
    /// refused as too large without being read whole).
    static func read(_ path: String) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return try? handle.read(upToCount: RealtimeLimits.default.maxBytes + 1) ?? Data()
    }
}
