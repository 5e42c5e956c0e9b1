import FeedSQLite

#if canImport(Glibc)
    import CFeedMalloc
#endif

/// Allocator settings for large builds, applied once at start, before anything else runs.
enum MemoryTuning {
    /// Blocks of this size or more are mapped on their own and given back to the system as soon
    /// as they are freed.
    static let mmapThreshold: Int32 = 8 << 20

    /// glibc raises its mmap threshold each time a mapped block is freed (up to 32 MiB), after
    /// which the large column arrays of a build come from the heap, and the room left by arrays
    /// outgrown while a file is read (see `ColumnBuilder.table()`) or freed once a source is
    /// compiled stays in the process. A fixed threshold keeps those arrays mapped.
    /// Measured on Bydgoszcz x16 (9.3M stop_times), one run each on the same binary through
    /// `MALLOC_MMAP_THRESHOLD_`, peak RSS and system CPU: glibc's default 1,111 MB, 1.6 s;
    /// 256 KiB 859 MB, 5.1 s; 2 MiB 860 MB, 5.5 s; 8 MiB 859 MB, 3.6 s; 16 MiB 1,097 MB, 2.3 s;
    /// 32 MiB 1,089 MB, 1.6 s. 8 MiB takes 23% off the peak (119 -> 92 bytes per stop_time) for
    /// about 2 s of system time (page faults of fresh mappings) on a build of 30 s CPU.
    static func apply() {
        #if canImport(Glibc)
            _ = mallopt(M_MMAP_THRESHOLD, mmapThreshold)
        #endif
        // SQLite's memory statistics take a global mutex on every allocation (see
        // `SQLiteLibrary`). Rebuild of Wichita with 9 retained versions, deltas side by side on 2
        // workers (`scripts/bench-build.sh wichita`, 2 x 5 interleaved runs, medians): wall
        // 1.22/1.17 -> 0.88/0.89 s, deltas' CPU 1.48/1.39 -> 0.88/0.92 s.
        SQLiteLibrary.turnOffMemoryStatistics()
    }
}
