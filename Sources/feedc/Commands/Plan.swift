import ArgumentParser
import BundleFormat
import FeedClient
import FeedModel
import FeedPipeline
import FeedSQLite
import Foundation

struct Plan: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Plan journeys on a bundle, offline, as an app's planner does.",
        discussion: """
            Round-based routing (RAPTOR) on the bundle's timetable and walks (docs/client.md, \
            "Plan a journey"): for the departure asked, the journeys that arrive earliest with each \
            number of transfers, earliest arrival first. FROM and TO are a stop id (a station: its \
            stops) or LAT,LON (stops within 800 m, walked at 1.2 m/s). The time is local to the \
            agency of the origin; both service days around midnight are searched.

            With --batch, queries are read from standard input, one JSON object per line \
            ({"from": …, "to": …, "depart": … or "arrive": …, "window": …, "delays": {…}, \
            "min_change": …, "max_walk": …, "wheelchair": true, "unknown_accessible": true}), and answered one JSON line each; \
            a line over 1 MiB is answered with a problem and the next line read as usual. \
            Delays (--delays, or "delays" in a batch line) re-plan on live times: a trip late from \
            a stop on, or cancelled. --arrive asks for the latest departure arriving by a time; \
            --window for every journey leaving within N minutes; --min-change, --max-walk and \
            --wheelchair for what the rider needs (docs/client.md, items 4 to 6).

            Exit status: 0 answered (also with no journey: "journeys": [] and a reason); 2 a bad \
            bundle, place or time.
            """)

    @Argument(help: "A bundle file (.sqlite.gz or .sqlite).")
    var bundle: String

    // Unconditional: a southern or western position (`-33.86,151.2`) is this option's value,
    // not an option of its own.
    @Option(parsing: .unconditional, help: "Where the journey starts: a stop id or LAT,LON (negative values as written).")
    var from: String?

    @Option(parsing: .unconditional, help: "Where the journey ends: a stop id or LAT,LON (negative values as written).")
    var to: String?

    @Option(help: "Departure, local to the agency: YYYY-MM-DDTHH:MM.")
    var depart: String?

    @Option(help: "Arrive by this time instead (YYYY-MM-DDTHH:MM): the journeys leaving as late as possible.")
    var arrive: String?

    @Option(help: "With --depart: every journey leaving within this many minutes (1–240), not only the first.")
    var window: Int?

    @Option(name: .customLong("min-change"), help: "Take at least this many seconds to change vehicles (0–3600).")
    var minChange: Int?

    @Option(name: .customLong("max-walk"), help: "Walk at most this many metres at a time (0–10000).")
    var maxWalk: Double?

    @Flag(help: "Step-free: only stops with wheelchair_boarding 1 and trips with wheelchair_accessible 1.")
    var wheelchair = false

    @Flag(name: .customLong("unknown-accessible"), help: "With --wheelchair, count stops and trips without the information as accessible.")
    var unknownAccessible = false

    @Option(help: "Live delays, a JSON file: {\"TRIP_ID\": {\"seconds\": 600, \"from_stop_id\": \"S2\"}, \"OTHER\": {\"cancelled\": true}}.")
    var delays: String?

    @Option(help: "A GTFS-Realtime TripUpdates message to re-plan on (docs/live.md); repeat for several.")
    var live: [String] = []

    @Option(help: "The bundle's source (feeds.source_id) the --live messages belong to.")
    var source: String?

    @Flag(help: "Print the journeys as JSON (docs/client.md).")
    var json = false

    @Flag(help: "Read queries as JSON lines on standard input; answer each as a JSON line.")
    var batch = false

    /// The longest `--batch` line read (1 MiB).
    static let maxBatchLine = 1 << 20

    func run() throws {
        guard FileManager.default.fileExists(atPath: bundle) else { Terminal.fail("\(bundle): no such file", code: .fileNotFound, file: bundle) }
        // The bundle as a plain file once (unpacked or installed into a temporary one when it
        // is gzipped or packed), read by the planner and, with --live, by the live layer.
        let opened: (planner: JourneyPlanner, file: URL, cleanup: () -> Void)
        do {
            let (file, cleanup) = try BundleFile.materialize(URL(fileURLWithPath: bundle))
            do {
                opened = (JourneyPlanner(database: try Database(path: file.path, mode: .readOnly)), file, cleanup)
            } catch {
                cleanup()
                throw error
            }
        } catch {
            Terminal.fail(error, file: bundle)
        }
        defer { opened.cleanup() }
        let planning = JourneyPlanning(planner: opened.planner)
        let liveRuns = try liveTimes(opened.file)
        if batch {
            var lines = BoundedLines(descriptor: STDIN_FILENO, maxBytes: Self.maxBatchLine)
            while let next = lines.next() {
                guard case .text(let line) = next else {
                    if case .tooLong(let bytes) = next {
                        Terminal.printJSON(
                            JourneyPlanning.Answer(journeys: [], problem: "a line of \(bytes) bytes: at most \(Self.maxBatchLine) a query"), line: true)
                    }
                    continue
                }
                guard let data = line.data(using: .utf8), let query = try? JSONDecoder().decode(JourneyPlanning.Query.self, from: data) else {
                    Terminal.printJSON(JourneyPlanning.Answer(journeys: [], problem: "not a query: \(line.prefix(200))"), line: true)
                    continue
                }
                Terminal.printJSON(
                    (try? planning.answer(query, live: liveRuns)) ?? JourneyPlanning.Answer(journeys: [], problem: "the bundle cannot be read"), line: true)
            }
            return
        }
        guard let from, let to, (depart == nil) != (arrive == nil) else {
            Terminal.fail("give --from, --to and one of --depart and --arrive (or --batch)", code: .usageError)
        }
        let answer: JourneyPlanning.Answer
        do {
            var live: [String: JourneyPlanning.Delay]?
            if let delays {
                guard let data = FileManager.default.contents(atPath: delays),
                    let parsed = try? JSONDecoder().decode([String: JourneyPlanning.Delay].self, from: data)
                else {
                    Terminal.fail("\(delays): not a JSON object of delays by trip id", code: .usageError, file: delays)
                }
                live = parsed
            }
            let options = PlanOptions(minChangeSeconds: minChange ?? 0, maxWalkMetres: maxWalk, wheelchair: wheelchair, unknownAccessible: unknownAccessible)
            answer = try planning.answer(
                JourneyPlanning.Query(from: from, to: to, depart: depart, arrive: arrive, window: window, delays: live, options: options), live: liveRuns)
        } catch {
            Terminal.fail(error, file: bundle)
        }
        if let problem = answer.problem { Terminal.fail(problem, code: .usageError) }
        if json {
            Terminal.printJSON(answer)
        } else {
            print(planning.text(answer))
        }
    }

    /// The runs `--live` predicts at each moment asked (docs/live.md, "A journey re-planned on
    /// the messages"): the messages read once, joined at the query's moment.
    private func liveTimes(_ file: URL) throws -> (Int, Int) throws(ClientError) -> [LiveRun] {
        guard !live.isEmpty else { return { _, _ in [] } }
        guard let source else { Terminal.fail("give --source with --live (the bundle's feeds.source_id)", code: .usageError) }
        var states: [LiveFeed] = []
        for file in live {
            guard let data = Live.read(file) else { Terminal.fail(ErrorReport(.fileNotFound, message: "\(file): cannot be read", file: file), status: 1) }
            var state = LiveFeed(source: source)
            do {
                try state.apply(data)
            } catch {
                Terminal.fail(ErrorReport(.toolError, message: "\(file): \(error.description)", file: file), status: 1)
            }
            states.append(state)
        }
        let database = try FeedDatabase(path: file)
        let zone = Live.blocking { try? await database.agencyTimeZone() } ?? TimeZone(identifier: "UTC")!
        let feeds = states
        let runs = { (date: Int, seconds: Int) throws(ClientError) -> [LiveRun] in
            let moment = ServiceTime.instant(serviceDate: date, seconds: seconds, timeZone: zone)
            let result = Live.blocking { () async -> Result<[LiveRun], ClientError> in
                do throws(ClientError) {
                    return .success(try await database.liveRuns(feeds: feeds, moment: moment))
                } catch {
                    return .failure(error)
                }
            }
            return try result.get()
        }
        return runs
    }
}
