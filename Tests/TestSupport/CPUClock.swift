import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// CPU time, for bounds on work that must hold on a shared machine: wall time grows with
/// whatever else runs beside a test, CPU time does not.
public enum CPUClock {
    /// Seconds of CPU the calling thread has used.
    public static func thread() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
