#if canImport(Glibc)
import Glibc
#endif

/// The system's wall clock.
public enum RealtimeClock {
    /// Milliseconds since 1970-01-01 00:00:00 UTC (`clock_gettime(CLOCK_REALTIME)`).
    public static func millisecondsSince1970() -> Int64 {
        var spec = timespec()
        // CLOCK_REALTIME always exists and `spec` is valid memory: the call cannot fail.
        _ = system_clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}
