#if canImport(Glibc)
import Glibc
#endif

/// Where the store gets the time: milliseconds since 1970. Tests pass a fixed or stepping clock.
public struct Clock: Sendable {
    public var now: @Sendable () -> Int64

    public init(now: @escaping @Sendable () -> Int64) {
        self.now = now
    }

    /// The system's real-time clock (`clock_gettime(CLOCK_REALTIME)`).
    public static let system = Clock {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}
