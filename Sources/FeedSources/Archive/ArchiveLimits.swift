/// What one zip member may unpack to, against zip bombs: a size cap, and a bound on the ratio of
/// unpacked to packed bytes checked while the member inflates, so a bomb is refused once it
/// passes either, not after it has filled memory. Members are parsed from the inflating stream,
/// so the cap bounds the work, not the memory: its default leaves room for national feeds.
public struct ArchiveLimits: Sendable, Equatable {
    /// Largest member read, in bytes (`max_entry_size_mb` in pipeline.yaml). Default 16 GiB: the
    /// largest national stop_times.txt files are a few GB.
    public var maxEntryBytes: UInt64
    /// Largest unpacked / packed size ratio (`max_compression_ratio`). Default 200: GTFS text
    /// packs 5–30 times; the 3.45 GB stop_times.txt bomb of the issue packs 367 times.
    public var maxRatio: Double
    /// The ratio is checked only past this many unpacked bytes (small files of repeated lines
    /// pack far better than real tables). Default 64 MiB.
    public var ratioFloorBytes: UInt64

    /// Limits, the defaults unless told.
    public init(maxEntryBytes: UInt64 = 16 << 30, maxRatio: Double = 200, ratioFloorBytes: UInt64 = 64 << 20) {
        self.maxEntryBytes = maxEntryBytes
        self.maxRatio = maxRatio
        self.ratioFloorBytes = ratioFloorBytes
    }

    /// The defaults: 16 GiB, ratio 200 past 64 MiB.
    public static let standard = ArchiveLimits()

    /// Why `unpacked` bytes of a member packed in `packed` bytes are too many, or nil.
    func refusal(unpacked: UInt64, packed: UInt64) -> String? {
        if unpacked > maxEntryBytes { return "larger than \(maxEntryBytes >> 20) MiB unpacked (max_entry_size_mb)" }
        if unpacked > ratioFloorBytes && Double(unpacked) > maxRatio * Double(max(packed, 1)) {
            return "unpacks to more than \(Int(maxRatio)) times its packed size: a zip bomb? (max_compression_ratio)"
        }
        return nil
    }
}
