#if canImport(Glibc)
import CFeedMalloc
#endif

/// Allocator settings for large builds, applied once at start.
enum MemoryTuning {
    /// Blocks of this size or more are mapped on their own and given back to the system as soon
    /// as they are freed.
    static let mmapThreshold: Int32 = 256 * 1024

    /// glibc raises its mmap threshold each time a mapped block is freed (up to 32 MiB), after
    /// which the large column arrays of a build come from the heap, and the room left by arrays
    /// outgrown while a file is read (see `ColumnBuilder.table()`) or freed once a source is
    /// compiled stays in the process. A fixed threshold keeps those arrays mapped.
    /// Measured on Bydgoszcz x16 (9.3M stop_times, one run each, same machine and load): peak RSS
    /// 1,065 MB with glibc's default, 866 MB with 256 KiB (115 -> 93 bytes per stop_time); wall
    /// time within run-to-run noise (46.0 s and 49.8 s on a loaded machine).
    static func apply() {
        #if canImport(Glibc)
        _ = mallopt(M_MMAP_THRESHOLD, mmapThreshold)
        #endif
    }
}
