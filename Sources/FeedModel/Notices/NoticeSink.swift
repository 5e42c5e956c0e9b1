/// Collects notices from every stage of a build.
///
/// A large feed can raise hundreds of thousands of notices of one kind (a dangling stop id in
/// every row of stop_times). The sink keeps every count exact but stores at most
/// ``samplesPerCode`` examples of each code, so memory stays bounded.
///
/// `@unchecked Sendable`: a sink is filled by one thread at a time. Each worker, each half of a
/// record batch, each file read side by side has a sink of its own, handed on when that work has
/// ended (``absorb(_:)``), never shared while it is written.
public final class NoticeSink: @unchecked Sendable {
    /// Examples kept per code; notices past it are counted only.
    public let samplesPerCode: Int
    /// The examples kept, at most `samplesPerCode` per code, in the order raised.
    public private(set) var samples: [Notice] = []
    /// Notices raised, by code.
    public private(set) var counts: [String: Int] = [:]
    private var severities: [String: Severity] = [:]
    private var blockingCodes: Set<String> = []
    /// Rows dropped by repairs, per file.
    public private(set) var droppedRows: [String: Int] = [:]
    /// Valid rows left out because bundles do not hold what they describe (GTFS-Flex), per file.
    public private(set) var leftOutRows: [String: Int] = [:]
    private var severityCounts: [Severity: Int] = [:]

    /// An empty sink keeping `samplesPerCode` examples per code.
    public init(samplesPerCode: Int = 50) {
        self.samplesPerCode = samplesPerCode
    }

    /// Counts `notice`, and keeps it as an example while its code has room.
    public func add(_ notice: Notice) {
        let n = counts[notice.code, default: 0]
        counts[notice.code] = n + 1
        severityCounts[notice.severity, default: 0] += 1
        severities[notice.code] = max(severities[notice.code] ?? notice.severity, notice.severity)
        if notice.blocksPublication { blockingCodes.insert(notice.code) }
        if n < samplesPerCode { samples.append(notice) }
    }

    /// Counts a notice, building it only when a sample of its code is still wanted: rules that may
    /// raise one notice per row of a 500k-row file use this.
    public func add(_ kind: NoticeKind, _ make: () -> Notice) {
        let code = kind.code
        if counts[code, default: 0] < samplesPerCode {
            add(make())
        } else {
            counts[code, default: 0] += 1
            severityCounts[severities[code] ?? .info, default: 0] += 1
        }
    }

    /// Records that a repair removed `count` rows of `file`.
    public func recordDropped(_ count: Int, from file: String) {
        guard count > 0 else { return }
        droppedRows[file, default: 0] += count
    }

    /// Notices raised with `code`; 0 for none.
    public func count(of code: String) -> Int { counts[code, default: 0] }

    /// How many notices of `kind` were raised.
    public func count(of kind: NoticeKind) -> Int { count(of: kind.code) }

    /// Notices of a severity, counted as they arrived (a code may come at several severities).
    public func count(severity: Severity) -> Int {
        severityCounts[severity, default: 0]
    }

    /// Records valid rows that bundles do not hold (GTFS-Flex stop times), apart from repairs.
    public func recordLeftOut(_ count: Int, from file: String) {
        guard count > 0 else { return }
        leftOutRows[file, default: 0] += count
    }

    /// True when a notice that blocks publication was raised.
    public var hasBlocking: Bool { !blockingCodes.isEmpty }

    /// Takes every notice and row count of `other` (kept with the same ``samplesPerCode``), as
    /// if they had been added here in its order: work whose notices stand only if it succeeds
    /// (a zip member parsed as it inflates, then refused) collects them aside first.
    public func absorb(_ other: NoticeSink) {
        var sampledByCode: [String: Int] = [:], sampledBySeverity: [Severity: Int] = [:]
        for notice in other.samples {
            add(notice)
            sampledByCode[notice.code, default: 0] += 1
            sampledBySeverity[notice.severity, default: 0] += 1
        }
        for (code, count) in other.counts where count > sampledByCode[code, default: 0] {
            counts[code, default: 0] += count - sampledByCode[code, default: 0]
            if let severity = other.severities[code] { severities[code] = max(severities[code] ?? severity, severity) }
        }
        for (severity, count) in other.severityCounts {
            severityCounts[severity, default: 0] += count - sampledBySeverity[severity, default: 0]
        }
        blockingCodes.formUnion(other.blockingCodes)
        for (file, count) in other.droppedRows { droppedRows[file, default: 0] += count }
        for (file, count) in other.leftOutRows { leftOutRows[file, default: 0] += count }
    }

    /// The stored notices that block publication.
    public var blocking: [Notice] { samples.filter(\.blocksPublication) }

    /// One line per code: code, severity, count; most severe first.
    public var summary: [NoticeSummary] {
        counts.map { NoticeSummary(code: $0.key, severity: severities[$0.key] ?? .info, count: $0.value, blocking: blockingCodes.contains($0.key)) }
            .sorted { ($0.severity, $0.count, $1.code) > ($1.severity, $1.count, $0.code) }
    }
}

/// How many notices of one code a build raised.
public struct NoticeSummary: Codable, Sendable, Equatable {
    /// The notice code (`duplicate_key`).
    public var code: String
    /// The most severe level the code was raised at.
    public var severity: Severity
    /// Notices of the code raised, examples or not.
    public var count: Int
    /// True when the code blocks publication.
    public var blocking: Bool
}
