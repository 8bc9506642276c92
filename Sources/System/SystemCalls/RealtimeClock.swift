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

/// A moment as UTC calendar fields: what a date reads as on a screen.
public struct UTCDateTime: Sendable, Equatable {
    public var year: Int
    /// 1 to 12.
    public var month: Int
    /// 1 to 31.
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    /// The fields of `milliseconds` since 1970 (`gmtime_r(3)`), rounded down to the second;
    /// `nil` for a moment whose year the C library cannot represent.
    public init?(millisecondsSince1970 milliseconds: Int64) {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        guard let time = time_t(exactly: seconds) else { return nil }
        var parts = tm()
        guard system_gmtime_r(time, &parts) else { return nil }
        year = Int(parts.tm_year) + 1900
        month = Int(parts.tm_mon) + 1
        day = Int(parts.tm_mday)
        hour = Int(parts.tm_hour)
        minute = Int(parts.tm_min)
        second = Int(parts.tm_sec)
    }

    /// `2026-12-29`.
    public var dateText: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))"
    }
}
