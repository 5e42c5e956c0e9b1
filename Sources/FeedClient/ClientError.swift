import Foundation

/// Why an update or a query did not complete. In every case the local database is exactly as it
/// was and still usable; the next update starts over (resuming a cut download where it can).
///
/// The cases say what an app can do about it: `offline` (retry when the network is back),
/// `server` (the server or CDN is failing: retry later), `badData` cases (the published files
/// are wrong: report it; retrying will not help until they are republished), `local` (disk),
/// `cancelled` (the task was cancelled; a partial download is kept for the next update).
public enum ClientError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// No connection: the host cannot be reached, the request timed out, or the connection was
    /// cut before the transfer ended.
    case offline(url: String, reason: String)
    /// The server answered 5xx.
    case server(url: String, status: Int)
    /// Another unexpected HTTP status (404, 403, …).
    case http(url: String, status: Int)
    /// The manifest cannot be used: not JSON, another bundle's, older than the local version,
    /// a format this client does not read, or a signature that does not verify.
    case badManifest(String)
    /// A downloaded file's SHA-256 is not the manifest's.
    case checksumMismatch(file: String, expected: String, found: String)
    /// A downloaded file is not what it claims (not gzip, not SQLite, wrong content digest).
    case corruptDownload(file: String, reason: String)
    /// No database at the path yet: the app's first launch, before its first update (which
    /// downloads the full bundle there).
    case noDatabase(path: String)
    /// A local file is not a bundle this library reads (another database, an older bundle
    /// format, a damaged file). The next update replaces it with the full bundle.
    case notABundle(path: String, reason: String)
    /// SQL given to ``FeedDatabase/read(_:_:)`` failed: a syntax error, an unknown table, or a
    /// write (the database is opened read-only).
    case badQuery(reason: String)
    /// Local storage failed (disk full, permissions).
    case local(path: String, reason: String)
    /// Another process is updating the same database and did not finish in time; try again later.
    case busy(path: String)
    /// The task was cancelled. The database is unchanged; a partial download is kept.
    case cancelled
    /// A journey search went past its bound (``JourneyPlanner/maxSteps``) and stopped, with no
    /// journey: a query the timetable cannot answer in reasonable time.
    case searchLimit(steps: Int)

    /// True where trying again later can succeed without anything being republished.
    public var isTransient: Bool {
        switch self {
        case .offline, .server, .cancelled, .busy: true
        default: false
        }
    }

    /// The error in one sentence, for a log or an alert.
    public var description: String {
        switch self {
        case .offline(let url, let reason): "\(url): no connection (\(reason))"
        case .server(let url, let status): "\(url): the server failed (HTTP \(status))"
        case .http(let url, let status): "\(url): HTTP \(status)"
        case .badManifest(let reason): "unusable manifest: \(reason)"
        case .checksumMismatch(let file, let expected, let found): "\(file): SHA-256 \(found), the manifest says \(expected)"
        case .corruptDownload(let file, let reason): "\(file): \(reason)"
        case .noDatabase(let path): "\(path): no database yet (the first update downloads it)"
        case .notABundle(let path, let reason): "\(path) is not a readable bundle: \(reason)"
        case .badQuery(let reason): "the query failed: \(reason)"
        case .local(let path, let reason): "\(path): \(reason)"
        case .busy(let path): "another update of \(path) is under way"
        case .cancelled: "the update was cancelled"
        case .searchLimit(let steps): "no journey: search limit (\(steps) steps)"
        }
    }

    /// A sentence an app can show.
    public var errorDescription: String? {
        switch self {
        case .offline: "The timetable could not be updated: no connection. It will update when you are back online."
        case .server: "The timetable server is not answering right now. Your saved timetable is still shown."
        case .http(_, let status): "The timetable server refused the update (HTTP \(status)). Your saved timetable is still shown."
        case .badManifest, .checksumMismatch, .corruptDownload: "The published timetable update is damaged. Your saved timetable is still shown."
        case .noDatabase: "No timetable on this device yet. It is downloaded on the first update."
        case .notABundle: "The saved timetable cannot be read. The next update downloads it again."
        case .badQuery: "The app asked the timetable something it cannot answer."
        case .busy: "The timetable is being updated already."
        case .local(_, let reason): "The timetable could not be saved on this device (\(reason))."
        case .cancelled: "The timetable update was cancelled."
        case .searchLimit: "No journey was found in time. Try a nearer destination."
        }
    }

    /// The same sentence as `description`, for `LocalizedError`.
    public var failureReason: String? { description }
}

/// What an update did.
public enum UpdateResult: Sendable, Equatable, CustomStringConvertible {
    /// The manifest was unchanged (304) or names the version the database holds.
    case upToDate(version: Int)
    /// A delta brought the database from one version to the next.
    case appliedDelta(from: Int, to: Int, bytes: Int)
    /// The full bundle replaced the database (open ``FeedDatabase`` values reopen it by
    /// themselves on their next query), and why no delta was used.
    case downloadedFull(version: Int, bytes: Int, reason: FullDownloadReason = .firstDownload)

    /// True when the database's content changed: screens showing it should reload.
    public var changed: Bool {
        if case .upToDate = self { false } else { true }
    }

    /// The result in words: "applied delta 4→5, 1234 bytes".
    public var description: String {
        switch self {
        case .upToDate(let version): "up to date (version \(version))"
        case .appliedDelta(let from, let to, let bytes): "applied delta \(from)→\(to), \(bytes) bytes"
        case .downloadedFull(let version, let bytes, let reason): "downloaded full bundle (version \(version)), \(bytes) bytes; \(reason)"
        }
    }
}

/// Why an update took the full bundle instead of a delta.
public enum FullDownloadReason: Sendable, Equatable, CustomStringConvertible {
    /// There was no database (or none this library could read) to apply a delta to.
    case firstDownload
    /// The manifest lists no delta from the local version to the latest: the publisher dropped
    /// it (larger than its share of the bundle, or the version is older than those it keeps).
    case noDeltaPublished(from: Int)
    /// The delta was tried and refused (download, checksum, statement check or digest); the
    /// database was left as it was, then replaced.
    case deltaFailed(from: Int, reason: String)

    /// The reason in words, as the update's description ends.
    public var description: String {
        switch self {
        case .firstDownload: "first download"
        case .noDeltaPublished(let from): "no delta from version \(from) is published"
        case .deltaFailed(let from, let reason): "the delta from version \(from) was not used: \(reason)"
        }
    }
}

/// Where an update is, for a progress bar: the phase, and bytes received of expected while a
/// file downloads. Events of one update come in order; `received` never goes down within a phase.
public struct UpdateProgress: Sendable, Equatable, CustomStringConvertible {
    /// The steps of an update, in the order they run.
    public enum Phase: String, Sendable {
        /// Fetching manifest.json (and its signature).
        case manifest
        /// Downloading the delta or the full bundle.
        case download
        /// Checking SHA-256 and the content digest.
        case verify
        /// Applying the delta or replacing the database.
        case apply
    }

    /// The step the update is in.
    public var phase: Phase
    /// Downloading: bytes of the current file received so far, counting bytes kept from an
    /// earlier attempt. Applying a delta: its statements run so far.
    public var received: Int
    /// Downloading: the file's size from the manifest, when known. Applying a delta: its
    /// statements in all (nil while a full bundle is put in place).
    public var expected: Int?

    /// A progress event; `expected` nil where the size is not known.
    public init(phase: Phase, received: Int = 0, expected: Int? = nil) {
        self.phase = phase
        self.received = received
        self.expected = expected
    }

    /// 0–1 within the download, and within a delta's statements; nil where neither is known.
    public var fraction: Double? {
        guard phase == .download || phase == .apply, let expected, expected > 0 else { return nil }
        return min(1, Double(received) / Double(expected))
    }

    /// The phase and, when known, the count: "download 5120/20480 bytes".
    public var description: String {
        expected.map { "\(phase.rawValue) \(received)/\($0) \(phase == .apply ? "statements" : "bytes")" } ?? phase.rawValue
    }
}
